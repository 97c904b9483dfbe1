; Call sites. Names written with a namespace (`\App\helper()`, `new \App\Foo`, `Util\Foo::make()`)
; keep only their last segment: names are looked up like unqualified ones. A name of the global
; namespace written `\strlen` or `\LogicException` is kept whole: it is PHP's own (or another global
; name), never a same-named class of some namespace in the repository, so it must not match one.

; `isset`, `empty`, `eval`, `die` and `exit` parse as calls but are language constructs.
((function_call_expression
  function: (name) @call.name) @call
  (#not-match? @call.name "^(isset|empty|eval|die|exit)$"))

((function_call_expression
  function: (qualified_name (name) @call.name) @_q) @call
  (#not-match? @_q "^\\\\[^\\\\]+$"))

((function_call_expression
  function: (qualified_name) @call.name) @call
  (#match? @call.name "^\\\\[^\\\\]+$"))

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

((scoped_call_expression
  scope: (qualified_name (name) @call.receiver) @_q
  name: (name) @call.name) @call
  (#not-match? @_q "^\\\\[^\\\\]+$"))

((scoped_call_expression
  scope: (qualified_name) @call.receiver
  name: (name) @call.name) @call
  (#match? @call.receiver "^\\\\[^\\\\]+$"))

; `new Foo()` calls Foo. `new self()` / `new static()` name the enclosing class, not a class called
; "self": they are left out rather than counted as unresolved.
((object_creation_expression
  (name) @call.name) @call
  (#not-match? @call.name "^(self|static|parent)$"))

((object_creation_expression
  (qualified_name (name) @call.name) @_q) @call
  (#not-match? @_q "^\\\\[^\\\\]+$"))

((object_creation_expression
  (qualified_name) @call.name) @call
  (#match? @call.name "^\\\\[^\\\\]+$"))

; Imports (parsed by parseImport in src/lang/php.ts): `use` statements at file or namespace level
; (not `use Trait;` inside a class, which is a use_declaration), and require/include of literal paths.
(namespace_use_declaration) @import
(require_expression) @import
(require_once_expression) @import
(include_expression) @import
(include_once_expression) @import

; Supertypes. `use SomeTrait;` in a class body counts as extends: the trait's methods become the
; class's own, so `$this->traitMethod()` resolves through the same supertype walk as inherited ones.
; A global name written `\Exception` is PHP's own: left out, like in calls above.
(base_clause (name) @extends)
((base_clause (qualified_name) @extends)
  (#not-match? @extends "^\\\\[^\\\\]+$"))
(class_interface_clause (name) @implements)
((class_interface_clause (qualified_name) @implements)
  (#not-match? @implements "^\\\\[^\\\\]+$"))
(use_declaration [(name) (qualified_name)] @extends)
