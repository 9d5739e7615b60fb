// Package tickets sells the seats of an event.
package tickets

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Rows and SeatsPerRow give the hall's layout: rows A to T of 25 seats.
const (
	Rows        = "ABCDEFGHIJKLMNOPQRST"
	SeatsPerRow = 25
)

// A Ticket is one seat of the event.
type Ticket struct {
	Event string
	Row   byte
	Seat  int
}

func (t Ticket) String() string {
	return fmt.Sprintf("%s %c%d", t.Event, t.Row, t.Seat)
}

// ErrClosed is returned by Sell once the office is closed: every ticket
// sold or the sale recalled.
var ErrClosed = errors.New("tickets: sale closed")

// Office sells the tickets of one event, best seats first. It closes when
// the last ticket is sold or when the sale is recalled. An Office is safe
// for concurrent use by multiple goroutines.
type Office struct {
	event string

	mu     sync.Mutex
	stock  []Ticket // unsold, best seat first; empty exactly when closed
	sold   int
	closed bool
}

// New opens the sale of event's tickets: every seat of the hall, front
// rows first.
func New(event string) *Office {
	o := &Office{event: event}
	for r := 0; r < len(Rows); r++ {
		for s := 1; s <= SeatsPerRow; s++ {
			o.stock = append(o.stock, Ticket{event, Rows[r], s})
		}
	}
	return o
}

// Open reports whether tickets are still on sale.
func (o *Office) Open() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return !o.closed
}

// Sell sells the best unsold seat.
func (o *Office) Sell() (Ticket, error) {
	if !o.Open() {
		return Ticket{}, ErrClosed
	}
	return o.take(), nil
}

// take removes the best unsold seat from the stock, closing the sale
// after the last one, and returns it. The sale is open.
func (o *Office) take() Ticket {
	o.mu.Lock()
	defer o.mu.Unlock()
	t := o.stock[0]
	o.stock = o.stock[1:]
	o.sold++
	if len(o.stock) == 0 {
		o.closed = true
	}
	return t
}

// Sold returns the number of tickets sold.
func (o *Office) Sold() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.sold
}

// Recall withdraws every unsold ticket and closes the sale. It returns
// the notice listing the withdrawn seats with the reason, as they were
// when the recall began.
func (o *Office) Recall(reason string) string {
	o.mu.Lock()
	unsold := append([]Ticket(nil), o.stock...)
	o.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d seats withdrawn (%s)\n", o.event, len(unsold), reason)
	for _, t := range unsold {
		fmt.Fprintf(&b, "  row %c seat %2d\n", t.Row, t.Seat)
	}
	o.mu.Lock()
	o.stock = nil
	o.closed = true
	o.mu.Unlock()
	return b.String()
}
