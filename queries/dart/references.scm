; Call sites. A call is a name followed by a selector holding the arguments: `f(x)`, `Product(…)`
; (constructors are calls of the class), `p.discounted(5)`, `this.report(p)`, `util.logLine(x)`.
(_ (identifier) @call.name @call . (selector (argument_part)))
(_
  [(identifier) (this) (super)] @call.receiver
  .
  (selector [(unconditional_assignable_selector (identifier) @call.name) (conditional_assignable_selector (identifier) @call.name)]) @call
  .
  (selector (argument_part)))
; In a longer chain (`a.b().c()`) the receiver is not written as one node: the name alone.
(_
  (selector [(unconditional_assignable_selector (identifier) @call.name) (conditional_assignable_selector (identifier) @call.name)]) @call
  .
  (selector (argument_part)))

; Imports and exports (parsed by parseImport in src/lang/dart.ts).
(import_or_export) @import

; `class Product extends Base with Logging implements Storable`.
(superclass (type_identifier) @extends)
(mixins (type_identifier) @extends)
(interfaces (type_identifier) @implements)
