; Variable -> type, so that `p.discounted()` and `repo_->store()` resolve on the declared class.
; Parameters and locals: `Product p`, `const Product &p`, `Repository *repo`, `shop::Product p = …`.
(parameter_declaration
  type: [(type_identifier) (qualified_identifier) (template_type)] @binding.type
  declarator: [
    (identifier) @binding.name
    (pointer_declarator declarator: (identifier) @binding.name)
    (reference_declarator (identifier) @binding.name)
  ])
(declaration
  type: [(type_identifier) (qualified_identifier) (template_type)] @binding.type
  declarator: [
    (identifier) @binding.name
    (pointer_declarator declarator: (identifier) @binding.name)
    (reference_declarator (identifier) @binding.name)
    (init_declarator declarator: [
      (identifier) @binding.name
      (pointer_declarator declarator: (identifier) @binding.name)
      (reference_declarator (identifier) @binding.name)
    ])
  ])

; `auto *p = new Product(…)`, `auto p = Product(…)`
(init_declarator
  declarator: [(identifier) @binding.name (pointer_declarator declarator: (identifier) @binding.name)]
  value: (new_expression type: [(type_identifier) (qualified_identifier) (template_type)] @binding.type))
((init_declarator
  declarator: (identifier) @binding.name
  value: (call_expression function: [(identifier) (qualified_identifier)] @binding.type))
  (#match? @binding.type "^([a-z_]\\w*::)*[A-Z]"))

; Fields: `Repository *repo_;` is reached as `repo_` or `this->repo_` in the class's methods.
(field_declaration
  type: [(type_identifier) (qualified_identifier) (template_type)] @binding.type
  declarator: [
    (field_identifier) @binding.field
    (pointer_declarator declarator: (field_identifier) @binding.field)
  ])
