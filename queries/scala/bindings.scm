; Variable -> class: parameters, class parameters (fields of the class), typed and constructed vals.
(parameter name: (identifier) @binding.name type: [(type_identifier) (generic_type)] @binding.type)
(class_parameter name: (identifier) @binding.field type: [(type_identifier) (generic_type)] @binding.type)
(val_definition pattern: (identifier) @binding.name type: [(type_identifier) (generic_type)] @binding.type)
(val_definition pattern: (identifier) @binding.name value: (instance_expression (type_identifier) @binding.type))
((val_definition pattern: (identifier) @binding.name value: (call_expression function: (identifier) @binding.type))
  (#match? @binding.type "^[A-Z]"))
