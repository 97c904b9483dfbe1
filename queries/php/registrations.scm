; Registrations (src/extract/registrations.ts): WordPress hooks, shortcodes and REST routes, Laravel
; and Symfony routes, and the hooks fired by name.

; WordPress: add_action('init', 'cb'), add_filter('the_content', [$this, 'm'], 10), add_shortcode('tag', cb).
; A hook named by an expression (`add_action($hook, ...)`) keeps the expression as its name: the callback
; is still registered, though no fired name will meet it.
((function_call_expression
  function: (name) @register.verb
  arguments: (arguments . (argument (_) @register.hook) . (argument (_) @register.callback))) @register
  (#match? @register.verb "^(add_action|add_filter|add_shortcode)$"))

; WordPress fires hooks by name: do_action('init'), apply_filters('the_content', $c), and the _ref_array forms.
((function_call_expression
  function: (name) @fire.verb
  arguments: (arguments . (argument [(string) (encapsed_string)] @fire.hook))) @fire
  (#match? @fire.verb "^(do_action|do_action_ref_array|apply_filters|apply_filters_ref_array)$"))

; WordPress REST routes: register_rest_route('ns/v1', '/route', ['methods' => 'GET', 'callback' => cb]).
((function_call_expression
  function: (name) @_f
  arguments: (arguments
    . (argument [(string) (encapsed_string)] @register.route)
    . (argument [(string) (encapsed_string)] @register.route)
    . (argument (array_creation_expression
        (array_element_initializer . [(string) (encapsed_string)] @_key . (_) @register.callback))))) @register
  (#eq? @_f "register_rest_route")
  (#match? @_key "^.callback.$"))

((function_call_expression
  function: (name) @_f
  arguments: (arguments
    . (argument [(string) (encapsed_string)])
    . (argument [(string) (encapsed_string)])
    . (argument (array_creation_expression
        (array_element_initializer . [(string) (encapsed_string)] @_key . (_) @register.methods))))) @register
  (#eq? @_f "register_rest_route")
  (#match? @_key "^.methods.$"))

; Laravel: Route::get('/users/{id}', [UserController::class, 'show']), Route::post('/x', 'C@m').
((scoped_call_expression
  scope: (name) @_route
  name: (name) @register.verb
  arguments: (arguments . (argument [(string) (encapsed_string)] @register.route) . (argument (_) @register.callback))) @register
  (#eq? @_route "Route")
  (#match? @register.verb "^(get|post|put|patch|delete|options|any)$"))

; Symfony: #[Route('/blog/{slug}', methods: ['GET'])] on a controller method.
((method_declaration
  attributes: (attribute_list (attribute_group
    (attribute (name) @register.verb parameters: (arguments . (argument [(string) (encapsed_string)] @register.route))) @register))
  name: (name) @register.handler)
  (#eq? @register.verb "Route"))

((method_declaration
  attributes: (attribute_list (attribute_group
    (attribute (name) @_verb parameters: (arguments (argument name: (name) @_key (_) @register.methods))) @register)))
  (#eq? @_verb "Route")
  (#eq? @_key "methods"))

; A class-level #[Route('/blog')] prefixes its methods' routes.
((class_declaration
  attributes: (attribute_list (attribute_group
    (attribute (name) @_verb parameters: (arguments . (argument [(string) (encapsed_string)] @register.prefix)))))) @register.scope
  (#eq? @_verb "Route"))

; Slim and similar routers: $app->get('/hello/{name}', $handler), $group->post('/x', [Controller::class, 'm']).
((member_call_expression
  name: (name) @register.verb
  arguments: (arguments . (argument [(string) (encapsed_string)] @register.route) (argument (_) @register.callback) .)) @register
  (#match? @register.verb "^(get|post|put|patch|delete|options|any)$")
  (#match? @register.route "^['\"]/"))
