//go:build !race
// +build !race

package harness

func raceDisable() {}

func raceEnable() {}
