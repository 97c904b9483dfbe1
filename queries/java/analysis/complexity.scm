; Complexity of functions (src/analysis/complexity.ts).
(if_statement) @branch
(ternary_expression) @branch
(for_statement) @loop
(enhanced_for_statement) @loop
(while_statement) @loop
(do_statement) @loop
(switch_expression) @switch
(switch_label) @case
(catch_clause) @catch
(binary_expression "&&") @logical
(binary_expression "||") @logical
(lambda_expression) @nest
