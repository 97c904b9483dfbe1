; Parameters (see queries/js-common/locals.scm). An arrow function's lone parameter is `parameter:`,
; the one field that only arrow functions have.
(required_parameter pattern: [(identifier) @local.name (rest_pattern (identifier) @local.name) (array_pattern (identifier) @local.name)])
(optional_parameter pattern: (identifier) @local.name)
(_ parameter: (identifier) @local.name)
(class_declaration name: (type_identifier) @local.definition)
