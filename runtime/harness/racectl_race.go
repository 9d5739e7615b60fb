//go:build race
// +build race

package harness

import "runtime"

// raceDisable and raceEnable hide the scheduler's handoffs from the race
// detector: a goroutine kept waiting at a hook and released by the other
// must not gain a happens-before edge the program does not have.
func raceDisable() { runtime.RaceDisable() }

func raceEnable() { runtime.RaceEnable() }
