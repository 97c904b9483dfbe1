; Definitions. Roles and capture names: queries/README.md.
;
; `defmodule` is no symbol: the module is the file's (named by the Mix convention, see
; src/lang/elixir.ts), and its functions are the file's top-level names, which other files reach
; through `alias`, `import` or the module's full name.

; `def name(args) do … end`, `def name(args), do: …`, `def name when guard`, `def name, do: …`
((call
  target: (identifier) @_def
  (arguments . [
    (call target: (identifier) @name (arguments) @params)
    (binary_operator left: (call target: (identifier) @name (arguments) @params) operator: "when")
    (identifier) @name
  ])) @definition.function
  (#match? @_def "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate)$"))
((call target: (identifier) @_def (do_block) @body) @definition.function
  (#match? @_def "^(def|defp|defmacro|defmacrop)$"))
; `def new(name, price), do: …`: the keyword list is the body.
((call target: (identifier) @_def (arguments (keywords) @body)) @definition.function
  (#match? @_def "^(def|defp|defmacro|defmacrop)$"))

; `@doc "…"` right above a definition is its doc.
((unary_operator operand: (call target: (identifier) @_doc (arguments . (string) @doc)))
  .
  (call target: (identifier) @_def) @definition.function
  (#eq? @_doc "doc")
  (#match? @_def "^(def|defp|defmacro|defmacrop|defguard|defdelegate)$"))

; Module attributes with a value are the module's constants: `@max_discount 50`.
((unary_operator operand: (call target: (identifier) @name (arguments))) @definition.constant
  (#not-match? @name "^(doc|moduledoc|spec|type|typep|opaque|impl|behaviour|callback|macrocallback|derive|enforce_keys|typedoc|since|deprecated|dialyzer|compile|on_load|before_compile|after_compile|external_resource|optional_callbacks|vsn)$"))

; The module's `@moduledoc`.
((call target: (identifier) @_mod (do_block (unary_operator operand: (call target: (identifier) @_md (arguments . (string) @module.doc)))))
  (#eq? @_mod "defmodule")
  (#eq? @_md "moduledoc"))
