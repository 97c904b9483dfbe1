; Supertypes: `class A extends B implements C, D<T>`, `interface I extends J, K`.
(class_heritage
  (extends_clause value: [(identifier) (member_expression)] @extends))

(class_heritage
  (implements_clause [(type_identifier) (nested_type_identifier) (generic_type)] @implements))

(extends_type_clause
  type: [(type_identifier) (nested_type_identifier) (generic_type)] @extends)

; `export = Foo`
(export_statement (identifier) @export.name)
(export_statement "=" (identifier)) @import
