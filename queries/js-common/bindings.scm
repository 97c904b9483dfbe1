; Variable -> type for calls through a receiver: constructed values (`const r = new Repo()`).
(variable_declarator
  name: (identifier) @binding.name
  value: (new_expression constructor: [(identifier) (member_expression)] @binding.type))

(assignment_expression
  left: [(identifier) (member_expression object: (this))] @binding.name
  right: (new_expression constructor: [(identifier) (member_expression)] @binding.type))
