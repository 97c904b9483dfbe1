; Complexity of functions (src/analysis/complexity.ts): decisions, loops, nesting. Read on demand by
; `cg analyze complexity`, not part of the extraction query.
(if) @branch
(unless) @branch
(elsif) @elif
(else) @else
(conditional) @branch
(if_modifier) @branch
(unless_modifier) @branch
(while) @loop
(until) @loop
(for) @loop
(while_modifier) @loop
(until_modifier) @loop
(case) @switch
(when) @case
(rescue) @catch
(binary "&&") @logical
(binary "||") @logical
(binary "and") @logical
(binary "or") @logical
(block) @nest
(do_block) @nest
(lambda) @nest
