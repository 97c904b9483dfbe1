; TypeScript and TSX definitions (on top of queries/js-common).

(abstract_class_declaration
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class

(interface_declaration
  name: (type_identifier) @name
  body: (interface_body) @body) @definition.interface

(interface_body
  (method_signature
    name: [(property_identifier) (private_property_identifier)] @name
    parameters: (formal_parameters) @params) @definition.function)

(class_body
  (abstract_method_signature
    name: [(property_identifier) (private_property_identifier)] @name
    parameters: (formal_parameters) @params) @definition.function)

(type_alias_declaration name: (type_identifier) @name) @definition.type

(enum_declaration
  name: (identifier) @name
  body: (enum_body) @body) @definition.enum

; `namespace A.B {}` and `module A {}`; `declare module 'pkg'` describes another package: skipped.
(internal_module
  name: [(identifier) (nested_identifier)] @name
  body: (statement_block) @body) @definition.module

(module
  name: [(identifier) (nested_identifier)] @name
  body: (statement_block) @body) @definition.module

; `declare function f(): T;` (overload signatures without `declare` are not definitions).
(ambient_declaration
  (function_signature
    name: (identifier) @name
    parameters: (formal_parameters) @params) @definition.function)

; Class fields holding functions: `handle = (e: Event) => { … }`.
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [
    (function_expression parameters: (formal_parameters) @params body: (_) @body)
    (arrow_function [parameters: (formal_parameters) @params parameter: (identifier) @param] body: (_) @body)
  ]) @definition.function

; Top-level constants whose value is a type assertion: `const X = {…} as const`.
(program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name
      value: [(as_expression) (satisfies_expression) (non_null_expression)]) @definition.constant))

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name
        value: [(as_expression) (satisfies_expression) (non_null_expression)]) @definition.constant)))
