; Complexity of functions (src/analysis/complexity.ts).
(if_statement) @branch
(else_if_clause) @elif
(else_clause) @else
(conditional_expression) @branch
(for_statement) @loop
(foreach_statement) @loop
(while_statement) @loop
(do_statement) @loop
(switch_statement) @switch
(case_statement) @case
(catch_clause) @catch
(binary_expression "&&") @logical
(binary_expression "||") @logical
(binary_expression "and") @logical
(binary_expression "or") @logical
(anonymous_function) @nest
(arrow_function) @nest
