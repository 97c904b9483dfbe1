; Names bound inside a function or block (LanguageSpec.localScopes): a bare call of one goes to that
; binding, never to a same-named definition elsewhere in the file or the repository. `@local.name`
; belongs to the nearest scope around it; `@local.definition` (a declared function or class) to the
; scope around its declaration. Bindings at the top of a file have no scope and change nothing.
; Names taken out of an object (`const { jsx } = await import('./index')`, `function f({ render })`) are
; left to the usual resolution: they are most often the object's own functions of that name.
(variable_declarator name: [(identifier) @local.name (array_pattern (identifier) @local.name)])
(catch_clause parameter: (identifier) @local.name)
(for_in_statement left: (identifier) @local.name)
(function_declaration name: (identifier) @local.definition)
(generator_function_declaration name: (identifier) @local.definition)
; A function-valued property of an object literal written inside a scope binds no name, but only that
; scope sees it: a bare call elsewhere in the file is not a call of it.
(pair key: (property_identifier) @local.property value: (_ [parameters: (_) parameter: (_)] body: (_)))
(object (method_definition name: (property_identifier) @local.property))
