; NestJS routes: @Get(':id') on a controller method, under the class's @Controller('cats') prefix.
; A wildcard with fields, `(_ object: … property: …)`, is the one node type that has them there: cheaper to compile
; (queries/README.md, "Compile cost").
((class_body
  (decorator (_ function: (identifier) @register.verb arguments: (arguments . (string) @register.route))) @register
  .
  (method_definition name: (property_identifier) @register.handler))
  (#match? @register.verb "^(Get|Post|Put|Patch|Delete|Head|Options|All)$"))

((class_body
  (decorator (_ function: (identifier) @register.verb arguments: (arguments) @register.bare)) @register
  .
  (method_definition name: (property_identifier) @register.handler))
  (#match? @register.verb "^(Get|Post|Put|Patch|Delete|Head|Options|All)$")
  (#match? @register.bare "^\\(\\s*\\)$"))

((export_statement
  decorator: (decorator (_ function: (identifier) @_controller arguments: (arguments . (string) @register.prefix)))
  declaration: (class_declaration)) @register.scope
  (#eq? @_controller "Controller"))

((class_declaration
  decorator: (decorator (_ function: (identifier) @_controller arguments: (arguments . (string) @register.prefix)))) @register.scope
  (#eq? @_controller "Controller"))
