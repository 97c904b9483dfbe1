; Definitions. Roles and capture names: queries/README.md.
; Types: classes, records, interfaces, annotation types (`@interface`, an interface) and enums.

(class_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class

(record_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params
  body: (class_body) @body) @definition.class

(interface_declaration
  name: (identifier) @name
  body: (interface_body) @body) @definition.interface

(annotation_type_declaration
  name: (identifier) @name
  body: (annotation_type_body) @body) @definition.interface

(enum_declaration
  name: (identifier) @name
  body: (enum_body) @body) @definition.enum

; Methods, abstract ones (no body) included. Methods of anonymous classes are methods too, nested in
; the method that creates the instance.
(method_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params) @definition.method

(method_declaration
  body: (block) @body) @definition.method

; Constructors are methods named after their class (`Product.Product`), as Java writes them.
(constructor_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params
  body: (constructor_body) @body) @definition.method

; A record's compact constructor takes the record's components.
(compact_constructor_declaration
  name: (identifier) @name
  body: (block) @body) @definition.method

; `String value() default "";` in an annotation type.
(annotation_type_element_declaration
  name: (identifier) @name) @definition.method

; Constants: `static final` fields, interface fields (implicitly static final) and enum constants.
; A field with several declarators is one symbol, named by its first.
(field_declaration
  (modifiers) @_mods
  declarator: (variable_declarator name: (identifier) @name)
  (#match? @_mods "(^|\\s)static(\\s|$)")
  (#match? @_mods "(^|\\s)final(\\s|$)")) @definition.constant

(constant_declaration
  declarator: (variable_declarator name: (identifier) @name)) @definition.constant

(enum_constant
  name: (identifier) @name) @definition.constant

(enum_constant
  body: (class_body) @body) @definition.constant

; A Javadoc comment right before the package declaration documents the file (package-info.java).
(program
  (block_comment) @module.doc
  .
  (package_declaration)
  (#match? @module.doc "^/\\*\\*"))
