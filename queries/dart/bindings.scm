; Variable -> class: parameters (`Product p`), constructed locals (`final p = Product(…)`), typed
; locals, and fields declared in the class body (`final Repository _repo;`).
(formal_parameter (type_identifier) @binding.type . name: (identifier) @binding.name)
((initialized_variable_definition name: (identifier) @binding.name value: (identifier) @binding.type . value: (selector (argument_part)))
  (#match? @binding.type "^_?[A-Z]"))
(local_variable_declaration
  (initialized_variable_definition (type_identifier) @binding.type . name: (identifier) @binding.name))
(class_body
  (declaration (type_identifier) @binding.type . (initialized_identifier_list (initialized_identifier (identifier) @binding.field))))
