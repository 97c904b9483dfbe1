; Complexity of functions (src/analysis/complexity.ts): decisions, loops, nesting. Read on demand by
; `cg analyze complexity`, not part of the extraction query.
((call target: (identifier) @_kw) @branch (#any-of? @_kw "if" "unless"))
((call target: (identifier) @_kw) @switch (#any-of? @_kw "case" "cond" "with" "receive"))
((call target: (identifier) @_kw) @loop (#eq? @_kw "for"))
(stab_clause) @case
(rescue_block) @catch
((binary_operator operator: _ @_op) @logical (#any-of? @_op "&&" "||" "and" "or"))
(anonymous_function) @nest
