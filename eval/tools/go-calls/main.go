// Command go-calls prints every call in a Go source tree, resolved by the Go type checker (go/types, with
// imports read from source): the truth that eval/call-graph-truth.mjs scores call graphs against for Go.
//
//	go-calls [-also PREFIX] ROOT < files
//
// ROOT's files (relative paths, one a line, on stdin) are type-checked package by package (a folder's
// files, its `_test` package apart). One JSON object a line: {file, line, name, target}, target as in
// eval/tools/python-calls.py: a function or method of the tree {file, line, lines, name}, "value" (a
// variable or field holding a function), "external" (outside the tree, a builtin) or null (unknown).
// -also names a folder whose files count as the tree's (Go's own net/http checked against a copy of it:
// the importer reads GOROOT's).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type target struct {
	File   string  `json:"file"`
	Line   int     `json:"line"`
	Lines  []int   `json:"lines"`
	Name   string  `json:"name"`
	CtorOf *string `json:"ctorOf"`
}

type site struct {
	File   string      `json:"file"`
	Line   int         `json:"line"`
	Name   string      `json:"name"`
	Target interface{} `json:"target"`
}

func main() {
	also := flag.String("also", "", "a folder whose files count as the tree's")
	flag.Parse()
	root, _ := filepath.Abs(flag.Arg(0))
	byDir := map[string][]string{}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.TrimSpace(in.Text())
		if strings.HasSuffix(f, ".go") {
			byDir[filepath.Dir(f)] = append(byDir[filepath.Dir(f)], f)
		}
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	out := json.NewEncoder(os.Stdout)
	rel := func(p string) (string, bool) {
		for _, base := range []string{root, *also} {
			if base != "" && strings.HasPrefix(p, base+string(filepath.Separator)) {
				return filepath.ToSlash(p[len(base)+1:]), true
			}
		}
		return "", false
	}
	for _, dir := range dirs {
		// A folder's package and its external test package are checked apart.
		groups := map[string][]*ast.File{}
		for _, f := range byDir[dir] {
			// The files the default build compiles (omithttp2.go is only for the nethttpomithttp2 tag).
			if ok, err := build.Default.MatchFile(filepath.Join(root, dir), filepath.Base(f)); err != nil || !ok {
				continue
			}
			file, err := parser.ParseFile(fset, filepath.Join(root, f), nil, parser.SkipObjectResolution)
			if err != nil || file == nil {
				continue
			}
			groups[file.Name.Name] = append(groups[file.Name.Name], file)
		}
		for name, files := range groups {
			info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
			conf := types.Config{Importer: imp, Error: func(error) {}}
			conf.Check(filepath.ToSlash(filepath.Join("tree", dir, name)), fset, files, info)
			for _, file := range files {
				ast.Inspect(file, func(n ast.Node) bool {
					if lit, ok := n.(*ast.CompositeLit); ok {
						// `T{…}` and `&T{…}` construct a T: a call of the type, as `new T()` is elsewhere.
						if id := typeIdent(lit.Type); id != nil {
							if tn, ok := info.Uses[id].(*types.TypeName); ok {
								emit(out, fset, rel, lit.Pos(), id.Name, typeTarget(fset, rel, tn))
							}
						}
						return true
					}
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					var ident *ast.Ident
					var obj types.Object
					fn := call.Fun
					// A generic function's instance: `getTyped[int64](c, key)`.
					switch x := fn.(type) {
					case *ast.IndexExpr:
						fn = x.X
					case *ast.IndexListExpr:
						fn = x.X
					}
					switch fun := fn.(type) {
					case *ast.Ident:
						ident, obj = fun, info.Uses[fun]
					case *ast.SelectorExpr:
						ident = fun.Sel
						if sel := info.Selections[fun]; sel != nil {
							obj = sel.Obj()
						} else {
							obj = info.Uses[fun.Sel]
						}
					default:
						return true
					}
					if tn, conversion := obj.(*types.TypeName); conversion {
						// T(x) converts: a use of the type, counted as its construction.
						emit(out, fset, rel, call.Pos(), ident.Name, typeTarget(fset, rel, tn))
						return true
					}
					pos := fset.Position(call.Pos())
					from, _ := rel(pos.Filename)
					s := site{File: from, Line: pos.Line, Name: ident.Name}
					switch o := obj.(type) {
					case nil:
						s.Target = nil
					case *types.Builtin:
						s.Target = "external"
					case *types.Func:
						at := fset.Position(o.Pos())
						if f, in := rel(at.Filename); in {
							s.Target = target{File: f, Line: at.Line, Lines: []int{at.Line}, Name: o.Name()}
						} else {
							s.Target = "external"
						}
					case *types.Var:
						at := fset.Position(o.Pos())
						if f, in := rel(at.Filename); !in {
							s.Target = "external"
						} else if o.Pkg() != nil && o.Parent() == o.Pkg().Scope() {
							// A package-level variable holding a function (`var engine = sync.OnceValue(…)`):
							// a tool that links the call there is right; recall does not ask for it.
							s.Target = map[string]interface{}{"file": f, "line": at.Line, "lines": []int{at.Line}, "name": o.Name(), "ctorOf": nil, "value": true}
						} else {
							s.Target = "value"
						}
					default:
						s.Target = nil
					}
					if err := out.Encode(s); err != nil {
						fmt.Fprintln(os.Stderr, err)
						os.Exit(1)
					}
					return true
				})
			}
		}
	}
}

// typeIdent is the name a composite literal's type is written with (`T`, `pkg.T`), nil for others.
func typeIdent(e ast.Expr) *ast.Ident {
	switch t := e.(type) {
	case *ast.Ident:
		return t
	case *ast.SelectorExpr:
		return t.Sel
	case *ast.IndexExpr: // a generic type's instance
		return typeIdent(t.X)
	}
	return nil
}

// typeTarget is a type of the tree as a construction's target (ctorOf its name), "external" outside it.
func typeTarget(fset *token.FileSet, rel func(string) (string, bool), tn *types.TypeName) interface{} {
	at := fset.Position(tn.Pos())
	f, in := rel(at.Filename)
	if !in || !at.IsValid() {
		return "external"
	}
	name := tn.Name()
	return target{File: f, Line: at.Line, Lines: []int{at.Line}, Name: name, CtorOf: &name}
}

func emit(out *json.Encoder, fset *token.FileSet, rel func(string) (string, bool), pos token.Pos, name string, t interface{}) {
	p := fset.Position(pos)
	from, _ := rel(p.Filename)
	if err := out.Encode(site{File: from, Line: p.Line, Name: name, Target: t}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
