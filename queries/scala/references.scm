; Call sites: `f(x)`, `Product(…)` (a case class's apply is a construction), `repo.store(x)`,
; `this.report(x)`, `Log.line(x)`, `new Product(…)`.
(call_expression function: (identifier) @call.name) @call
(call_expression function: (field_expression value: (_) @call.receiver field: (identifier) @call.name)) @call
(call_expression function: (generic_function function: (identifier) @call.name)) @call
(instance_expression [(type_identifier) (generic_type type: (type_identifier))] @call.name) @call

; Imports (parsed by parseImport in src/lang/scala.ts).
(import_declaration) @import

; `extends Base with Storable`: the first is the superclass, the rest are traits; an edge to a trait
; or an interface keeps its kind by the target.
(extends_clause [(type_identifier) (generic_type type: (type_identifier))] @extends)
