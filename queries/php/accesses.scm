; Data access (src/extract/accesses.ts).

; Writes: `$this->total = $x`, `self::$count++`.
(assignment_expression left: [(member_access_expression) (scoped_property_access_expression)] @access.write)
(augmented_assignment_expression left: [(member_access_expression) (scoped_property_access_expression)] @access.write)
(update_expression [(member_access_expression) (scoped_property_access_expression)] @access.write)

; Reads: property accesses (assignment targets are left out by the extractor), class constants.
(member_access_expression object: (_) name: (name)) @access.read
(scoped_property_access_expression scope: (_) name: (variable_name)) @access.read
(class_constant_access_expression (_) (name)) @access.read

; Query strings that look like SQL statements ($wpdb->prepare("SELECT ..."), PDO).
([(string) (encapsed_string)] @access.sql
  (#match? @access.sql "^['\"]\\s*([Ss][Ee][Ll][Ee][Cc][Tt]|[Ii][Nn][Ss][Ee][Rr][Tt]|[Uu][Pp][Dd][Aa][Tt][Ee]|[Dd][Ee][Ll][Ee][Tt][Ee]|[Ww][Ii][Tt][Hh])\\s"))

; Eloquent: User::where(...) reads the model, User::create(...) writes it.
((scoped_call_expression scope: (name) @access.model name: (name) @access.method)
  (#match? @access.model "^[A-Z]")
  (#match? @access.method "^(where|find|findOrFail|first|firstOrFail|all|get|query|with|count|paginate|create|insert|update|updateOrCreate|firstOrCreate|destroy|truncate|upsert)$"))

; The query builder and migrations: DB::table('users')->insert(...), Schema::create('users', ...).
((member_call_expression
  object: (scoped_call_expression scope: (name) @_db name: (name) @_table arguments: (arguments . (argument [(string) (encapsed_string)] @access.table)))
  name: (name) @access.method)
  (#eq? @_db "DB")
  (#eq? @_table "table"))

((scoped_call_expression
  scope: (name) @_schema
  name: (name) @access.method
  arguments: (arguments . (argument [(string) (encapsed_string)] @access.table)))
  (#eq? @_schema "Schema")
  (#match? @access.method "^(create|table|drop|dropIfExists|rename)$"))

; Tables a class declares: Eloquent's `protected $table = 'users';`.
((class_declaration
  body: (declaration_list (property_declaration
    (property_element (variable_name (name) @_var) (_) @access.declare))))
  (#eq? @_var "table"))
