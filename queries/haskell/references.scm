; Call sites: a function applied to an argument (`f x y` is `(f x) y`: the innermost application
; names it), a qualified one (`U.traced "p" p`), a constructor (`Product n 10`), and a function passed
; by name to an operator section or in a composition is not a call.
(apply function: (variable) @call.name) @call
(apply function: (constructor) @call.name) @call
; The prefix is the module's ids (`U`, `Map`); a longer one (`Data.Map.lookup`) names a module
; imported without an alias, whose text ends with its dot.
(apply function: (qualified module: (module . (module_id) @call.receiver .) id: [(variable) (constructor)] @call.name)) @call
(apply function: (qualified module: (module (module_id) (module_id)) @call.receiver id: [(variable) (constructor)] @call.name)) @call

; Imports (parsed by parseImport in src/lang/haskell.ts).
(import) @import

; `instance Storable Product`: Product implements the class.
(instance name: (name) @implements)
