; Definitions. Roles and capture names: queries/README.md.
;
; Namespaces are no symbols: `shop::Product` is `Product` (see src/lang/cpp.ts). Function definitions
; and, inside a class body, member declarations (`double discounted(double) const;`) are symbols; a
; member defined outside its class (`double Product::discounted(double pct) const {…}`) is a method of
; the class named by its qualifier.

; ---- functions and methods (names under pointer and reference declarators too)
((function_definition
  declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name parameters: (parameter_list) @params)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name parameters: (parameter_list) @params))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name parameters: (parameter_list) @params))
  ]
  body: (_) @body) @definition.function
  (#not-match? @name "^(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P|TEST_CASE|TEST_CASE_METHOD|SCENARIO|BOOST_AUTO_TEST_CASE|BOOST_FIXTURE_TEST_CASE)$"))

; Test macros: `TEST(ProductTest, Discounted) {…}` is the test `Discounted`; `TEST_CASE("name")` keeps the macro's name.
((function_definition
  declarator: (function_declarator
    declarator: (identifier) @_macro
    parameters: (parameter_list . (parameter_declaration) . (parameter_declaration type: (type_identifier) @name) .) @params)
  body: (_) @body) @definition.function
  (#match? @_macro "^(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P|BOOST_FIXTURE_TEST_CASE)$"))
((function_definition
  declarator: (function_declarator
    declarator: (identifier) @name
    parameters: (parameter_list . (parameter_declaration) .) @params)
  body: (_) @body) @definition.function
  (#match? @name "^(TEST_CASE|TEST_CASE_METHOD|SCENARIO|BOOST_AUTO_TEST_CASE)$"))

; Out of class: `Product::key`, `shop::Product::key`, `Product::~Product`, `Product::operator==`.
(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier
      scope: (_) @receiver
      name: [(identifier) (destructor_name) (operator_name)] @name) parameters: (parameter_list) @params)
    (function_declarator declarator: (qualified_identifier
      name: (qualified_identifier scope: (_) @receiver name: [(identifier) (destructor_name) (operator_name)] @name)) parameters: (parameter_list) @params)
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
      scope: (_) @receiver name: [(identifier) (operator_name)] @name) parameters: (parameter_list) @params))
    (reference_declarator (function_declarator declarator: (qualified_identifier
      scope: (_) @receiver name: [(identifier) (operator_name)] @name) parameters: (parameter_list) @params))
  ]
  body: (_) @body) @definition.method

; Member declarations in a class body: methods, constructors, pure virtuals.
(field_declaration_list
  (field_declaration
    declarator: [
      (function_declarator declarator: [(field_identifier) (operator_name)] @name parameters: (parameter_list) @params)
      (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name parameters: (parameter_list) @params))
      (reference_declarator (function_declarator declarator: (field_identifier) @name parameters: (parameter_list) @params))
    ]) @definition.function)
(field_declaration_list
  (declaration
    declarator: (function_declarator declarator: [(identifier) (destructor_name)] @name parameters: (parameter_list) @params)) @definition.function)
(field_declaration_list
  (template_declaration
    (declaration
      declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name parameters: (parameter_list) @params)) @definition.function))

; ---- types
(class_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.class
(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct
(enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum
(class_specifier name: (template_type name: (type_identifier) @name) body: (field_declaration_list) @body) @definition.class
(struct_specifier name: (template_type name: (type_identifier) @name) body: (field_declaration_list) @body) @definition.struct

(type_definition
  type: [(struct_specifier !name body: (field_declaration_list) @body) (class_specifier !name body: (field_declaration_list) @body)]
  declarator: (type_identifier) @name) @definition.struct

; `using Catalog = std::vector<Product>;`, `typedef int id_t;`
(alias_declaration name: (type_identifier) @name) @definition.type
(type_definition
  type: [(primitive_type) (type_identifier) (qualified_identifier) (template_type) (sized_type_specifier)
         (struct_specifier !body) (class_specifier !body) (enum_specifier !body)]
  declarator: [(type_identifier) @name (pointer_declarator declarator: (type_identifier) @name)]) @definition.type

; ---- constants: `constexpr`/`const` at file or namespace level, enumerators, `#define` with a value
(translation_unit
  (declaration (type_qualifier) @_q declarator: (init_declarator declarator: (identifier) @name)) @definition.constant
  (#match? @_q "^(const|constexpr)$"))
(namespace_definition body: (declaration_list
  (declaration (type_qualifier) @_q declarator: (init_declarator declarator: (identifier) @name)) @definition.constant)
  (#match? @_q "^(const|constexpr)$"))
(enumerator name: (identifier) @name) @definition.constant
(preproc_def name: (identifier) @name value: (_)) @definition.constant
(preproc_function_def name: (identifier) @name parameters: (preproc_params) @params) @definition.function
