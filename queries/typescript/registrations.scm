; NestJS routes: @Get(':id') on a controller method, under the class's @Controller('cats') prefix.
((class_body
  (decorator (call_expression function: (identifier) @register.verb arguments: (arguments . (string) @register.route))) @register
  .
  (method_definition name: (property_identifier) @register.handler))
  (#match? @register.verb "^(Get|Post|Put|Patch|Delete|Head|Options|All)$"))

((class_body
  (decorator (call_expression function: (identifier) @register.verb arguments: (arguments) @register.bare)) @register
  .
  (method_definition name: (property_identifier) @register.handler))
  (#match? @register.verb "^(Get|Post|Put|Patch|Delete|Head|Options|All)$")
  (#match? @register.bare "^\\(\\s*\\)$"))

((export_statement
  decorator: (decorator (call_expression function: (identifier) @_controller arguments: (arguments . (string) @register.prefix)))
  declaration: (class_declaration)) @register.scope
  (#eq? @_controller "Controller"))

((class_declaration
  decorator: (decorator (call_expression function: (identifier) @_controller arguments: (arguments . (string) @register.prefix)))) @register.scope
  (#eq? @_controller "Controller"))
