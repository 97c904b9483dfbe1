; Call sites: `F()`, `x.M()`, `this.M()`, `base.M()`, `Log.Line()`, `M.Product.Sample()`, `F<T>()`.
(invocation_expression function: (identifier) @call.name) @call
(invocation_expression function: (generic_name . (identifier) @call.name)) @call
(invocation_expression
  function: (member_access_expression expression: _ @call.receiver name: (identifier) @call.name)) @call
(invocation_expression
  function: (member_access_expression expression: _ @call.receiver name: (generic_name . (identifier) @call.name))) @call

; Constructions are calls of the type: `new Product(…)`, `new List<T>()`, `new Shop.Models.Product()`.
(object_creation_expression type: (identifier) @call.name) @call
(object_creation_expression type: (generic_name . (identifier) @call.name)) @call
(object_creation_expression type: (qualified_name qualifier: (_) @call.receiver name: (identifier) @call.name)) @call

; `using …;` (parsed by parseImport in src/lang/csharp.ts).
(using_directive) @import

; Supertypes: the base list names the base class and the interfaces; an `extends` edge to an
; interface is stored as `implements`.
(base_list [(identifier) (qualified_name) (generic_name)] @extends)
(base_list (primary_constructor_base_type type: [(identifier) (qualified_name) (generic_name)] @extends))
