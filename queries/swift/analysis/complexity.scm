; Complexity of functions (src/analysis/complexity.ts). An `else if` is an if_statement directly
; inside another.
(if_statement) @branch
(guard_statement) @branch
(ternary_expression) @branch
(for_statement) @loop
(while_statement) @loop
(repeat_while_statement) @loop
(switch_statement) @switch
(switch_entry) @case
(catch_block) @catch
(conjunction_expression) @logical
(disjunction_expression) @logical
(lambda_literal) @nest
