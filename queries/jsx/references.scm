; Rendering a component is a call of it: `<Button />`, `<Form.Field>`. Lower-case names are HTML tags.
; A wildcard with fields, `(_ object: … property: …)`, is the one node type that has them there: cheaper to compile
; (queries/README.md, "Compile cost").
([(jsx_opening_element name: (identifier) @call.name) (jsx_self_closing_element name: (identifier) @call.name)] @call
  (#match? @call.name "^[A-Z]"))

[
  (jsx_opening_element name: (_ object: (_) @call.receiver property: (property_identifier) @call.name))
  (jsx_self_closing_element name: (_ object: (_) @call.receiver property: (property_identifier) @call.name))
] @call
