; Data access (src/extract/accesses.ts).

; Writes: `s.count = 1`, `s.total += x`, `s.n++`, `defaultClient = c` (kept for constants and
; package-level definitions of the file).
(assignment_statement left: (expression_list [(selector_expression) (identifier)] @access.write))
(inc_statement [(selector_expression) (identifier)] @access.write)
(dec_statement [(selector_expression) (identifier)] @access.write)

; Reads: field selections (callees and assignment targets are left out by the extractor).
(selector_expression operand: (_) field: (field_identifier)) @access.read

; Query strings that look like SQL statements.
([(interpreted_string_literal) (raw_string_literal)] @access.sql
  (#match? @access.sql "^[\"`]\\s*([Ss][Ee][Ll][Ee][Cc][Tt]|[Ii][Nn][Ss][Ee][Rr][Tt]|[Uu][Pp][Dd][Aa][Tt][Ee]|[Dd][Ee][Ll][Ee][Tt][Ee]|[Ww][Ii][Tt][Hh])\\s"))

; GORM: db.Table("users"), db.Model(&User{}).
((call_expression
  function: (selector_expression field: (field_identifier) @access.method)
  arguments: (argument_list . [(interpreted_string_literal) (raw_string_literal)] @access.table))
  (#eq? @access.method "Table"))

((call_expression
  function: (selector_expression field: (field_identifier) @access.method)
  arguments: (argument_list . (unary_expression operand: (composite_literal type: (type_identifier) @access.model))))
  (#eq? @access.method "Model"))
