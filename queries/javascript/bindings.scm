; Fields: `repo = new Repo();` is `this.repo`.
(field_definition
  property: [(property_identifier) (private_property_identifier)] @binding.field
  value: (new_expression constructor: [(identifier) (member_expression)] @binding.type))
