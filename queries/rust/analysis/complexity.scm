; Complexity of functions (src/analysis/complexity.ts).
(if_expression) @branch
(else_clause) @else
(for_expression) @loop
(while_expression) @loop
(loop_expression) @loop
(match_expression) @switch
(match_arm) @case
(binary_expression "&&") @logical
(binary_expression "||") @logical
(closure_expression) @nest
