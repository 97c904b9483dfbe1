; Variable -> type, for resolving calls through a receiver (`v = User(); v.save()`).
; Constructed values count only when the callee looks like a class (CapWords).
(assignment
  left: [(identifier) (attribute)] @binding.name
  right: (call function: [(identifier) (attribute)] @binding.type)
  (#match? @binding.type "^([a-z_][a-zA-Z0-9_]*\\.)*_?[A-Z]"))

(assignment
  left: [(identifier) (attribute)] @binding.name
  type: (type) @binding.type)

(typed_parameter (identifier) @binding.name type: (type) @binding.type)
(typed_default_parameter name: (identifier) @binding.name type: (type) @binding.type)
