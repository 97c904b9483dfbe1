; Names bound inside a function or lambda (LanguageSpec.localScopes): a bare call of one goes to that
; binding, never to a same-named definition elsewhere. `@local.name` (parameters, assigned names, loop
; and `with … as` targets) belongs to the nearest function around it; `@local.definition` (a nested
; `def` or `class`) to the function around its declaration. Module and class bodies are not scopes.
(parameters [
  (identifier) @local.name
  (default_parameter name: (identifier) @local.name)
  (typed_parameter (identifier) @local.name)
  (typed_default_parameter name: (identifier) @local.name)
  (list_splat_pattern (identifier) @local.name)
  (dictionary_splat_pattern (identifier) @local.name)])
(lambda_parameters (identifier) @local.name)
(assignment left: [(identifier) @local.name (pattern_list (identifier) @local.name) (tuple_pattern (identifier) @local.name)])
(for_statement left: [(identifier) @local.name (pattern_list (identifier) @local.name)])
(as_pattern alias: (as_pattern_target (identifier) @local.name))
(function_definition name: (identifier) @local.definition)
(class_definition name: (identifier) @local.definition)
