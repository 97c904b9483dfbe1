; Imports and re-exports, turned into import specs by parseImport in src/lang/js-family.ts.
; A wildcard with fields, `(_ object: … property: …)`, is the one node type that has them there: cheaper to compile
; (queries/README.md, "Compile cost").
(import_statement) @import
(export_statement source: (_)) @import

; Local export aliases: `export { a as b }`, `export default a`, `export default class A`.
(export_statement !source (export_clause)) @import
(export_statement "default" value: (identifier)) @import
(export_statement "default" declaration: (_)) @import

; `require('x')` wherever it is written; parseImport reads what it is bound to.
(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string))
  (#eq? @_require "require")) @import

; `import('x')`
(call_expression function: (import) arguments: (arguments . (string))) @import

; `module.exports = x`, `exports.a = b`: local names exported under another name.
(assignment_expression
  left: (_ object: (identifier) @_module property: (property_identifier) @_exports)
  (#eq? @_module "module")
  (#eq? @_exports "exports")) @import

(assignment_expression
  left: (_ object: (identifier) @_exports property: (_))
  right: (identifier)
  (#eq? @_exports "exports")) @import
