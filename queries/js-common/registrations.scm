; Registrations (src/extract/registrations.ts): routes, event handlers, and events fired by name.
; A wildcard with fields, `(_ object: … property: …)`, is the one node type that has them there: cheaper to compile
; (queries/README.md, "Compile cost").

; Express, Koa-router, Fastify, Hono and the like: app.get('/users/:id', ...middleware, handler). The
; handler is the last argument; an inline function makes the endpoint the caller of what it calls.
((call_expression
  function: (_ property: (property_identifier) @register.verb)
  arguments: (arguments . (string) @register.route (_) @register.callback .)) @register
  (#match? @register.verb "^(get|post|put|patch|delete|head|options|all)$")
  (#match? @register.route "^['\"]/"))

; Event emitters and the DOM: emitter.on('data', onData), el.addEventListener('click', h), once, addListener.
((call_expression
  function: (_ property: (property_identifier) @_on)
  arguments: (arguments . (string) @register.event (_) @register.callback .)) @register
  (#match? @_on "^(on|once|addListener|prependListener|addEventListener)$"))

((call_expression
  function: (identifier) @_on
  arguments: (arguments . (string) @register.event (_) @register.callback .)) @register
  (#eq? @_on "addEventListener"))

((call_expression
  function: (_ property: (property_identifier) @_emit)
  arguments: (arguments . (string) @fire.event)) @fire
  (#eq? @_emit "emit"))
