; Tables a class declares (src/extract/accesses.ts): TypeORM's @Entity('users').
((export_statement
  decorator: (decorator (call_expression function: (identifier) @_entity arguments: (arguments . (string) @access.declare)))
  declaration: (class_declaration name: (type_identifier) @access.owner))
  (#eq? @_entity "Entity"))

((class_declaration
  decorator: (decorator (call_expression function: (identifier) @_entity arguments: (arguments . (string) @access.declare)))
  name: (type_identifier) @access.owner)
  (#eq? @_entity "Entity"))
