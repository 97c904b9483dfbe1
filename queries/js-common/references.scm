; Call sites. `new Foo()` is a call of Foo; `require(…)` is an import, not a call.
(call_expression
  function: (identifier) @call.name
  (#not-eq? @call.name "require")) @call

(call_expression
  function: (member_expression
    object: (_) @call.receiver
    property: [(property_identifier) (private_property_identifier)] @call.name)) @call

(new_expression constructor: (identifier) @call.name) @call

(new_expression
  constructor: (member_expression
    object: (_) @call.receiver
    property: (property_identifier) @call.name)) @call

; A decorator without arguments is called with what it adorns: `@sealed class A {}`.
(decorator (identifier) @call.name) @call
(decorator (member_expression object: (_) @call.receiver property: (property_identifier) @call.name)) @call
