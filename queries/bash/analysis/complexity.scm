; Complexity of functions (src/analysis/complexity.ts): decisions, loops, nesting. Read on demand by
; `cg analyze complexity`, not part of the extraction query.
(if_statement) @branch
(elif_clause) @elif
(else_clause) @else
(for_statement) @loop
(c_style_for_statement) @loop
(while_statement) @loop
(case_statement) @switch
(case_item) @case
(list "&&") @logical
(list "||") @logical
