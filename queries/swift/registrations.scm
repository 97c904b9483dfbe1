; Registrations (src/extract/registrations.ts): Vapor routes, app.get("users", ":id", use: show) and
; app.post("todos") { req in ... } (an inline handler: the endpoint calls what it calls).
((call_expression
  (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @register.verb))
  (call_suffix (value_arguments (value_argument value: (line_string_literal) @register.route)))) @register
  (#match? @register.verb "^(get|post|put|patch|delete|on)$"))

((call_expression
  (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @_verb))
  (call_suffix (value_arguments
    (value_argument name: (value_argument_label (simple_identifier) @_use) value: (_) @register.callback)))) @register
  (#match? @_verb "^(get|post|put|patch|delete|on)$")
  (#eq? @_use "use"))
