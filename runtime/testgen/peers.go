package testgen

import (
	"go/types"
	"maps"
	"slices"
	"strings"

	"github.com/depcon/depcon/runtime/harness"
)

// A constructor that takes a connection (harness.KConn: a Client given
// an io.ReadWriteCloser) speaks a protocol over it: on a connection no
// one answers, its handshake hangs or its receive loop gives up, and the
// object does nothing a test can use. The package's constructor of the
// same signature (its Server) is the other side of that protocol: it is
// built on the other end of the connection, as the package's own tests
// pair them.

// withPeers returns the arguments args of constructor f, each connection
// among them given a peer when the package has one: another function of
// the package with f's signature, called with the other end of the
// connection in its place and f's other arguments.
func (g *Generator) withPeers(f *Func, args []harness.Value) []harness.Value {
	peer := g.peerOf(f)
	if peer == nil {
		return args
	}
	out := slices.Clone(args)
	for i, a := range out {
		if a.K != harness.KConn || a.Call != nil {
			continue
		}
		pargs := slices.Clone(args)
		for j := range pargs {
			if pargs[j].K == harness.KConn {
				pargs[j] = harness.Value{K: harness.KConn} // another connection, read and discarded
			}
		}
		pargs[i] = harness.Value{K: harness.KPeer}
		out[i] = harness.Value{K: harness.KConn, Call: &harness.Call{Fn: peer.Name, Args: pargs}}
	}
	return out
}

// peerOf returns the function of the package, other than f and not
// dropped, with f's signature, the first by name; nil when there is none.
// Plain functions come before methods.
func (g *Generator) peerOf(f *Func) *Func {
	var best *Func
	for _, name := range slices.Sorted(maps.Keys(g.s.Funcs)) {
		p := g.s.Funcs[name]
		if p.Name == f.Name || g.ctorDropped(p.Name) || !types.Identical(p.Sig, f.Sig) {
			continue
		}
		if best == nil || strings.Contains(best.Name, ".") && !strings.Contains(p.Name, ".") {
			best = p
		}
	}
	return best
}
