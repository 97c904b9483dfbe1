; Definitions shared by JavaScript, TypeScript and TSX. Roles and capture names: queries/README.md.
; A wildcard with fields, `(_ object: … property: …)`, is the one node type that has them there: cheaper to compile
; (queries/README.md, "Compile cost").

(function_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params
  body: (statement_block) @body) @definition.function

(generator_function_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params
  body: (statement_block) @body) @definition.function

(class_declaration
  name: (_) @name
  body: (class_body) @body) @definition.class

; `const Foo = class extends Base { … }`
(variable_declarator
  name: (identifier) @name
  value: (class body: (class_body) @body)) @definition.class

; Class methods, getters, setters (a `function` inside a class becomes a method).
(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name
    parameters: (formal_parameters) @params
    body: (statement_block) @body) @definition.function)

; Object-literal methods: `{ save() {} }`, `{ save: function () {} }`, `{ save: () => {} }`. They are
; functions (`api.save` inside `const api = {…}`), reached through the object (`api.save()`); as
; methods, every `list.map()` in the repository would name-match an object's `map`.
(object
  (method_definition
    name: (property_identifier) @name
    parameters: (formal_parameters) @params
    body: (statement_block) @body) @definition.function)

(object
  (pair
    key: (property_identifier) @name
    value: (_ [parameters: (formal_parameters) @params parameter: (identifier) @param] body: (_) @body)) @definition.function)

; `const f = () => {}`, `let g = function () {}`, at any depth.
(variable_declarator
  name: (identifier) @name
  value: (_ [parameters: (formal_parameters) @params parameter: (identifier) @param] body: (_) @body)) @definition.function

; `export default function () {}` and `export default () => …`: the symbol is named `default`.
(export_statement
  "default" @name
  value: (_ [parameters: (formal_parameters) @params parameter: (identifier) @param] body: (_) @body)) @definition.function

; Top-level `const X = …` holding a value, not a function, class or `require(…)`.
(program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name
      value: [
        (number) (string) (template_string) (regex) (true) (false) (null) (undefined) (identifier)
        (object) (array) (new_expression) (binary_expression) (unary_expression) (ternary_expression)
        (parenthesized_expression) (subscript_expression) (await_expression)
      ]) @definition.constant))

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name
        value: [
          (number) (string) (template_string) (regex) (true) (false) (null) (undefined) (identifier)
          (object) (array) (new_expression) (binary_expression) (unary_expression) (ternary_expression)
          (parenthesized_expression) (subscript_expression) (await_expression)
        ]) @definition.constant)))

(program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name
      value: [(call_expression) (member_expression)] @_value) @definition.constant)
  (#not-match? @_value "^require\\s*\\("))

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name
        value: [(call_expression) (member_expression)] @_value) @definition.constant))
  (#not-match? @_value "^require\\s*\\("))

; CommonJS: `module.exports = function name () {}` / `= class Name {}`.
(assignment_expression
  left: (_ object: (identifier) @_module property: (property_identifier) @_exports)
  right: (function_expression name: (identifier) @name parameters: (formal_parameters) @params body: (_) @body)
  (#eq? @_module "module")
  (#eq? @_exports "exports")) @definition.function

(assignment_expression
  left: (_ object: (identifier) @_module property: (property_identifier) @_exports)
  right: (class name: (_) @name body: (class_body) @body)
  (#eq? @_module "module")
  (#eq? @_exports "exports")) @definition.class

; `exports.name = function () {}` and `module.exports.name = …`.
(assignment_expression
  left: [
    (_ object: (identifier) @_exports property: (property_identifier) @name)
    (_
      object: (_ object: (identifier) @_module property: (property_identifier) @_exports)
      property: (property_identifier) @name)
  ]
  right: (_ [parameters: (formal_parameters) @params parameter: (identifier) @param] body: (_) @body)
  (#eq? @_exports "exports")) @definition.function

; `Foo.prototype.bar = function () {}`: method `Foo.bar`.
(assignment_expression
  left: (_
    object: (_ object: (identifier) @receiver property: (property_identifier) @_prototype)
    property: (property_identifier) @name)
  right: (_ [parameters: (formal_parameters) @params parameter: (identifier) @param] body: (_) @body)
  (#eq? @_prototype "prototype")) @definition.function

; Top-level `app.handle = function () {}`: method `app.handle` (static members, object namespaces).
(program
  (expression_statement
    (assignment_expression
      left: (_ object: (identifier) @receiver property: (property_identifier) @name)
      right: (_ [parameters: (formal_parameters) @params parameter: (identifier) @param] body: (_) @body)) @definition.function)
  (#not-match? @receiver "^(exports|module|window|globalThis|self|global)$"))

; A leading JSDoc block tagged @file / @fileoverview / @module documents the module.
(program
  .
  (comment) @module.doc
  (#match? @module.doc "^/\\*\\*[\\s\\S]*@(file|fileoverview|overview|module)\\b"))
