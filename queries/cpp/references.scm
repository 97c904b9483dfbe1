; Call sites: `f()`, `obj.m()`, `ptr->m()`, `this->m()`, `Type::make()`, `f<T>()`.
(call_expression function: (identifier) @call.name) @call
(call_expression function: (field_expression argument: (_) @call.receiver field: (field_identifier) @call.name)) @call

; `Type::make()` goes through the type; `shop::helper()` names a function of a namespace, and
; namespaces are not part of names here (src/lang/cpp.ts), so it is a call of `helper`. `std::` stays
; a receiver: the standard library is external.
((call_expression function: (qualified_identifier scope: (_) @call.receiver name: (identifier) @call.name)) @call
  (#match? @call.receiver "^(std$|[A-Z])"))
((call_expression function: (qualified_identifier scope: (namespace_identifier) @_ns name: (identifier) @call.name)) @call
  (#not-match? @_ns "^(std$|[A-Z])"))
(call_expression function: (template_function name: (identifier) @call.name)) @call
(call_expression function: (qualified_identifier scope: (_) @call.receiver name: (template_function name: (identifier) @call.name))) @call
(call_expression function: (field_expression argument: (_) @call.receiver field: (template_method name: (field_identifier) @call.name))) @call

; Constructions are calls of the type: `new Product(…)`, `new shop::Product(…)`.
(new_expression type: (type_identifier) @call.name) @call
(new_expression type: (qualified_identifier scope: (_) @call.receiver name: (type_identifier) @call.name)) @call
(new_expression type: (template_type name: (type_identifier) @call.name)) @call

; `#include` (parsed by parseInclude in src/lang/c-family.ts).
(preproc_include) @import

; Base classes: `class Product : public Item`, `: public Base<T>`, `: public ns::Base`.
(base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @extends)
