; Definitions. Roles and capture names: queries/README.md.

(module . (expression_statement (string) @module.doc))

(class_definition
  name: (identifier) @name
  body: (block) @body) @definition.class

(class_definition
  body: (block . (expression_statement (string) @doc))) @definition.class

(function_definition
  name: (identifier) @name
  parameters: (parameters) @params
  body: (block) @body) @definition.function

(function_definition
  body: (block . (expression_statement (string) @doc))) @definition.function

; Module-level UPPER_CASE assignments are constants.
(module
  (expression_statement
    (assignment left: (identifier) @name) @definition.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

; PEP 695 `type Alias = ...`
(type_alias_statement
  left: (type (identifier) @name)) @definition.type
