; What a function body assigns: attributes always, plain names only when declared global/nonlocal.
(assignment left: [(attribute) (identifier)] @mutate.target)
(assignment left: (pattern_list [(attribute) (identifier)] @mutate.target))
(assignment left: (tuple_pattern [(attribute) (identifier)] @mutate.target))
(assignment left: (subscript value: [(attribute) (identifier)] @mutate.target))
(augmented_assignment left: [(attribute) (identifier)] @mutate.target)
(augmented_assignment left: (subscript value: [(attribute) (identifier)] @mutate.target))
(global_statement (identifier) @mutate.global)
(nonlocal_statement (identifier) @mutate.global)
