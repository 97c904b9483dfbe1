; What a file exports. `@export` marks definitions written inside it; `@export.name` a top-level name.
; A wildcard with fields, `(_ object: … property: …)`, is the one node type that has them there: cheaper to compile
; (queries/README.md, "Compile cost").
(export_statement declaration: (_)) @export
(export_statement value: (_)) @export
(export_statement !source (export_clause (export_specifier name: (_) @export.name)))
(export_statement "default" value: (identifier) @export.name)

; CommonJS: `module.exports = …`, `exports.x = …`, `module.exports.x = …`.
(assignment_expression
  left: [
    (_ object: (identifier) @_module property: (property_identifier) @_exports)
    (member_expression object: (_ object: (identifier) @_module property: (property_identifier) @_exports))
  ]
  (#eq? @_module "module")
  (#eq? @_exports "exports")) @export

(assignment_expression
  left: (_ object: (identifier) @_exports property: (_))
  (#eq? @_exports "exports")) @export

(assignment_expression
  left: (_ object: (identifier) @_module property: (property_identifier) @_exports)
  right: [
    (identifier) @export.name
    (object (shorthand_property_identifier) @export.name)
    (object (pair value: (identifier) @export.name))
  ]
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

(assignment_expression
  left: (_ object: (identifier) @_exports property: (_))
  right: (identifier) @export.name
  (#eq? @_exports "exports"))
