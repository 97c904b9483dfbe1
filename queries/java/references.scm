; Call sites: `foo()`, `repo.save()`, `this.m()`, `super.m()`, `Util.format()`, `a.b().c()`.
(method_invocation
  !object
  name: (identifier) @call.name) @call

(method_invocation
  object: (_) @call.receiver
  name: (identifier) @call.name) @call

; Constructor calls are calls of the class: `new Foo()`, `new Foo<>()`, `new Outer.Inner()`, and
; `outer.new Inner()` (an inner class through its outer instance).
(object_creation_expression
  . type: (type_identifier) @call.name) @call

(object_creation_expression
  . type: (generic_type . (type_identifier) @call.name)) @call

(object_creation_expression
  . (_) @call.receiver
  type: (type_identifier) @call.name) @call

(object_creation_expression
  . (_) @call.receiver
  type: (generic_type . (type_identifier) @call.name)) @call

(object_creation_expression
  type: [(scoped_type_identifier (_) @call.receiver . (type_identifier) @call.name .)
         (generic_type . (scoped_type_identifier (_) @call.receiver . (type_identifier) @call.name .))]) @call

; Method references call the method when invoked: `this::handle`, `Strings::slug`, `Foo::new`.
(method_reference
  . (_) @call.receiver
  . (identifier) @call.name .) @call

(method_reference
  . [(identifier) (type_identifier)] @call.name
  "new") @call

(method_reference
  . (generic_type . (type_identifier) @call.name)
  "new") @call

; Imports (parsed by parseImport in src/lang/java.ts).
(import_declaration) @import

; Supertypes. Interfaces extend interfaces; classes, enums and records implement them.
(superclass
  [(type_identifier) (scoped_type_identifier) (generic_type)] @extends)

(extends_interfaces
  (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @extends))

(super_interfaces
  (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @implements))
