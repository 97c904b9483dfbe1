; Call sites: `f(x)`, `Product.new(x)`, `Shop.Util.log(x)`, `x |> f()`. Definition macros and special
; forms are not calls; `product.price` (a map field, no parentheses) is not either.
((call target: (identifier) @call.name) @call
  (#not-match? @call.name "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defmodule|defprotocol|defimpl|defstruct|defexception|alias|import|require|use|if|unless|case|cond|with|for|fn|receive|try|quote|unquote|describe|test|setup|doc|moduledoc|spec|type|typep|opaque|impl|behaviour|callback|derive|enforce_keys|typedoc)$"))
(call target: (dot left: [(alias) (identifier) (atom)] @call.receiver right: (identifier) @call.name) (arguments "(")) @call

; `alias`, `import`, `require`, `use` (parsed by parseImport in src/lang/elixir.ts).
((call target: (identifier) @_k (arguments . (alias))) @import
  (#match? @_k "^(alias|import|require|use)$"))
