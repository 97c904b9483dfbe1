; JavaScript-only definitions (on top of queries/js-common): class fields holding functions.
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [
    (function_expression parameters: (formal_parameters) @params body: (_) @body)
    (arrow_function [parameters: (formal_parameters) @params parameter: (identifier) @param] body: (_) @body)
  ]) @definition.function
