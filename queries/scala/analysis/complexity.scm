; Complexity of functions (src/analysis/complexity.ts): decisions, loops, nesting. Read on demand by
; `cg analyze complexity`, not part of the extraction query.
(if_expression) @branch
(for_expression) @loop
(while_expression) @loop
(do_while_expression) @loop
(match_expression) @switch
(case_clause) @case
(catch_clause) @catch
((infix_expression operator: (operator_identifier) @_op) @logical (#any-of? @_op "&&" "||"))
(lambda_expression) @nest
