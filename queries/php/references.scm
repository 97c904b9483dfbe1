; Call sites. Names written with a namespace (`\App\helper()`, `new \App\Foo`, `Util\Foo::make()`)
; keep only their last segment: names are looked up like unqualified ones.

(function_call_expression
  function: (name) @call.name) @call

(function_call_expression
  function: (qualified_name (name) @call.name)) @call

(member_call_expression
  object: (_) @call.receiver
  name: (name) @call.name) @call

(nullsafe_member_call_expression
  object: (_) @call.receiver
  name: (name) @call.name) @call

; `self::m()`, `static::m()`, `parent::m()`, `Foo::m()`, `$class::m()`.
(scoped_call_expression
  scope: [(relative_scope) (name) (variable_name)] @call.receiver
  name: (name) @call.name) @call

(scoped_call_expression
  scope: (qualified_name (name) @call.receiver)
  name: (name) @call.name) @call

; `new Foo()` calls Foo. `new self()` / `new static()` name the enclosing class, not a class called
; "self": they are left out rather than counted as unresolved.
((object_creation_expression
  (name) @call.name) @call
  (#not-match? @call.name "^(self|static|parent)$"))

(object_creation_expression
  (qualified_name (name) @call.name)) @call

; Imports (parsed by parseImport in src/lang/php.ts): `use` statements at file or namespace level
; (not `use Trait;` inside a class, which is a use_declaration), and require/include of literal paths.
(namespace_use_declaration) @import
(require_expression) @import
(require_once_expression) @import
(include_expression) @import
(include_once_expression) @import

; Supertypes. `use SomeTrait;` in a class body counts as extends: the trait's methods become the
; class's own, so `$this->traitMethod()` resolves through the same supertype walk as inherited ones.
(base_clause [(name) (qualified_name)] @extends)
(class_interface_clause [(name) (qualified_name)] @implements)
(use_declaration [(name) (qualified_name)] @extends)
