; Variable -> class: parameters, constructor properties (`class Service(private val repo: Repository)`),
; typed and constructed locals (`val p: Product = …`, `val p = Product(…)`).
(parameter (simple_identifier) @binding.name (user_type) @binding.type)
(class_parameter (simple_identifier) @binding.field (user_type) @binding.type)
(property_declaration (variable_declaration (simple_identifier) @binding.name (user_type) @binding.type))
((property_declaration
  (variable_declaration (simple_identifier) @binding.name)
  (call_expression (simple_identifier) @binding.type (call_suffix)))
  (#match? @binding.type "^[A-Z]"))
