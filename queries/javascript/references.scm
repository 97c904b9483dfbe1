; Supertypes: `class A extends B`, `class A extends ns.B` (mixin calls are not names).
(class_heritage [(identifier) (member_expression)] @extends)
