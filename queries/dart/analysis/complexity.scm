; Complexity of functions (src/analysis/complexity.ts): decisions, loops, nesting. Read on demand by
; `cg analyze complexity`, not part of the extraction query.
(if_statement) @branch
(conditional_expression) @branch
(for_statement) @loop
(while_statement) @loop
(do_statement) @loop
(switch_statement) @switch
(switch_statement_case) @case
(catch_clause) @catch
(logical_and_expression) @logical
(logical_or_expression) @logical
(if_null_expression) @logical
(function_expression) @nest
