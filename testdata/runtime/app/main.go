// Command app is application code: its concurrently used type is
// unexported, with unexported methods called from the program's own
// goroutines. The hit counter is incremented after the unlock: a race
// depcon test finds without flags, since this is package main.
package main

import (
	"fmt"
	"sync"
)

type server struct {
	mu    sync.Mutex
	conns map[int]string
	hits  int
}

func newServer() *server { return &server{conns: map[int]string{}} }

func (s *server) accept(id int, addr string) {
	s.mu.Lock()
	s.conns[id] = addr
	s.mu.Unlock()
	s.hits++
}

func (s *server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns) + s.hits
}

func main() {
	s := newServer()
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			s.accept(i, fmt.Sprint("10.0.0.", i))
		}(i)
	}
	wg.Wait()
	fmt.Println(s.count())
}
