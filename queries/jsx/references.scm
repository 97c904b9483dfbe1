; Rendering a component is a call of it: `<Button />`, `<Form.Field>`. Lower-case names are HTML tags.
([(jsx_opening_element name: (identifier) @call.name) (jsx_self_closing_element name: (identifier) @call.name)] @call
  (#match? @call.name "^[A-Z]"))

[
  (jsx_opening_element name: (member_expression object: (_) @call.receiver property: (property_identifier) @call.name))
  (jsx_self_closing_element name: (member_expression object: (_) @call.receiver property: (property_identifier) @call.name))
] @call
