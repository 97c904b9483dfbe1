; Definitions. Roles and capture names: queries/README.md.
; Namespaces are not symbols and do not qualify names: `Product.save`, not `App.Models.Product.save`
; (src/lang/php.ts explains why).

(class_declaration
  name: (name) @name
  body: (declaration_list) @body) @definition.class

(interface_declaration
  name: (name) @name
  body: (declaration_list) @body) @definition.interface

(trait_declaration
  name: (name) @name
  body: (declaration_list) @body) @definition.trait

(enum_declaration
  name: (name) @name
  body: (enum_declaration_list) @body) @definition.enum

(function_definition
  name: (name) @name
  parameters: (formal_parameters) @params
  body: (compound_statement) @body) @definition.function

; Abstract and interface methods have no body.
(method_declaration
  name: (name) @name
  parameters: (formal_parameters) @params) @definition.method

(method_declaration
  body: (compound_statement) @body) @definition.method

; `const` at top level or in a type body; each element of `const A = 1, B = 2;` is a constant (the
; declaration is a wrapper: its modifiers and doc comment apply to every element).
(const_declaration
  (const_element (name) @name) @definition.constant)

(enum_case
  name: (name) @name) @definition.constant

; `define('NAME', value)` at the top level of a file or of a braced namespace (not inside functions,
; where the constant would wrongly nest under the function).
(program
  (expression_statement
    (function_call_expression
      function: (name) @_define
      arguments: (arguments
        . (argument [(string (string_content) @name) (encapsed_string (string_content) @name)]))) @definition.constant)
  (#eq? @_define "define"))

(namespace_definition
  body: (compound_statement
    (expression_statement
      (function_call_expression
        function: (name) @_define
        arguments: (arguments
          . (argument [(string (string_content) @name) (encapsed_string (string_content) @name)]))) @definition.constant))
  (#eq? @_define "define"))
