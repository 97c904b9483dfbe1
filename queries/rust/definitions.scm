; Definitions. Roles and capture names: queries/README.md.

; `//!` and `/*! */` at file level document the module (all of their lines, joined).
(source_file (line_comment inner: (inner_doc_comment_marker)) @module.doc.line)
(source_file (block_comment inner: (inner_doc_comment_marker)) @module.doc.line)

; Functions: free, in impl blocks (methods via the scope), trait methods with or without a default body,
; and declarations in `extern` blocks.
(function_item
  name: (identifier) @name
  parameters: (parameters) @params
  body: (block) @body) @definition.function

(function_signature_item
  name: (identifier) @name
  parameters: (parameters) @params) @definition.function

(struct_item
  name: (type_identifier) @name
  body: (field_declaration_list) @body) @definition.struct

; Tuple and unit structs: no body, so the signature is the whole first line.
(struct_item
  name: (type_identifier) @name
  !body) @definition.struct
(struct_item
  name: (type_identifier) @name
  body: (ordered_field_declaration_list)) @definition.struct

(union_item
  name: (type_identifier) @name
  body: (field_declaration_list) @body) @definition.struct

(enum_item
  name: (type_identifier) @name
  body: (enum_variant_list) @body) @definition.enum

(trait_item
  name: (type_identifier) @name
  body: (declaration_list) @body) @definition.trait

(type_item name: (type_identifier) @name) @definition.type
; `type Output;` declared by a trait.
(associated_type name: (type_identifier) @name) @definition.type

(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant

; `mod name { ... }`; `mod name;` is an import of the module's file (imports.scm).
(mod_item
  name: (identifier) @name
  body: (declaration_list) @body) @definition.module
(mod_item
  body: (declaration_list . (line_comment inner: (inner_doc_comment_marker)) @doc)) @definition.module

; `macro_rules!` definitions are functions named after the macro; their first rule stands for the body.
(macro_definition
  name: (identifier) @name
  (macro_rule) @body) @definition.function

; `impl Type` / `impl Trait for Type` add members to Type: the name is the type without path or
; type arguments (`impl<T> fmt::Debug for a::Foo<T>` -> Foo).
(impl_item
  type: (type_identifier) @name
  body: (declaration_list) @body) @definition.scope
(impl_item
  type: (generic_type type: (type_identifier) @name)
  body: (declaration_list) @body) @definition.scope
(impl_item
  type: (scoped_type_identifier name: (type_identifier) @name)
  body: (declaration_list) @body) @definition.scope
(impl_item
  type: (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
  body: (declaration_list) @body) @definition.scope
; `impl Trait for &'a Foo`, `for [T]`, `for (A, B)`, `for dyn Trait`: the type as written, normalised.
(impl_item
  type: [(reference_type) (pointer_type) (array_type) (tuple_type) (dynamic_type) (function_type)
         (primitive_type) (abstract_type) (bounded_type)] @name
  body: (declaration_list) @body) @definition.scope
