; Definitions. Roles and capture names: queries/README.md.
;
; A `type`, `const` or `var` declaration that declares one name is captured whole, so its signature
; starts with the keyword and its doc comment is the comment above it; inside a `( … )` group each
; spec is captured, with the comment above the spec as its doc.

; The package comment: the comment block right above `package` (the extractor takes the whole block).
(source_file (comment) @module.doc . (package_clause))

(function_declaration
  name: (identifier) @name
  parameters: (parameter_list) @params) @definition.function
(function_declaration body: (block) @body) @definition.function

; `func (r *Router) Handle(...)`: the receiver type qualifies the name (`Router.Handle`).
(method_declaration
  receiver: (parameter_list (parameter_declaration type: (_) @receiver))
  name: (field_identifier) @name
  parameters: (parameter_list) @params) @definition.method
(method_declaration body: (block) @body) @definition.method

; ---- types: one declaration

((type_declaration
  (type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body))) @definition.struct
  (#not-match? @definition.struct "^type\\s*\\("))

((type_declaration
  (type_spec name: (type_identifier) @name type: (interface_type "{" @body))) @definition.interface
  (#not-match? @definition.interface "^type\\s*\\("))

((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: [
      (type_identifier) (qualified_type) (generic_type) (pointer_type) (slice_type) (array_type) (map_type)
      (channel_type) (function_type) (parenthesized_type) (negated_type)
    ])) @definition.type
  (#not-match? @definition.type "^type\\s*\\("))

((type_declaration (type_alias name: (type_identifier) @name)) @definition.type
  (#not-match? @definition.type "^type\\s*\\("))

; ---- types: inside `type ( … )`

(type_declaration "("
  (type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body)) @definition.struct)

(type_declaration "("
  (type_spec name: (type_identifier) @name type: (interface_type "{" @body)) @definition.interface)

(type_declaration "("
  (type_spec
    name: (type_identifier) @name
    type: [
      (type_identifier) (qualified_type) (generic_type) (pointer_type) (slice_type) (array_type) (map_type)
      (channel_type) (function_type) (parenthesized_type) (negated_type)
    ]) @definition.type)

(type_declaration "(" (type_alias name: (type_identifier) @name) @definition.type)

; Interface methods: members of the interface (`Storable.Key`).
(method_elem
  name: (field_identifier) @name
  parameters: (parameter_list) @params) @definition.method

; ---- package-level constants and variables
;
; Package-level `var`s are indexed too (sentinel errors, default instances, command trees), as
; `constant`: the engine has no variable kind, and the signature keeps the `var` keyword. Locals
; inside functions are not symbols, nor is the blank `_` (`var _ Iface = (*T)(nil)`). A spec naming
; several (`a, b = 1, 2`) gives one symbol per name, each on its identifier, since one node cannot
; hold several symbols.

((source_file (const_declaration (const_spec . name: (identifier) @name) @_spec) @definition.constant)
  (#not-match? @definition.constant "^const\\s*\\(")
  (#not-match? @_spec "^\\w+\\s*,")
  (#not-eq? @name "_"))

((source_file (const_declaration "(" (const_spec . name: (identifier) @name) @definition.constant))
  (#not-match? @definition.constant "^\\w+\\s*,")
  (#not-eq? @name "_"))

((source_file (const_declaration (const_spec . (identifier) @name @definition.constant) @_spec))
  (#match? @_spec "^\\w+\\s*,")
  (#not-eq? @name "_"))
((source_file (const_declaration (const_spec (identifier) (identifier) @name @definition.constant)))
  (#not-eq? @name "_"))

((source_file (var_declaration (var_spec . name: (identifier) @name) @_spec) @definition.constant)
  (#not-match? @_spec "^\\w+\\s*,")
  (#not-eq? @name "_"))

((source_file (var_declaration (var_spec_list (var_spec . name: (identifier) @name) @definition.constant)))
  (#not-match? @definition.constant "^\\w+\\s*,")
  (#not-eq? @name "_"))

((source_file (var_declaration (var_spec . (identifier) @name @definition.constant) @_spec))
  (#match? @_spec "^\\w+\\s*,")
  (#not-eq? @name "_"))
((source_file (var_declaration (var_spec_list (var_spec . (identifier) @name @definition.constant) @_spec)))
  (#match? @_spec "^\\w+\\s*,")
  (#not-eq? @name "_"))
((source_file (var_declaration (var_spec (identifier) (identifier) @name @definition.constant)))
  (#not-eq? @name "_"))
((source_file (var_declaration (var_spec_list (var_spec (identifier) (identifier) @name @definition.constant))))
  (#not-eq? @name "_"))
