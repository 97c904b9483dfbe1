; Complexity of functions (src/analysis/complexity.ts): decisions, loops, nesting. Read on demand by
; `cg analyze complexity`, not part of the extraction query.
(if_expression) @branch
(for_statement) @loop
(while_statement) @loop
(do_while_statement) @loop
(when_expression) @switch
(when_entry) @case
(catch_block) @catch
(conjunction_expression) @logical
(disjunction_expression) @logical
(elvis_expression) @logical
(lambda_literal) @nest
(anonymous_function) @nest
