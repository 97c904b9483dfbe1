; Data access (src/extract/accesses.ts).
; `(_ object: … attribute: …)` is an attribute, `(_ function: … arguments: …)` a call: cheaper to compile
; (queries/README.md, "Compile cost").

; Writes: assignment targets, `self.total = x`, `self.count += 1`, `counter = 0` (kept for constants,
; top-level definitions and declared globals).
(assignment left: [(attribute) (identifier)] @access.write)
(augmented_assignment left: [(attribute) (identifier)] @access.write)
(assignment left: (pattern_list [(attribute) (identifier)] @access.write))

; Reads: member accesses (callees and assignment targets are left out by the extractor), and
; constants by name.
(attribute object: (_) attribute: (identifier)) @access.read
((identifier) @access.read
  (#match? @access.read "^[A-Z][A-Z0-9_]*[A-Z0-9]$"))

; Query strings that look like SQL statements.
((string) @access.sql
  (#match? @access.sql "^[rRbBuUfF]*['\"]+\\s*([Ss][Ee][Ll][Ee][Cc][Tt]|[Ii][Nn][Ss][Ee][Rr][Tt]|[Uu][Pp][Dd][Aa][Tt][Ee]|[Dd][Ee][Ll][Ee][Tt][Ee]|[Ww][Ii][Tt][Hh])\\s"))

; Django's ORM: User.objects.filter(...) reads the model, User.objects.create(...) writes it.
((call
  function: (_
    object: (_ object: (identifier) @access.model attribute: (identifier) @_objects)
    attribute: (identifier) @access.method))
  (#eq? @_objects "objects"))

; SQLAlchemy: session.query(User), select(User).
((call
  function: (_ attribute: (identifier) @_query)
  arguments: (argument_list . (identifier) @access.model))
  (#eq? @_query "query")
  (#match? @access.model "^[A-Z]"))

((call
  function: (identifier) @_select
  arguments: (argument_list . (identifier) @access.model))
  (#eq? @_select "select")
  (#match? @access.model "^[A-Z]"))

; Alembic migrations: op.create_table('users', ...), op.add_column('users', ...).
((call
  function: (_ object: (identifier) @_op attribute: (identifier) @access.method)
  arguments: (argument_list . (string) @access.table))
  (#eq? @_op "op")
  (#match? @access.method "^(create_table|drop_table|add_column|drop_column|alter_column|rename_table|create_index|drop_index|bulk_insert)$"))

; Tables a class declares: SQLAlchemy's __tablename__, Django's Meta.db_table.
((class_definition
  body: (block (expression_statement (assignment left: (identifier) @_name right: (string) @access.declare))))
  (#eq? @_name "__tablename__"))

((class_definition
  name: (identifier) @access.owner
  body: (block (class_definition
    name: (identifier) @_meta
    body: (block (expression_statement (assignment left: (identifier) @_name right: (string) @access.declare))))))
  (#eq? @_meta "Meta")
  (#eq? @_name "db_table"))
