; Names bound inside a function, closure or block (LanguageSpec.localScopes): a bare call of one
; (`f()` with `f: F` where `F: Fn()`, `let cb = |x| …; cb(1)`) goes to that binding, never to a
; same-named function of the crate. A function declared in a body is the scope's own definition.
(parameter pattern: (identifier) @local.name)
(closure_parameters (identifier) @local.name)
(let_declaration pattern: (identifier) @local.name)
(function_item name: (identifier) @local.definition)
