; Syntax errors the grammar parses without an ERROR node: a `let`, `const` or `class` declaration
; where only a single statement may stand (`if (x) const y = 1;`), which every engine refuses
; ("Lexical declaration cannot appear in a single-statement context"). The file is marked partial.
(if_statement consequence: [(lexical_declaration) (class_declaration)] @syntax.error)
(else_clause [(lexical_declaration) (class_declaration)] @syntax.error)
(for_statement body: [(lexical_declaration) (class_declaration)] @syntax.error)
(for_in_statement body: [(lexical_declaration) (class_declaration)] @syntax.error)
(while_statement body: [(lexical_declaration) (class_declaration)] @syntax.error)
(do_statement body: [(lexical_declaration) (class_declaration)] @syntax.error)
(labeled_statement body: [(lexical_declaration) (class_declaration)] @syntax.error)
