; Definitions. Roles and capture names: queries/README.md.
; `name() { … }` and `function name { … }`.
(function_definition name: (word) @name body: (_) @body) @definition.function

; `readonly MAX=50`, `declare -r MAX=50` and `MAX=50` at the top of a script: UPPER_CASE names are constants.
((program (declaration_command (variable_assignment name: (variable_name) @name)) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]+$"))
((program (variable_assignment name: (variable_name) @name) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]+$"))

; The comment block at the top of a script, after its `#!` line.
(program . (comment) . (comment) @module.doc.line)
