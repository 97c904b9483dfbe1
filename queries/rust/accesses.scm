; Data access (src/extract/accesses.ts).

; Writes: `self.total = x`, `self.count += 1`.
(assignment_expression left: [(field_expression) (identifier)] @access.write)
(compound_assignment_expr left: [(field_expression) (identifier)] @access.write)

; Reads: field accesses (callees and assignment targets are left out by the extractor), constants and statics by name.
(field_expression value: (_) field: (field_identifier)) @access.read
((identifier) @access.read
  (#match? @access.read "^[A-Z][A-Z0-9_]*[A-Z0-9]$"))

; Query strings that look like SQL statements (also inside sqlx's query! macros).
([(string_literal) (raw_string_literal)] @access.sql
  (#match? @access.sql "^r?#*\"\\s*([Ss][Ee][Ll][Ee][Cc][Tt]|[Ii][Nn][Ss][Ee][Rr][Tt]|[Uu][Pp][Dd][Aa][Tt][Ee]|[Dd][Ee][Ll][Ee][Tt][Ee]|[Ww][Ii][Tt][Hh])\\s"))
