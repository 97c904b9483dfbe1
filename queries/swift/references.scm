; Call sites. Trailing-closure calls (`foo { ... }`) have the same shape as `foo(...)`.
; `Foo(...)` is a call of `Foo`, which resolves to the type: constructor calls.
; Subscripts (`items[0]`) parse as calls too; a call node ending in `]` is one and is left out.
((call_expression . (simple_identifier) @call.name) @call
  (#not-match? @call "\\]$"))

; `obj.foo()`, `Type.foo()`, `self.foo()`, `super.foo()`, `a?.foo()` (the `?` is not the target),
; `a.b().foo()`, `"s".foo()`. Targets that are operator expressions are handled below.
((call_expression
  . (navigation_expression
      target: [
        (simple_identifier) (navigation_expression) (self_expression) (super_expression) (call_expression)
        (constructor_expression) (tuple_expression) (array_literal) (dictionary_literal) (lambda_literal)
        (line_string_literal) (multi_line_string_literal) (user_type) (array_type) (dictionary_type)
        (key_path_expression) (await_expression)
      ] @call.receiver
      suffix: (navigation_suffix suffix: (simple_identifier) @call.name))) @call
  (#not-match? @call "\\]$"))

; The grammar lets a call suffix bind looser than some operators: `x + y.foo()`, `!a.isEmpty()`,
; `try a.b().foo()` and `a!.foo()` parse as calls on `x + y`, `!a`, `try a.b()`, `a!`. The receiver
; is the operand next to the dot.
((call_expression
  . (navigation_expression
      target: [
        (additive_expression rhs: (_) @call.receiver)
        (multiplicative_expression rhs: (_) @call.receiver)
        (prefix_expression target: (_) @call.receiver)
        (try_expression expr: (_) @call.receiver)
        (postfix_expression target: (_) @call.receiver operation: (bang))
      ]
      suffix: (navigation_suffix suffix: (simple_identifier) @call.name))) @call
  (#not-match? @call "\\]$"))

; ... and `x + foo()`, `!foo()`, `-foo()`, `try a + foo()` as calls of `x + foo`, `!foo`, `-foo`.
((call_expression
  . [
    (additive_expression rhs: (simple_identifier) @call.name)
    (multiplicative_expression rhs: (simple_identifier) @call.name)
    (prefix_expression operation: [(bang) "-" "+" "~"] target: (simple_identifier) @call.name)
    (additive_expression rhs: (multiplicative_expression rhs: (simple_identifier) @call.name))
    (try_expression expr: (additive_expression rhs: (simple_identifier) @call.name))
  ]) @call
  (#not-match? @call "\\]$"))

; `x + y.foo()` nested one level deeper still keeps its name and receiver.
((call_expression
  . [
    (additive_expression rhs: (navigation_expression
      target: (_) @call.receiver suffix: (navigation_suffix suffix: (simple_identifier) @call.name)))
    (multiplicative_expression rhs: (navigation_expression
      target: (_) @call.receiver suffix: (navigation_suffix suffix: (simple_identifier) @call.name)))
  ]) @call
  (#not-match? @call "\\]$"))

; Generic constructor calls `Box<Int>()` parse as their own node.
(constructor_expression
  constructed_type: (user_type (type_identifier) @call.name . (type_arguments))) @call

; Imports (parsed by parseImport in src/lang/swift.ts).
(import_declaration) @import

; Supertypes. The grammar cannot tell a superclass from a protocol: Swift requires the superclass to be
; listed first, so the first entry of a class is taken as `extends` and the rest as `implements`.
; Structs, enums, actors, protocols and extensions only conform: every entry is `implements`.
(class_declaration
  declaration_kind: "class"
  name: (type_identifier) . (inheritance_specifier inherits_from: (_) @extends))

(class_declaration
  declaration_kind: "class"
  (type_parameters) . (inheritance_specifier inherits_from: (_) @extends))

(class_declaration
  declaration_kind: "class"
  (inheritance_specifier)
  . (inheritance_specifier inherits_from: (_) @implements))

(class_declaration
  declaration_kind: ["struct" "enum" "actor" "extension"]
  (inheritance_specifier inherits_from: (_) @implements))

(protocol_declaration
  (inheritance_specifier inherits_from: (_) @implements))
