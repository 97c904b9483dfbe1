; Variable -> type, for resolving calls through a receiver (`let p = Point::new(); p.norm()`).
; Box/Rc/Arc<T> dereference to T, so a binding through one of them is to T.

; Parameters: `x: Foo`, `x: &Foo`, `x: &mut Foo`, `x: impl Shape`, `x: &dyn Shape`.
(parameter
  pattern: (identifier) @binding.name
  type: (_) @binding.type
  (#not-match? @binding.type "^(Box|Rc|Arc)\\s*<"))
(parameter
  pattern: (identifier) @binding.name
  type: (generic_type
    type: (type_identifier) @_ptr
    type_arguments: (type_arguments . (_) @binding.type))
  (#match? @_ptr "^(Box|Rc|Arc)$"))

; `let x: Foo = ...`
(let_declaration
  pattern: (identifier) @binding.name
  type: (_) @binding.type
  (#not-match? @binding.type "^(Box|Rc|Arc)\\s*<"))
(let_declaration
  pattern: (identifier) @binding.name
  type: (generic_type
    type: (type_identifier) @_ptr
    type_arguments: (type_arguments . (_) @binding.type))
  (#match? @_ptr "^(Box|Rc|Arc)$"))

; Constructed values, without a declared type: `Foo::new(..)`, `Foo::open(..)?`, `Foo { .. }`, `Foo(..)`.
; An associated function of a capitalised type is taken to return that type (new, with_capacity, from).
(let_declaration
  !type
  pattern: (identifier) @binding.name
  value: (call_expression function: (scoped_identifier path: [(identifier) (scoped_identifier)] @binding.type))
  (#match? @binding.type "(^|::)[A-Z][A-Za-z0-9_]*$")
  (#not-eq? @binding.type "Self"))
(let_declaration
  !type
  pattern: (identifier) @binding.name
  value: (try_expression
    (call_expression function: (scoped_identifier path: [(identifier) (scoped_identifier)] @binding.type)))
  (#match? @binding.type "(^|::)[A-Z][A-Za-z0-9_]*$")
  (#not-eq? @binding.type "Self"))
(let_declaration
  !type
  pattern: (identifier) @binding.name
  value: (struct_expression name: (type_identifier) @binding.type)
  (#not-eq? @binding.type "Self"))
(let_declaration
  !type
  pattern: (identifier) @binding.name
  value: (struct_expression name: (scoped_type_identifier path: (_) @_path) @binding.type)
  (#not-match? @_path "(^|::)[A-Z][A-Za-z0-9_]*$"))
; `Layout::Long { .. }` is a variant: the value is a Layout.
(let_declaration
  !type
  pattern: (identifier) @binding.name
  value: (struct_expression name: (scoped_type_identifier path: (_) @binding.type))
  (#match? @binding.type "(^|::)[A-Z][A-Za-z0-9_]*$")
  (#not-eq? @binding.type "Self"))
(let_declaration
  !type
  pattern: (identifier) @binding.name
  value: (call_expression function: (identifier) @binding.type)
  (#match? @binding.type "^[A-Z]")
  (#not-match? @binding.type "^(Some|Ok|Err)$"))

; What a function call returns (the function's declared result type, via the entry's returnType):
; `let rt = runtime();`, `let c = connect(addr)?;`.
(let_declaration
  !type
  pattern: (identifier) @binding.name
  value: [(call_expression function: (identifier) @binding.call)
          (try_expression (call_expression function: (identifier) @binding.call))]
  (#match? @binding.call "^[a-z_]"))

; A constructor call used directly as a receiver: `Usage::new(cmd).render()`.
(field_expression
  value: (call_expression
    function: (scoped_identifier path: [(identifier) (scoped_identifier)] @binding.type)) @binding.name
  (#match? @binding.type "(^|::)[A-Z][A-Za-z0-9_]*$")
  (#not-eq? @binding.type "Self"))

; Struct fields: methods reach them as `self.field`.
(field_declaration
  name: (field_identifier) @binding.field
  type: (_) @binding.type
  (#not-match? @binding.type "^(Box|Rc|Arc)\\s*<"))
(field_declaration
  name: (field_identifier) @binding.field
  type: (generic_type
    type: (type_identifier) @_ptr
    type_arguments: (type_arguments . (_) @binding.type))
  (#match? @_ptr "^(Box|Rc|Arc)$"))

; Tuple struct fields: `struct Regex(Exec)` makes `self.0` an Exec.
(struct_item
  body: (ordered_field_declaration_list
    type: (_) @binding.position @binding.type)
  (#not-match? @binding.type "^(Box|Rc|Arc)\\s*<"))
(struct_item
  body: (ordered_field_declaration_list
    type: (generic_type
      type: (type_identifier) @_ptr
      type_arguments: (type_arguments . (_) @binding.type)) @binding.position)
  (#match? @_ptr "^(Box|Rc|Arc)$"))

; Type parameters stand for their first bound that is not a std marker trait: `fn f<T: Shape>(x: T)`
; and `where T: Shape` make `x.area()` a call of Shape's method.
(type_parameter
  name: (type_identifier) @binding.name
  bounds: (trait_bounds [(type_identifier) (scoped_type_identifier) (generic_type)] @binding.type)
  (#not-match? @binding.type "^((std|core|fmt)::)*(Clone|Copy|Send|Sync|Sized|Unpin|Debug|Display|Default|Eq|PartialEq|Ord|PartialOrd|Hash)$"))
(where_predicate
  left: (type_identifier) @binding.name
  bounds: (trait_bounds [(type_identifier) (scoped_type_identifier) (generic_type)] @binding.type)
  (#not-match? @binding.type "^((std|core|fmt)::)*(Clone|Copy|Send|Sync|Sized|Unpin|Debug|Display|Default|Eq|PartialEq|Ord|PartialOrd|Hash)$"))
