; Call sites. Macro invocations are not calls (most are std's), but calls written in their arguments are.

; f(x); Foo(x) constructs a tuple struct (`Self(x)`, like `Self { .. }`, is left out).
((call_expression function: (identifier) @call.name) @call
  (#not-eq? @call.name "Self"))

; x.m(), self.m(), a.b().c()
(call_expression
  function: (field_expression
    value: (_) @call.receiver
    field: (field_identifier) @call.name)) @call

; Path calls through a module or a type: util::f(), crate::a::f(), super::f(), Foo::new(), Self::make().
; A capitalised name after a type is an enum variant (Kind::Leaf(x)), not a call.
((call_expression
  function: (scoped_identifier
    path: [(identifier) (scoped_identifier) (super) (crate)] @call.receiver
    name: (identifier) @call.name)) @call
  (#not-match? @call.receiver "(^|::)[A-Z][A-Za-z0-9_]*$"))

((call_expression
  function: (scoped_identifier
    path: [(identifier) (scoped_identifier)] @call.receiver
    name: (identifier) @call.name)) @call
  (#match? @call.receiver "(^|::)[A-Z][A-Za-z0-9_]*$")
  (#match? @call.name "^[a-z_]"))

; self::f() names the current module, not the instance: a plain call.
(call_expression
  function: (scoped_identifier
    path: (self)
    name: (identifier) @call.name)) @call

; Vec::<u8>::new(): the type without its arguments.
(call_expression
  function: (scoped_identifier
    path: (generic_type type: (_) @call.receiver)
    name: (identifier) @call.name)) @call

; <T as Trait>::m(): the trait.
(call_expression
  function: (scoped_identifier
    path: (bracketed_type (qualified_type alias: (_) @call.receiver))
    name: (identifier) @call.name)) @call

; Turbofish: f::<T>(), a::f::<T>(), x.m::<T>()
(call_expression
  function: (generic_function function: (identifier) @call.name)) @call
(call_expression
  function: (generic_function
    function: (scoped_identifier
      path: [(identifier) (scoped_identifier) (super) (crate)] @call.receiver
      name: (identifier) @call.name))) @call
(call_expression
  function: (generic_function
    function: (field_expression
      value: (_) @call.receiver
      field: (field_identifier) @call.name))) @call

; Struct literals construct their type: Foo { .. }, shapes::Foo { .. }. `Self { .. }` is left out.
(struct_expression
  name: (type_identifier) @call.name @call
  (#not-eq? @call.name "Self"))
((struct_expression
  name: (scoped_type_identifier
    path: (_) @call.receiver
    name: (type_identifier) @call.name)) @call
  (#not-match? @call.receiver "(^|::)[A-Z][A-Za-z0-9_]*$"))

; Inside a macro's arguments the parser keeps only tokens: `name(`, `recv.name(` and `path::name(`
; read as calls, to three levels of nesting; the token tree must follow the name at once (not
; `name!(`, a nested macro, nor `T>(`), and open with `(` (not `name[i]`). A name both the bare and a
; receiver pattern see is one call, with its receiver.
(macro_invocation (token_tree (identifier) @call.name @call . _? @_between . (token_tree) @_args (#eq? @_between "") (#match? @_args "^\\(") (#not-eq? @call.name "Self")))
(macro_invocation (token_tree (_) @call.receiver . "." . (identifier) @call.name @call . _? @_between . (token_tree) @_args (#eq? @_between "") (#match? @_args "^\\(")))
(macro_invocation (token_tree (identifier) @call.receiver . "::" . (identifier) @call.name @call . _? @_between . (token_tree) @_args (#eq? @_between "") (#match? @_args "^\\(") (#match? @call.name "^[a-z_]")))

(macro_invocation (token_tree (token_tree (identifier) @call.name @call . _? @_between . (token_tree) @_args (#eq? @_between "") (#match? @_args "^\\(") (#not-eq? @call.name "Self"))))
(macro_invocation (token_tree (token_tree (_) @call.receiver . "." . (identifier) @call.name @call . _? @_between . (token_tree) @_args (#eq? @_between "") (#match? @_args "^\\("))))
(macro_invocation (token_tree (token_tree (identifier) @call.receiver . "::" . (identifier) @call.name @call . _? @_between . (token_tree) @_args (#eq? @_between "") (#match? @_args "^\\(") (#match? @call.name "^[a-z_]"))))

(macro_invocation (token_tree (token_tree (token_tree (identifier) @call.name @call . _? @_between . (token_tree) @_args (#eq? @_between "") (#match? @_args "^\\(") (#not-eq? @call.name "Self")))))
(macro_invocation (token_tree (token_tree (token_tree (_) @call.receiver . "." . (identifier) @call.name @call . _? @_between . (token_tree) @_args (#eq? @_between "") (#match? @_args "^\\(")))))
(macro_invocation (token_tree (token_tree (token_tree (identifier) @call.receiver . "::" . (identifier) @call.name @call . _? @_between . (token_tree) @_args (#eq? @_between "") (#match? @_args "^\\(") (#match? @call.name "^[a-z_]")))))

; Imports (parsed by parseImport in src/lang/rust.ts): `use` trees, `extern crate`, and `mod name;`
; (which loads the module's file).
(use_declaration) @import
(extern_crate_declaration) @import
(mod_item !body) @import

; Supertypes: `trait A: B + C` extends B and C; `impl Trait for Type` makes Type implement Trait.
(trait_item
  bounds: (trait_bounds [(type_identifier) (scoped_type_identifier) (generic_type)] @extends))
(impl_item trait: (_) @implements)
