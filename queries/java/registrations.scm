; Registrations (src/extract/registrations.ts): Spring MVC routes. @GetMapping("/{id}") (or value =,
; path =) on a method, under its class's @RequestMapping("/users"); @RequestMapping(method = ...).
((method_declaration
  (modifiers (annotation
    name: (identifier) @register.verb
    arguments: (annotation_argument_list . (string_literal) @register.route)) @register)
  name: (identifier) @register.handler)
  (#match? @register.verb "^(Get|Post|Put|Patch|Delete|Request)Mapping$"))

((method_declaration
  (modifiers (annotation
    name: (identifier) @register.verb
    arguments: (annotation_argument_list (element_value_pair key: (identifier) @_key value: (string_literal) @register.route))) @register)
  name: (identifier) @register.handler)
  (#match? @register.verb "^(Get|Post|Put|Patch|Delete|Request)Mapping$")
  (#match? @_key "^(value|path)$"))

((method_declaration
  (modifiers (marker_annotation name: (identifier) @register.verb @register.bare) @register)
  name: (identifier) @register.handler)
  (#match? @register.verb "^(Get|Post|Put|Patch|Delete|Request)Mapping$"))

((method_declaration
  (modifiers (annotation
    name: (identifier) @_verb
    arguments: (annotation_argument_list (element_value_pair key: (identifier) @_key value: (_) @register.methods))) @register))
  (#eq? @_verb "RequestMapping")
  (#eq? @_key "method"))

((class_declaration
  (modifiers (annotation
    name: (identifier) @_mapping
    arguments: (annotation_argument_list . (string_literal) @register.prefix)))) @register.scope
  (#eq? @_mapping "RequestMapping"))

((class_declaration
  (modifiers (annotation
    name: (identifier) @_mapping
    arguments: (annotation_argument_list (element_value_pair key: (identifier) @_key value: (string_literal) @register.prefix))))) @register.scope
  (#eq? @_mapping "RequestMapping")
  (#match? @_key "^(value|path)$"))

; JAX-RS (Jersey, Dropwizard, RESTEasy): @GET (and @Path("/{id}")) on a method, under the class's @Path.
((method_declaration
  (modifiers (marker_annotation name: (identifier) @register.verb @register.bare) @register)
  name: (identifier) @register.handler)
  (#match? @register.verb "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$"))

((method_declaration
  (modifiers
    (marker_annotation name: (identifier) @_verb) @register
    (annotation name: (identifier) @_path arguments: (annotation_argument_list . (string_literal) @register.route))))
  (#match? @_verb "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#eq? @_path "Path"))

((method_declaration
  (modifiers
    (annotation name: (identifier) @_path arguments: (annotation_argument_list . (string_literal) @register.route))
    (marker_annotation name: (identifier) @_verb) @register))
  (#match? @_verb "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#eq? @_path "Path"))

((class_declaration
  (modifiers (annotation
    name: (identifier) @_path
    arguments: (annotation_argument_list . (string_literal) @register.prefix)))) @register.scope
  (#eq? @_path "Path"))
