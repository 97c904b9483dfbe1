; Registrations (src/extract/registrations.ts): HTTP routes of net/http, chi, gorilla/mux, gin, echo:
; http.HandleFunc("/users", list), r.Get("/users/{id}", h.Show), e.GET("/x", h), and Go 1.22's
; mux.HandleFunc("GET /items/{id}", get). The handler is the last argument.
((call_expression
  function: (selector_expression field: (field_identifier) @register.verb)
  arguments: (argument_list . [(interpreted_string_literal) (raw_string_literal)] @register.route (_) @register.callback .)) @register
  (#match? @register.verb "^(HandleFunc|Handle|Get|Post|Put|Patch|Delete|Head|Options|GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|Any)$")
  (#match? @register.route "^[\"`]([A-Z]+ )?/"))
