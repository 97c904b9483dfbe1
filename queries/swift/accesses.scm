; Data access (src/extract/accesses.ts).

; Writes: `self.total = x`, `count += 1`.
(assignment target: (directly_assignable_expression [(navigation_expression) (simple_identifier)] @access.write))

; Reads: member accesses (callees and assignment targets are left out by the extractor), constants by name.
(navigation_expression target: (_) suffix: (navigation_suffix suffix: (simple_identifier))) @access.read

; Query strings that look like SQL statements.
((line_string_literal) @access.sql
  (#match? @access.sql "^\"\\s*([Ss][Ee][Ll][Ee][Cc][Tt]|[Ii][Nn][Ss][Ee][Rr][Tt]|[Uu][Pp][Dd][Aa][Tt][Ee]|[Dd][Ee][Ll][Ee][Tt][Ee]|[Ww][Ii][Tt][Hh])\\s"))
