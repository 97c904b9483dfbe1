; Definitions. Roles and capture names: queries/README.md.
; The grammar spells class, struct, enum, actor and extension declarations all as `class_declaration`;
; `declaration_kind` tells them apart. An actor is a reference type with methods: a class.

(class_declaration
  declaration_kind: ["class" "actor"]
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class

(class_declaration
  declaration_kind: "struct"
  name: (type_identifier) @name
  body: (class_body) @body) @definition.struct

(class_declaration
  declaration_kind: "enum"
  name: (type_identifier) @name
  body: (enum_class_body) @body) @definition.enum

(protocol_declaration
  name: (type_identifier) @name
  body: (protocol_body) @body) @definition.interface

; `extension Foo { ... }` adds members to Foo wherever Foo is declared: `Foo.member`.
(class_declaration
  declaration_kind: "extension"
  name: (user_type) @name
  body: (class_body) @body) @definition.scope

; Functions and methods. `name` is also the field of the return type, so the name is the node right
; after `func` (an identifier, or an operator such as `==`).
(function_declaration
  "func" . _ @name
  body: (function_body) @body) @definition.function

(function_declaration (parameter)+ @param) @definition.function

; Protocol requirements have no body.
(protocol_function_declaration
  "func" . _ @name) @definition.function

(protocol_function_declaration (parameter)+ @param) @definition.function

; `init`, `deinit` and `subscript` are named by their keyword: `Session.init`.
(init_declaration
  name: "init" @name) @definition.function

(init_declaration
  body: (function_body) @body) @definition.function

(init_declaration (parameter)+ @param) @definition.function

(deinit_declaration
  "deinit" @name
  body: (function_body) @body) @definition.function

(subscript_declaration
  "subscript" @name
  (computed_property) @body) @definition.function

(subscript_declaration (parameter)+ @param) @definition.function

; A computed property (`var area: Double { ... }`) runs code on each access: a method named after the
; property, so the calls in its body have a caller. Stored properties are not symbols.
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @name)
  computed_value: (computed_property) @body) @definition.function

; Constants: top-level `let` and `static let` members.
(source_file
  (property_declaration
    (value_binding_pattern mutability: "let")
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant)

(class_body
  (property_declaration
    (modifiers (property_modifier "static"))
    (value_binding_pattern mutability: "let")
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant)

(enum_class_body
  (property_declaration
    (modifiers (property_modifier "static"))
    (value_binding_pattern mutability: "let")
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant)

(typealias_declaration
  name: (type_identifier) @name) @definition.type
