; Complexity of functions (src/analysis/complexity.ts): decisions, loops, nesting. Read on demand by
; `cg analyze complexity`, not part of the extraction query.
(if_statement) @branch
(else_clause) @else
(conditional_expression) @branch
(for_statement) @loop
(while_statement) @loop
(do_statement) @loop
(switch_statement) @switch
(case_statement) @case
(binary_expression "&&") @logical
(binary_expression "||") @logical
