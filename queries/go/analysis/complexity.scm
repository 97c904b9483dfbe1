; Complexity of functions (src/analysis/complexity.ts). An `else if` is an if_statement directly
; inside another's alternative.
(if_statement) @branch
(for_statement) @loop
(expression_switch_statement) @switch
(type_switch_statement) @switch
(select_statement) @switch
(expression_case) @case
(type_case) @case
(communication_case) @case
(binary_expression "&&") @logical
(binary_expression "||") @logical
(func_literal) @nest
