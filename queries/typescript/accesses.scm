; Tables a class declares (src/extract/accesses.ts): TypeORM's @Entity('users').
; A wildcard with fields, `(_ object: … property: …)`, is the one node type that has them there: cheaper to compile
; (queries/README.md, "Compile cost").
((export_statement
  decorator: (decorator (_ function: (identifier) @_entity arguments: (arguments . (string) @access.declare)))
  declaration: (class_declaration name: (type_identifier) @access.owner))
  (#eq? @_entity "Entity"))

((class_declaration
  decorator: (decorator (_ function: (identifier) @_entity arguments: (arguments . (string) @access.declare)))
  name: (type_identifier) @access.owner)
  (#eq? @_entity "Entity"))
