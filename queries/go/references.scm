; Call sites.
;
; Builtins and conversions to predeclared types (`len(x)`, `make(…)`, `string(b)`) are not call
; sites: no code of any repository can be their target. `min`, `max`, `clear`, `print` and `println`
; stay, since older code often defines functions of those names.
((call_expression function: (identifier) @call.name) @call
  (#not-match? @call.name "^(append|cap|close|complex|copy|delete|imag|len|make|new|panic|real|recover|bool|byte|rune|string|error|any|int|int8|int16|int32|int64|uint|uint8|uint16|uint32|uint64|uintptr|float32|float64|complex64|complex128)$"))

; `pkg.F()`, `x.M()`, `r.store.Get()`, `a.b().c()`: the receiver is the operand as written.
(call_expression
  function: (selector_expression
    operand: (_) @call.receiver
    field: (field_identifier) @call.name)) @call

; Explicitly instantiated generic functions: `Map[int](xs)`, `slices.Index[T](…)`. The grammar reads
; some of them as conversions to a generic type.
(call_expression function: (index_expression operand: (identifier) @call.name)) @call
(call_expression
  function: (index_expression
    operand: (selector_expression operand: (_) @call.receiver field: (field_identifier) @call.name))) @call
(type_conversion_expression type: (generic_type type: (type_identifier) @call.name)) @call
(type_conversion_expression
  type: (generic_type type: (qualified_type package: (package_identifier) @call.receiver name: (type_identifier) @call.name))) @call

; Constructions count as calls of the type, like `Foo()` elsewhere: composite literals `T{…}`,
; `&pkg.T{…}`, `List[int]{}`, and `new(T)`.
(composite_literal type: (type_identifier) @call.name) @call
(composite_literal type: (qualified_type package: (package_identifier) @call.receiver name: (type_identifier) @call.name)) @call
(composite_literal type: (generic_type type: (type_identifier) @call.name)) @call
(composite_literal
  type: (generic_type type: (qualified_type package: (package_identifier) @call.receiver name: (type_identifier) @call.name))) @call

((call_expression
  function: (identifier) @_new
  arguments: (argument_list . [
    (type_identifier) @call.name
    (qualified_type package: (package_identifier) @call.receiver name: (type_identifier) @call.name)
    (generic_type type: (type_identifier) @call.name)
  ] .)) @call
  (#eq? @_new "new"))
