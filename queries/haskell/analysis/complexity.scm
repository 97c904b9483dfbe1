; Complexity of functions (src/analysis/complexity.ts): decisions, loops, nesting. Read on demand by
; `cg analyze complexity`, not part of the extraction query.
(conditional) @branch
(case) @switch
(alternative) @case
(guards) @case
((infix operator: (operator) @_op) @logical (#any-of? @_op "&&" "||"))
(lambda) @nest
