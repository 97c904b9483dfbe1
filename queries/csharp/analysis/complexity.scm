; Complexity of functions (src/analysis/complexity.ts): decisions, loops, nesting. Read on demand by
; `cg analyze complexity`, not part of the extraction query.
(if_statement) @branch
(conditional_expression) @branch
(for_statement) @loop
(foreach_statement) @loop
(while_statement) @loop
(do_statement) @loop
(switch_statement) @switch
(switch_expression) @switch
(switch_section) @case
(switch_expression_arm) @case
(catch_clause) @catch
(binary_expression "&&") @logical
(binary_expression "||") @logical
(binary_expression "??") @logical
(lambda_expression) @nest
(anonymous_method_expression) @nest
