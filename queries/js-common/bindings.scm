; Variable -> type for calls through a receiver: constructed values (`const r = new Repo()`).
; A wildcard with fields, `(_ object: … property: …)`, is the one node type that has them there: cheaper to compile
; (queries/README.md, "Compile cost").
(variable_declarator
  name: (identifier) @binding.name
  value: (new_expression constructor: [(identifier) (member_expression)] @binding.type))

(assignment_expression
  left: [(identifier) (_ object: (this) property: (_))] @binding.name
  right: (new_expression constructor: [(identifier) (member_expression)] @binding.type))
