; Definitions. Roles and capture names: queries/README.md.
;
; The grammar writes a function's signature and its body as sibling nodes: the signature is the
; definition and the `@body` that follows it extends the symbol to the body's end.

(class_definition name: (identifier) @name body: (class_body) @body) @definition.class
(mixin_declaration (identifier) @name (class_body) @body) @definition.trait
(enum_declaration name: (identifier) @name body: (enum_body) @body) @definition.enum
(enum_constant name: (identifier) @name) @definition.constant

; Top-level functions: `int clamp(int value) => …;`
(program
  (function_signature name: (identifier) @name (formal_parameter_list) @params) @definition.function
  .
  (function_body) @body)

; Methods, getters and setters with a body.
(class_body
  (method_signature (function_signature name: (identifier) @name (formal_parameter_list) @params)) @definition.function
  .
  (function_body) @body)
(class_body
  (method_signature [(getter_signature name: (identifier) @name) (setter_signature name: (identifier) @name)]) @definition.function
  .
  (function_body) @body)
; Factory and named constructors: `factory Product.sample() => …` is `Product.sample`.
(class_body
  (method_signature (factory_constructor_signature (identifier) . (identifier) @name (formal_parameter_list) @params)) @definition.function
  .
  (function_body) @body)

; Abstract methods and constructors without a body.
(class_body (declaration (function_signature name: (identifier) @name (formal_parameter_list) @params)) @definition.function)
(class_body (declaration (constructor_signature name: (identifier) @name parameters: (formal_parameter_list) @params)) @definition.function)

; `const maxDiscount = 50;` at the top of a library, with its doc comment.
(program
  (static_final_declaration_list (static_final_declaration (identifier) @name) @definition.constant))
(program
  (documentation_comment) @doc
  .
  [(const_builtin) (final_builtin)]
  .
  (static_final_declaration_list . (static_final_declaration (identifier) @name) @definition.constant))

(program . (documentation_comment) @module.doc)
