; Call sites. `new Foo()` is a call of Foo; `require(…)` is an import, not a call.
; A wildcard with fields, `(_ object: … property: …)`, is the one node type that has them there: cheaper to compile
; (queries/README.md, "Compile cost").
(call_expression
  function: (identifier) @call.name
  (#not-eq? @call.name "require")) @call

(call_expression
  function: (_
    object: (_) @call.receiver
    property: [(property_identifier) (private_property_identifier)] @call.name)) @call

(new_expression constructor: (identifier) @call.name) @call

(new_expression
  constructor: (_
    object: (_) @call.receiver
    property: (property_identifier) @call.name)) @call

; A decorator without arguments is called with what it adorns: `@sealed class A {}`.
(decorator (identifier) @call.name) @call
(decorator (_ object: (_) @call.receiver property: (property_identifier) @call.name)) @call
