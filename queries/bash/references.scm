; Call sites: every command is one; a command that names a function of the script or of a sourced
; file calls it, the others run programs or builtins.
((command name: (command_name (word) @call.name)) @call
  (#not-match? @call.name "^(source|\\.)$"))

; `source file`, `. file` (parsed by parseImport in src/lang/bash.ts).
((command name: (command_name (word) @_src) argument: (_)) @import
  (#match? @_src "^(source|\\.)$"))
