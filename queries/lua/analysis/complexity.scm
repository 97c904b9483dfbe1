; Complexity of functions (src/analysis/complexity.ts): decisions, loops, nesting. Read on demand by
; `cg analyze complexity`, not part of the extraction query.
(if_statement) @branch
(elseif_statement) @elif
(else_statement) @else
(for_statement) @loop
(while_statement) @loop
(repeat_statement) @loop
(binary_expression "and") @logical
(binary_expression "or") @logical
(function_definition) @nest
