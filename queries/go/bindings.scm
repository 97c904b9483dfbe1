; Variable -> type, so that calls through it resolve (`r.Handle()` with `r *Router`). Go has no
; `self`: a method's receiver is bound like any other parameter. Only named types bind: slices, maps,
; channels and function types have no methods of the repository's.

; Receivers, parameters and named results: `(r *Router)`, `(w http.ResponseWriter, req *Request)`.
(parameter_declaration
  name: (identifier) @binding.name
  type: [
    (type_identifier) (qualified_type) (generic_type)
    (pointer_type [(type_identifier) (qualified_type) (generic_type)])
  ] @binding.type)

; `var x T`, `var x *pkg.T`
(var_spec
  name: (identifier) @binding.name
  type: [
    (type_identifier) (qualified_type) (generic_type)
    (pointer_type [(type_identifier) (qualified_type) (generic_type)])
  ] @binding.type)

; `x := T{…}`, `x := &pkg.T{…}`, `var x = T{…}` (one name, one value)
(short_var_declaration
  left: (expression_list . (identifier) @binding.name .)
  right: (expression_list .
    [
      (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @binding.type)
      (unary_expression operator: "&" operand: (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @binding.type))
    ] .))
(var_spec
  . name: (identifier) @binding.name .
  value: (expression_list .
    [
      (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @binding.type)
      (unary_expression operator: "&" operand: (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @binding.type))
    ] .))

; `x := new(T)`
((short_var_declaration
  left: (expression_list . (identifier) @binding.name .)
  right: (expression_list .
    (call_expression
      function: (identifier) @_new
      arguments: (argument_list . [(type_identifier) (qualified_type) (generic_type)] @binding.type .)) .))
  (#eq? @_new "new"))

; `t := x.(*T)`, `t, ok := x.(T)`
(short_var_declaration
  left: (expression_list . (identifier) @binding.name)
  right: (expression_list .
    (type_assertion_expression
      type: [
        (type_identifier) (qualified_type) (generic_type)
        (pointer_type [(type_identifier) (qualified_type) (generic_type)])
      ] @binding.type) .))

; `f, err := os.Open(p)`, `svc := NewService()`: the names hold what `pkg.F` or `F` returns. When
; `pkg` is an import from outside the repository, calls through them are known to leave it
; (`f.Close()`, `err.Error()`); for a function of the repository, its declared result type is used.
(short_var_declaration
  left: (expression_list (identifier) @binding.name)
  right: (expression_list . (call_expression function: (identifier) @binding.call) .))
(var_spec
  name: (identifier) @binding.name
  value: (expression_list . (call_expression function: (identifier) @binding.call) .))
(short_var_declaration
  left: (expression_list (identifier) @binding.name)
  right: (expression_list .
    (call_expression function: (selector_expression operand: (identifier) field: (field_identifier)) @binding.call) .))
(var_spec
  name: (identifier) @binding.name
  value: (expression_list .
    (call_expression function: (selector_expression operand: (identifier) field: (field_identifier)) @binding.call) .))
