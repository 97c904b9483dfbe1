; Call sites: `f(x)`, `M.new(x)`, `util.log(x)`, `p:discounted(x)`, `self:apply(x)`.
((function_call name: (identifier) @call.name) @call (#not-eq? @call.name "require"))
(function_call name: (dot_index_expression table: (_) @call.receiver field: (identifier) @call.name)) @call
(function_call name: (method_index_expression table: (_) @call.receiver method: (identifier) @call.name)) @call

; `require "x"` (parsed by parseImport in src/lang/lua.ts, which reads the variable it is bound to).
((function_call name: (identifier) @_req arguments: (arguments . (string))) @import (#eq? @_req "require"))
