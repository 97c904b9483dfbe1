; Registrations (src/extract/registrations.ts): actix-web and Rocket route attributes on a handler,
; #[get("/hello/{name}")] async fn greet(...); axum's .route("/users", get(list_users)).
((attribute_item
  (attribute (identifier) @register.verb arguments: (token_tree . "(" . (string_literal) @register.route))) @register
  .
  (function_item name: (identifier) @register.handler)
  (#match? @register.verb "^(get|post|put|patch|delete|head|options)$"))

((call_expression
  function: (field_expression field: (field_identifier) @_route)
  arguments: (arguments . (string_literal) @register.route . (call_expression
    function: (identifier) @register.verb
    arguments: (arguments . (_) @register.callback)))) @register
  (#eq? @_route "route")
  (#match? @register.verb "^(get|post|put|patch|delete|head|options|any)$"))
