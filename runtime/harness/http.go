package harness

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"time"
)

// RequestTimeout is how long a KRequest's context lasts at most: a
// handler that serves until its client leaves (an event stream)
// returns then.
const RequestTimeout = 50 * time.Millisecond

var (
	recorderType = reflect.TypeOf((*httptest.ResponseRecorder)(nil))
	requestType  = reflect.TypeOf((*http.Request)(nil))
)

// newResponse returns a new response recorder (KResponse) for a
// parameter of type t: an http.ResponseWriter or a
// *httptest.ResponseRecorder.
func newResponse(t reflect.Type) (reflect.Value, error) {
	if t != recorderType && !recorderType.AssignableTo(t) {
		return reflect.Value{}, fmt.Errorf("response value for parameter of type %s", t)
	}
	return reflect.ValueOf(httptest.NewRecorder()).Convert(t), nil
}

// newRequest returns a new GET request of "/" (KRequest), for a
// parameter of type *http.Request, whose client leaves (its context
// ends) after RequestTimeout, or when sc's requests end: once the
// other of the two concurrent calls has returned.
func newRequest(t reflect.Type, sc *scope) (reflect.Value, error) {
	if t != requestType {
		return reflect.Value{}, fmt.Errorf("request value for parameter of type %s", t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), RequestTimeout)
	sc.leave = append(sc.leave, cancel)
	// The deadline ends ctx; cancel then releases its resources.
	context.AfterFunc(ctx, cancel)
	return reflect.ValueOf(httptest.NewRequest("GET", "/", nil).WithContext(ctx)), nil
}
