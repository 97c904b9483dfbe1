; Call sites.
; `(_ object: … attribute: …)` is an attribute, `(_ function: … arguments: …)` a call: cheaper to compile
; (queries/README.md, "Compile cost").
(call function: (identifier) @call.name) @call

(call
  function: (_
    object: (_) @call.receiver
    attribute: (identifier) @call.name)) @call

; Imports (parsed by parseImport in src/lang/python.ts).
(import_statement) @import
(import_from_statement) @import

; Supertypes; keyword arguments such as metaclass= are not supertypes.
(class_definition
  superclasses: (argument_list [(identifier) (attribute) (subscript)] @extends))
