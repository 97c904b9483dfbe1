; Definitions. Roles and capture names: queries/README.md.
;
; A module is a symbol when it defines methods itself (`module Util; def self.log…`); a module that only
; wraps classes (`module Shop; class Product…`) is a namespace, left out of names as PHP's, so that
; `Product` defined under `Shop` in one file is the `Product` another file calls.

(class name: [(constant) (scope_resolution name: (constant))] @name body: (body_statement) @body) @definition.class
(class name: [(constant) (scope_resolution name: (constant))] @name !body) @definition.class
(module name: [(constant) (scope_resolution name: (constant))] @name body: (body_statement [(method) (singleton_method)]) @body) @definition.module

(method name: (_) @name) @definition.function
(method parameters: (method_parameters) @params) @definition.function
(method body: (_) @body) @definition.function
(singleton_method name: (_) @name) @definition.function
(singleton_method parameters: (method_parameters) @params) @definition.function
(singleton_method body: (_) @body) @definition.function

; `MAX = 50` in a class or module body, or at the top of a file.
(body_statement (assignment left: (constant) @name) @definition.constant)
(program (assignment left: (constant) @name) @definition.constant)

; The grammar puts a comment written first in a body before the body node, so it is no sibling of the
; definition under it: `module Shop # doc \n class Product`.
(_ (comment) @doc . (body_statement . (class) @definition.class))
(_ (comment) @doc . (body_statement . (module) @definition.module))
(_ (comment) @doc . (body_statement . [(method) (singleton_method)] @definition.function))

(program . (comment) @module.doc)
