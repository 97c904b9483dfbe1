; Call sites: `f(x)`, `Product(…)` (constructors are calls of the class), `repo.store(x)`,
; `this.report(x)`, `Log.line(x)`, `a?.b()`.
(call_expression (simple_identifier) @call.name (call_suffix)) @call
(call_expression
  (navigation_expression (_) @call.receiver (navigation_suffix (simple_identifier) @call.name))
  (call_suffix)) @call

; Imports (parsed by parseImport in src/lang/kotlin.ts).
(import_header) @import

; Supertypes: `: Base(), Storable`. An `extends` edge to an interface is stored as `implements`.
(delegation_specifier (constructor_invocation (user_type) @extends))
(delegation_specifier (user_type) @extends)
