; Variable -> class, for `product = Product.new(…); product.discounted(5)`. Instance variables are the
; class's fields: `@repo = Repository.new` in one method types `@repo` in the others.
((assignment left: (identifier) @binding.name right: (call receiver: [(constant) (scope_resolution)] @binding.type method: (identifier) @_new))
  (#eq? @_new "new"))
((assignment left: (instance_variable) @binding.field right: (call receiver: [(constant) (scope_resolution)] @binding.type method: (identifier) @_new))
  (#eq? @_new "new"))
((optional_parameter name: (identifier) @binding.name value: (call receiver: [(constant) (scope_resolution)] @binding.type method: (identifier) @_new))
  (#eq? @_new "new"))
