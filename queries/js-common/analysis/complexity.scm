; Complexity of functions (src/analysis/complexity.ts); JavaScript, TypeScript and TSX.
(if_statement) @branch
(else_clause) @else
(ternary_expression) @branch
(for_statement) @loop
(for_in_statement) @loop
(while_statement) @loop
(do_statement) @loop
(switch_statement) @switch
(switch_case) @case
(catch_clause) @catch
(binary_expression "&&") @logical
(binary_expression "||") @logical
(binary_expression "??") @logical
(arrow_function) @nest
(function_expression) @nest
