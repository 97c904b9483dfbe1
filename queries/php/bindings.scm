; Variable -> type, for resolving calls through a receiver (`$repo->save()` with `Repo $repo`).
; Nullable `?Repo` keeps its `?` (normalizeTypeName drops it); in a union `Repo|null` the first class
; named stands for the whole.

; Typed parameters.
(simple_parameter
  type: [(named_type) (optional_type)] @binding.type
  name: (variable_name) @binding.name)
(simple_parameter
  type: (union_type . (named_type) @binding.type)
  name: (variable_name) @binding.name)
(variadic_parameter
  type: [(named_type) (optional_type)] @binding.type
  name: (variable_name) @binding.name)

; Promoted constructor parameters are both a parameter and a property (`$this->repo`).
(property_promotion_parameter
  type: [(named_type) (optional_type)] @binding.type
  name: (variable_name) @binding.name)
(property_promotion_parameter
  type: [(named_type) (optional_type)] @binding.type
  name: (variable_name) @binding.field)
(property_promotion_parameter
  type: (union_type . (named_type) @binding.type)
  name: (variable_name) @binding.field)

; Typed properties (not static ones: those are reached as `self::$x`, not through `$this`).
((property_declaration
  type: [(named_type) (optional_type)] @binding.type
  (property_element name: (variable_name) @binding.field)) @_decl
  (#not-match? @_decl "^[^$]*\\bstatic\\b"))
((property_declaration
  type: (union_type . (named_type) @binding.type)
  (property_element name: (variable_name) @binding.field)) @_decl
  (#not-match? @_decl "^[^$]*\\bstatic\\b"))

; Constructed values: `$repo = new Repo()`, `$this->repo = new Repo()`.
(assignment_expression
  left: [(variable_name) (member_access_expression)] @binding.name
  right: (object_creation_expression [(name) (qualified_name)] @binding.type))

; `if ($node instanceof Heading) { $node->level() }`: the test narrows the variable's type.
(binary_expression
  left: [(variable_name) (member_access_expression)] @binding.name
  operator: "instanceof"
  right: [(name) (qualified_name)] @binding.type)
