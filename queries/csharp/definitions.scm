; Definitions. Roles and capture names: queries/README.md. Namespaces are not part of qualified
; names (`Shop.Models.Product` is `Product`), as with PHP.

(class_declaration name: (identifier) @name body: (declaration_list) @body) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name body: (declaration_list) @body) @definition.interface
(struct_declaration name: (identifier) @name body: (declaration_list) @body) @definition.struct
(enum_declaration name: (identifier) @name body: (enum_member_declaration_list) @body) @definition.enum
(delegate_declaration name: (identifier) @name parameters: (parameter_list) @params) @definition.type

(method_declaration name: (identifier) @name parameters: (parameter_list) @params) @definition.method
(method_declaration body: (_) @body) @definition.method
; Constructors are methods named after their class, as in Java.
(constructor_declaration name: (identifier) @name parameters: (parameter_list) @params body: (_) @body) @definition.method
(local_function_statement name: (identifier) @name parameters: (parameter_list) @params body: (_) @body) @definition.function

; `const` fields and enum members.
((field_declaration (modifier) @_const (variable_declaration (variable_declarator name: (identifier) @name))) @definition.constant
  (#eq? @_const "const"))
(enum_member_declaration name: (identifier) @name) @definition.constant
