; Names bound inside a function, initializer or closure (LanguageSpec.localScopes): a bare call of one
; (`completion()` with `completion: @escaping () -> Void`) goes to that binding, never to a same-named
; function of the module. A function declared in a body is the scope's own definition.
(parameter name: (simple_identifier) @local.name)
(lambda_parameter name: (simple_identifier) @local.name)
(property_declaration name: (pattern bound_identifier: (simple_identifier) @local.name))
(function_declaration name: (simple_identifier) @local.definition)
