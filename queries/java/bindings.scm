; Variable -> type, for resolving calls through a receiver (`repo.save()` with `Repo repo`).
; Parameters, locals, fields (seen from every method of the class, with or without `this.`) and
; loop, catch and try-with-resources variables. `var x = new Foo()` takes the constructed type.

(formal_parameter
  type: (_) @binding.type
  name: (identifier) @binding.name)

(local_variable_declaration
  type: (_) @binding.type
  declarator: (variable_declarator name: (identifier) @binding.name)
  (#not-eq? @binding.type "var"))

(local_variable_declaration
  type: (type_identifier) @_var
  declarator: (variable_declarator
    name: (identifier) @binding.name
    value: (object_creation_expression type: (_) @binding.type))
  (#eq? @_var "var"))

(field_declaration
  type: (_) @binding.type
  declarator: (variable_declarator name: (identifier) @binding.name))

(enhanced_for_statement
  type: (_) @binding.type
  name: (identifier) @binding.name)

(resource
  type: (_) @binding.type
  name: (identifier) @binding.name)

(catch_formal_parameter
  (catch_type . (_) @binding.type .)
  name: (identifier) @binding.name)

(assignment_expression
  left: (field_access object: (this)) @binding.name
  right: (object_creation_expression type: (_) @binding.type))

(instanceof_expression
  right: (_) @binding.type
  name: (identifier) @binding.name)
