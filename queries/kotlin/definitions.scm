; Definitions. Roles and capture names: queries/README.md. The grammar writes `class`, `interface`
; and `enum class` as one node type; the keyword and the body tell them apart.

(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration (type_identifier) @name (enum_class_body) @body) @definition.enum
((class_declaration "class" (type_identifier) @name) @definition.class
  (#not-match? @definition.class "^[^{(]*\\benum\\s+class\\b"))
((class_declaration "class" (class_body) @body) @definition.class
  (#not-match? @definition.class "^[^{(]*\\benum\\s+class\\b"))
; `object Log { … }` is a class with one instance.
(object_declaration (type_identifier) @name (class_body) @body) @definition.class

(function_declaration (simple_identifier) @name (function_value_parameters) @params) @definition.function
(function_declaration (function_body) @body) @definition.function

(enum_entry (simple_identifier) @name) @definition.constant

; Top-level properties: `const val MAX = 50`, `val DEFAULT = Catalog()`.
(source_file (property_declaration (variable_declaration (simple_identifier) @name)) @definition.constant)

; A comment right after the imports is parsed as part of the last import.
(source_file (import_list (import_header (multiline_comment) @doc .) .) . (property_declaration (variable_declaration (simple_identifier) @name)) @definition.constant)
(source_file (import_list (import_header (multiline_comment) @doc .) .) . (class_declaration (type_identifier) @name) @definition.class)
(source_file (import_list (import_header (multiline_comment) @doc .) .) . (function_declaration (simple_identifier) @name) @definition.function)
