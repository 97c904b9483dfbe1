; Complexity of functions (src/analysis/complexity.ts): decisions, loops, nesting. Not part of the
; extraction query (this folder is read on demand by `cg analyze complexity`).
(if_statement) @branch
(elif_clause) @elif
(else_clause) @else
(conditional_expression) @branch
(for_statement) @loop
(while_statement) @loop
(match_statement) @switch
(case_clause) @case
(except_clause) @catch
(boolean_operator) @logical
(lambda) @nest
