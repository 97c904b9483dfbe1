; Definitions. Roles and capture names: queries/README.md. An `object` (a singleton, or a class's
; companion) is a class: `Product.sample()` finds `sample` in `object Product`.

(class_definition name: (identifier) @name) @definition.class
(class_definition body: (template_body) @body) @definition.class
(object_definition name: (identifier) @name) @definition.class
(object_definition body: (template_body) @body) @definition.class
(trait_definition name: (identifier) @name) @definition.trait
(trait_definition body: (template_body) @body) @definition.trait
(enum_definition name: (identifier) @name body: (_) @body) @definition.enum

(function_definition name: (identifier) @name) @definition.function
(function_definition parameters: (parameters) @params) @definition.function
(function_definition body: (_) @body) @definition.function
; Abstract members: `def key: String`.
(function_declaration name: (identifier) @name) @definition.function
(function_declaration parameters: (parameters) @params) @definition.function

; `val`s of objects and packages are constants; a class's `val`s are its fields.
(object_definition body: (template_body (val_definition pattern: (identifier) @name) @definition.constant))
(compilation_unit (val_definition pattern: (identifier) @name) @definition.constant)
(type_definition name: (type_identifier) @name) @definition.type
