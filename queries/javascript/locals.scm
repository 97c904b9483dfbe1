; Parameters (see queries/js-common/locals.scm). An arrow function's lone parameter is `parameter:`,
; the one field that only arrow functions have.
(formal_parameters [
  (identifier) @local.name
  (assignment_pattern left: (identifier) @local.name)
  (rest_pattern (identifier) @local.name)
  (array_pattern (identifier) @local.name)])
(_ parameter: (identifier) @local.name)
(class_declaration name: (identifier) @local.definition)
