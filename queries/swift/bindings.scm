; Variable -> type, for resolving calls through a receiver (`let s = Session(); s.start()`).

; Typed parameters: `_ session: Session`, `session: Session?`. The grammar names both the parameter
; and its type `name` (a query cannot ask for the field twice): the type is the node right after the name.
(parameter
  name: (simple_identifier) @binding.name
  . [(user_type) (optional_type)] @binding.type
  (#not-match? @binding.type "\\.Type$"))

; `some Command` / `any Command`.
(parameter
  name: (simple_identifier) @binding.name
  . [(opaque_type (user_type) @binding.type) (existential_type (user_type) @binding.type)])

; Generic parameters stand for their constraint: `<T: ParsableCommand>` and `where T: ParsableCommand`
; make `T.parse()` a member of ParsableCommand.
(type_parameter (type_identifier) @binding.name (user_type) @binding.type)

(inheritance_constraint
  constrained_type: (identifier . (simple_identifier) @binding.name .)
  (user_type) @binding.type)

; A metatype parameter (`_ type: Command.Type`): `type.init()` and `type.parse()` are members of Command.
(parameter
  name: (simple_identifier) @binding.name
  . (user_type (type_identifier) @binding.type . "." . (type_identifier) @_meta .)
  (#eq? @_meta "Type"))

; Typed constants, variables and stored properties: `let session: Session`. A stored property's binding
; lives on its type, where `session.x()` and `self.session.x()` find it.
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @binding.name)
  (type_annotation [(user_type) (optional_type)] @binding.type))

; Constructed values, when the callee looks like a type (CapWords): `let s = Session()`,
; `let s = try Session()`, `let s = Foo.Bar()`, `let b = Box<Int>()`.
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @binding.name)
  value: [
    (call_expression . [(simple_identifier) (navigation_expression)] @binding.type)
    (try_expression expr: (call_expression . [(simple_identifier) (navigation_expression)] @binding.type))
    (await_expression expr: (call_expression . [(simple_identifier) (navigation_expression)] @binding.type))
  ]
  (#match? @binding.type "^([A-Z][A-Za-z0-9_]*\\.)*[A-Z][A-Za-z0-9_]*$"))

(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @binding.name)
  value: (constructor_expression constructed_type: (_) @binding.type))

; `self.session = Session()` in an initializer.
(assignment
  target: (directly_assignable_expression
    (navigation_expression target: (self_expression))) @binding.name
  result: [
    (call_expression . [(simple_identifier) (navigation_expression)] @binding.type)
    (try_expression expr: (call_expression . [(simple_identifier) (navigation_expression)] @binding.type))
  ]
  (#match? @binding.type "^([A-Z][A-Za-z0-9_]*\\.)*[A-Z][A-Za-z0-9_]*$"))

; Casts: `let c = x as! Command`, `if let c = x as? Command`, `guard let c = x as? Command`.
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @binding.name)
  value: (as_expression (user_type) @binding.type))

(if_statement
  (simple_identifier) @binding.name . "=" . (as_expression (user_type) @binding.type))

(guard_statement
  (simple_identifier) @binding.name . "=" . (as_expression (user_type) @binding.type))
