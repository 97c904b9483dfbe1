; Registrations (src/extract/registrations.ts): routes, event handlers, and events fired by name.
; `(_ object: … attribute: …)` is an attribute, `(_ function: … arguments: …)` a call: cheaper to compile
; (queries/README.md, "Compile cost").

; Flask, FastAPI, Starlette, Quart: @app.route('/users/<id>', methods=[...]), @bp.get('/x'), @router.post('/x').
((decorated_definition
  (decorator
    (_
      function: (_ attribute: (identifier) @register.verb)
      arguments: (argument_list . (string) @register.route))) @register
  definition: (function_definition name: (identifier) @register.handler))
  (#match? @register.verb "^(route|get|post|put|patch|delete|head|options|api_route|websocket)$")
  (#match? @register.route "^[rbuRBU]?['\"]/"))

; methods=['GET', 'POST'] on such a decorator.
((decorated_definition
  (decorator
    (_
      function: (_ attribute: (identifier) @_verb)
      arguments: (argument_list . (string) (keyword_argument name: (identifier) @_key value: [(list) (tuple) (set)] @register.methods)))) @register)
  (#match? @_verb "^(route|api_route)$")
  (#eq? @_key "methods"))

; Django URLconfs: path('users/<int:pk>/', views.detail), re_path(r'^users/$', views.UserList.as_view()), url(...).
((call
  function: (identifier) @register.verb
  arguments: (argument_list . (string) @register.route . [(identifier) (attribute) (call)] @register.callback)) @register
  (#match? @register.verb "^(path|re_path|url)$"))

; Django signals by decorator: @receiver(post_save, sender=User).
((decorated_definition
  (decorator
    (_
      function: (identifier) @_receiver
      arguments: (argument_list . [(identifier) (attribute)] @register.event))) @register
  definition: (function_definition name: (identifier) @register.handler))
  (#eq? @_receiver "receiver"))

; Event emitters (pyee, socket.io, blinker-style): @ee.on('data'), ee.on('data', handler).
((decorated_definition
  (decorator
    (_
      function: (_ attribute: (identifier) @_on)
      arguments: (argument_list . (string) @register.event))) @register
  definition: (function_definition name: (identifier) @register.handler))
  (#match? @_on "^(on|once|event)$"))

((call
  function: (_ attribute: (identifier) @_on)
  arguments: (argument_list . (string) @register.event . [(identifier) (attribute)] @register.callback)) @register
  (#match? @_on "^(on|once|add_listener|add_event_listener)$"))

((call
  function: (_ attribute: (identifier) @_emit)
  arguments: (argument_list . (string) @fire.event)) @fire
  (#eq? @_emit "emit"))
