; Definitions. Roles and capture names: queries/README.md.
;
; Function definitions, not prototypes: a prototype in a header declares what a source file defines,
; and calls resolve to the definition. The name sits inside the declarator, under pointers
; (`product_t *product_new(…)`, `char **split(…)`).

(function_definition
  declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list) @params)
  body: (compound_statement) @body) @definition.function
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list) @params))
  body: (compound_statement) @body) @definition.function
(function_definition
  declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list) @params)))
  body: (compound_statement) @body) @definition.function

; Types with a body: `struct product { … }`, `union u { … }`, `enum kind { … }`.
(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct
(enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum

; `typedef struct { … } point_t;`: an anonymous type named by its typedef.
(type_definition
  type: (struct_specifier !name body: (field_declaration_list) @body)
  declarator: (type_identifier) @name) @definition.struct
(type_definition
  type: (union_specifier !name body: (field_declaration_list) @body)
  declarator: (type_identifier) @name) @definition.struct
(type_definition
  type: (enum_specifier !name body: (enumerator_list) @body)
  declarator: (type_identifier) @name) @definition.enum

; Other typedefs: `typedef struct product product_t;`, `typedef int (*handler_fn)(int);`
(type_definition
  type: [(struct_specifier name: (_) !body) (union_specifier name: (_) !body) (enum_specifier name: (_) !body)
         (primitive_type) (type_identifier) (sized_type_specifier)]
  declarator: [
    (type_identifier) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
  ]) @definition.type

; Macros: `#define MAX 50` is a constant, `#define SQUARE(x) …` a function.
; A `#define` without a value (an include guard, a feature flag) defines no constant.
(preproc_def name: (identifier) @name value: (_)) @definition.constant
(preproc_function_def name: (identifier) @name parameters: (preproc_params) @params) @definition.function

; Enumerators are constants of their enum.
(enumerator name: (identifier) @name) @definition.constant
