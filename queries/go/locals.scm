; Names bound inside a function or block (LanguageSpec.localScopes): a bare call of one (`next(w, r)`
; with `next http.Handler`, `f := func() {…}; f()`) goes to that binding, never to a same-named
; function of the package or the repository. Package-level declarations have no scope and change nothing.
(parameter_declaration name: (identifier) @local.name)
(variadic_parameter_declaration name: (identifier) @local.name)
(short_var_declaration left: (expression_list (identifier) @local.name))
(var_spec name: (identifier) @local.name)
(range_clause left: (expression_list (identifier) @local.name))
