; Definitions. Roles and capture names: queries/README.md.
;
; A module is the table a file returns: `function M.new()` defines the module's function `new`,
; which other files call as `product.new()` and the file itself as `M.new()`. `function M:discounted()`
; (with `self`) is a method of the table: `M.discounted`.

(function_declaration name: (identifier) @name parameters: (parameters) @params body: (_)? @body) @definition.function
(function_declaration
  name: (dot_index_expression field: (identifier) @name)
  parameters: (parameters) @params) @definition.function
(function_declaration body: (block) @body) @definition.function
(function_declaration
  name: (method_index_expression table: (_) @receiver method: (identifier) @name)
  parameters: (parameters) @params) @definition.method

; `M.MAX_DISCOUNT = 50`, `local DEFAULT = 3` at the top of a file: UPPER_CASE names are constants.
((chunk (assignment_statement (variable_list . name: (dot_index_expression field: (identifier) @name))) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]+$"))
((chunk (variable_declaration (assignment_statement (variable_list . name: (identifier) @name))) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]+$"))

(chunk . (comment) @module.doc.line)
