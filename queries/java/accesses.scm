; Data access (src/extract/accesses.ts).

; Writes: `this.total = x`, `count += 1` (a bare name is kept when it is a field of the enclosing class).
(assignment_expression left: [(field_access) (identifier)] @access.write)
(update_expression [(field_access) (identifier)] @access.write)

; Reads: field accesses (callees and assignment targets are left out by the extractor), constants by name.
(field_access object: (_) field: (identifier)) @access.read
((identifier) @access.read
  (#match? @access.read "^[A-Z][A-Z0-9_]*[A-Z0-9]$"))

; Query strings that look like SQL statements (JDBC, JPQL in @Query).
((string_literal) @access.sql
  (#match? @access.sql "^\"+\\s*([Ss][Ee][Ll][Ee][Cc][Tt]|[Ii][Nn][Ss][Ee][Rr][Tt]|[Uu][Pp][Dd][Aa][Tt][Ee]|[Dd][Ee][Ll][Ee][Tt][Ee]|[Ww][Ii][Tt][Hh])\\s"))

; Tables a class declares: JPA's @Table(name = "users").
((class_declaration
  (modifiers (annotation
    name: (identifier) @_table
    arguments: (annotation_argument_list (element_value_pair key: (identifier) @_key value: (string_literal) @access.declare))))
  name: (identifier) @access.owner)
  (#eq? @_table "Table")
  (#eq? @_key "name"))
