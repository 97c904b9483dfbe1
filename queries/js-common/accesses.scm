; Data access (src/extract/accesses.ts).
; A wildcard with fields, `(_ object: … property: …)`, is the one node type that has them there: cheaper to compile
; (queries/README.md, "Compile cost").

; Writes: `this.total = x`, `order.count += 1`, `this.n++`, `counter = 0` (kept for constants and
; top-level definitions).
(assignment_expression left: [(member_expression) (identifier)] @access.write)
(augmented_assignment_expression left: [(member_expression) (identifier)] @access.write)
(update_expression argument: [(member_expression) (identifier)] @access.write)

; Reads: member accesses (callees and assignment targets are left out by the extractor), constants by name.
(member_expression object: (_) property: (property_identifier)) @access.read
((identifier) @access.read
  (#match? @access.read "^[A-Z][A-Z0-9_]*[A-Z0-9]$"))

; Query strings that look like SQL statements.
([(string) (template_string)] @access.sql
  (#match? @access.sql "^['\"`]\\s*([Ss][Ee][Ll][Ee][Cc][Tt]|[Ii][Nn][Ss][Ee][Rr][Tt]|[Uu][Pp][Dd][Aa][Tt][Ee]|[Dd][Ee][Ll][Ee][Tt][Ee]|[Ww][Ii][Tt][Hh])\\s"))

; Prisma: prisma.user.findMany() reads the user table, prisma.user.create() writes it.
((call_expression
  function: (_
    object: (_ object: (identifier) @_prisma property: (property_identifier) @access.table)
    property: (property_identifier) @access.method))
  (#match? @_prisma "^(prisma|db)$")
  (#match? @access.method "^(find|create|update|upsert|delete|count|aggregate|groupBy)"))

; Knex: knex('users').insert(...), db('users').where(...).
((call_expression
  function: (_
    object: (_ function: (identifier) @_knex arguments: (arguments . (string) @access.table))
    property: (property_identifier) @access.method))
  (#match? @_knex "^(knex|db)$"))
