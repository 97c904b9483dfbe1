; Tables a class declares (src/extract/accesses.ts): TypeORM's @Entity('users').
; `(_ object: … property: …)` is a member_expression, `(_ function: … arguments: …)` a call_expression, `(_ [parameters: …
; parameter: …] body: …)` a function value: cheaper to compile (queries/README.md, "Compile cost").
((export_statement
  decorator: (decorator (_ function: (identifier) @_entity arguments: (arguments . (string) @access.declare)))
  declaration: (class_declaration name: (type_identifier) @access.owner))
  (#eq? @_entity "Entity"))

((class_declaration
  decorator: (decorator (_ function: (identifier) @_entity arguments: (arguments . (string) @access.declare)))
  name: (type_identifier) @access.owner)
  (#eq? @_entity "Entity"))
