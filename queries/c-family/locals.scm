; C and C++ (both grammars name these nodes alike). Names bound inside a function or block
; (LanguageSpec.localScopes): a bare call of one (`cb()` with a parameter `void (*cb)(void)`) goes to
; that binding, never to a same-named function of the program.
(parameter_declaration declarator: (identifier) @local.name)
(parameter_declaration declarator: (pointer_declarator declarator: (identifier) @local.name))
(parameter_declaration declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @local.name))))
(declaration declarator: (init_declarator declarator: (identifier) @local.name))
(declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @local.name)))
