; Declared types: parameters, locals, fields. Arrays, unions and function types are not receivers.
(required_parameter
  pattern: (identifier) @binding.name
  type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @binding.type))

(optional_parameter
  pattern: (identifier) @binding.name
  type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @binding.type))

(variable_declarator
  name: (identifier) @binding.name
  type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @binding.type))

; `const x = y as Foo`
(variable_declarator
  name: (identifier) @binding.name
  value: (as_expression (_) [(type_identifier) (generic_type) (nested_type_identifier)] @binding.type))

; Constructor parameter properties (`constructor(private repo: Repo)`) are fields: `this.repo`.
(required_parameter
  (accessibility_modifier)
  pattern: (identifier) @binding.field
  type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @binding.type))

(required_parameter
  "readonly"
  pattern: (identifier) @binding.field
  type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @binding.type))

; Fields: `private repo: Repo;`, `repo = new Repo();`.
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @binding.field
  type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @binding.type))

(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @binding.field
  value: (new_expression constructor: [(identifier) (member_expression)] @binding.type))
