; Call sites: `f(x)`, `obj.m`, `self.m`, `@repo.store(x)`, `Util.log(x)`. A bare name without
; arguments (`price`) may be a local variable or a method: it is no call site.
((call !receiver method: (identifier) @call.name arguments: (argument_list)) @call
  (#not-match? @call.name "^(require|require_relative|load)$"))
((call receiver: [(identifier) (instance_variable) (class_variable) (constant) (self) (call)] @call.receiver method: (identifier) @call.name) @call
  (#not-eq? @call.name "new"))
; `Shop::Util.log(x)`: the namespace is left out of names, so the receiver is its last constant.
((call receiver: (scope_resolution name: (constant) @call.receiver) method: (identifier) @call.name) @call
  (#not-eq? @call.name "new"))

; `Product.new(…)` and `Shop::Product.new(…)` construct: calls of the class.
((call receiver: (constant) @call.name method: (identifier) @_new) @call (#eq? @_new "new"))
((call receiver: (scope_resolution name: (constant) @call.name) method: (identifier) @_new) @call (#eq? @_new "new"))

; `require` / `require_relative` (parsed by parseImport in src/lang/ruby.ts).
((call !receiver method: (identifier) @_req arguments: (argument_list . (string))) @import
  (#match? @_req "^(require|require_relative)$"))

; `class Product < Base`, `< Shop::Base`.
(superclass [(constant) (scope_resolution name: (constant))] @extends)
