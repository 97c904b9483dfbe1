; Variable -> type, so that `item.Key()` and `_repo.Store()` resolve on the declared class.
(parameter type: [(identifier) (qualified_name) (generic_name)] @binding.type name: (identifier) @binding.name)

; `Product p = …;`, `M.Product other = …;`
(local_declaration_statement
  (variable_declaration
    type: [(identifier) (qualified_name) (generic_name)] @binding.type
    (variable_declarator name: (identifier) @binding.name)))

; `var p = new Product(…);`
(variable_declaration
  type: (implicit_type)
  (variable_declarator
    name: (identifier) @binding.name
    (object_creation_expression type: [(identifier) (qualified_name) (generic_name)] @binding.type)))

; Fields: `private readonly Repository _repo;` is `_repo` or `this._repo` in the class's methods.
(field_declaration
  (variable_declaration
    type: [(identifier) (qualified_name) (generic_name)] @binding.type
    (variable_declarator name: (identifier) @binding.field)))
