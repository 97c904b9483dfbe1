; Definitions. Roles and capture names: queries/README.md.
;
; A function is its equations (`function`, or `bind` for a name without arguments); a function of
; several equations is a symbol per equation, as overloads are elsewhere. Its Haddock comment sits
; above its type signature.

(declarations (function name: (variable) @name patterns: (patterns) @params match: (_) @body) @definition.function)
(declarations (bind name: (variable) @name match: (_) @body) @definition.function)
(declarations (haddock) @doc . (signature) . (function name: (variable) @_n) @definition.function)
(declarations (haddock) @doc . (signature) . (bind name: (variable) @_n) @definition.function)
; The grammar parses a comment right after the imports as part of them.
(haskell (imports (haddock) @doc .) . (declarations . (signature) . [(function) (bind)] @definition.function))
; Functions of a `where` or `let`: nested in the function that defines them.
(local_binds (function name: (variable) @name patterns: (patterns) @params match: (_) @body) @definition.function)

; `data`, `newtype` and `type` declare types; a record's constructor builds one (`Product "pen" 1`).
(data_type name: (name) @name) @definition.type
(newtype name: (name) @name) @definition.type
(type_synomym name: (name) @name) @definition.type
(declarations (haddock) @doc . [(data_type) (newtype) (type_synomym)] @definition.type)

; A type class is an interface of its methods' signatures; an instance adds methods to its type.
(class name: (name) @name declarations: (class_declarations) @body) @definition.interface
(declarations (haddock) @doc . (class) @definition.interface)
(class_declarations (signature name: (variable) @name) @definition.function)
(class_declarations (haddock) @doc . (signature name: (variable) @_n) @definition.function)
(instance patterns: (type_patterns . (name) @name) declarations: (instance_declarations)) @definition.scope
(instance_declarations [(function name: (variable) @name) (bind name: (variable) @name)] @definition.function)

(haskell . (haddock) @module.doc.line)
