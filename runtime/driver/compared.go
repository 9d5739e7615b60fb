package driver

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/testgen"
)

// comparedValues returns, for each method of type typ in pkg, by
// parameter index, the values its body compares that parameter with: a
// constant (name == "", n == 0, mode == ModeSync), nil, or the empty
// string of len(s) == 0, and the cases of a switch on it. The path to a
// bug is often behind such a test (a lock taken again when the name is
// empty), so the generator tries them before it calls a pair saturated.
func comparedValues(pkg *packages.Package, typ string) map[string]map[int][]harness.Value {
	out := map[string]map[int][]harness.Value{}
	if pkg.TypesInfo == nil {
		return out
	}
	info := pkg.TypesInfo
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv == nil || len(fd.Recv.List) != 1 || load.ReceiverName(fd.Recv.List[0].Type) != typ {
				continue
			}
			params := map[*types.Var]int{}
			i := 0
			for _, field := range fd.Type.Params.List {
				if len(field.Names) == 0 {
					i++
					continue
				}
				for _, name := range field.Names {
					if v, ok := info.Defs[name].(*types.Var); ok {
						params[v] = i
					}
					i++
				}
			}
			if len(params) == 0 {
				continue
			}
			add := func(p int, v harness.Value) {
				if out[fd.Name.Name] == nil {
					out[fd.Name.Name] = map[int][]harness.Value{}
				}
				for _, old := range out[fd.Name.Name][p] {
					if old.K == v.K && old.Lit == v.Lit {
						return
					}
				}
				out[fd.Name.Name][p] = append(out[fd.Name.Name][p], v)
			}
			param := func(e ast.Expr) (int, bool) {
				id, ok := ast.Unparen(e).(*ast.Ident)
				if !ok {
					return 0, false
				}
				v, ok := info.Uses[id].(*types.Var)
				if !ok {
					return 0, false
				}
				p, ok := params[v]
				return p, ok
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.BinaryExpr:
					if n.Op != token.EQL && n.Op != token.NEQ {
						return true
					}
					for _, sides := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
						if p, ok := param(sides[0]); ok {
							if v, ok := valueOf(info, sides[1]); ok {
								add(p, v)
							}
						}
						// len(s) == 0: the empty string or slice.
						if call, ok := ast.Unparen(sides[0]).(*ast.CallExpr); ok && len(call.Args) == 1 {
							if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "len" {
								if p, ok := param(call.Args[0]); ok {
									if tv, ok := info.Types[sides[1]]; ok && tv.Value != nil && tv.Value.String() == "0" {
										if b, ok := info.TypeOf(call.Args[0]).Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
											add(p, harness.Value{K: harness.KLit, Lit: ""})
										} else {
											add(p, harness.Value{K: harness.KZero})
										}
									}
								}
							}
						}
					}
				case *ast.SwitchStmt:
					p, ok := param(n.Tag)
					if !ok || n.Tag == nil {
						return true
					}
					for _, s := range n.Body.List {
						for _, e := range s.(*ast.CaseClause).List {
							if v, ok := valueOf(info, e); ok {
								add(p, v)
							}
						}
					}
				}
				return true
			})
		}
	}
	return out
}

// valueOf returns the value of a constant expression or nil, as an
// argument.
func valueOf(info *types.Info, e ast.Expr) (harness.Value, bool) {
	tv, ok := info.Types[e]
	if !ok {
		return harness.Value{}, false
	}
	if tv.IsNil() {
		return harness.Value{K: harness.KZero}, true
	}
	if tv.Value == nil {
		return harness.Value{}, false
	}
	switch tv.Value.Kind() {
	case constant.String:
		s := constant.StringVal(tv.Value)
		if testgen.OutsidePath(s) {
			return harness.Value{}, false
		}
		return harness.Value{K: harness.KLit, Lit: s}, true
	case constant.Int, constant.Float:
		return harness.Value{K: harness.KLit, Lit: tv.Value.ExactString()}, true
	case constant.Bool:
		return harness.Value{K: harness.KLit, Lit: tv.Value.String()}, true
	}
	return harness.Value{}, false
}
