; Call sites: `f(x)`, macro calls `SQUARE(x)`, and calls through a function pointer in a struct
; (`ops->open(f)`, `s.run()`), whose receiver is the struct value.
(call_expression function: (identifier) @call.name) @call
(call_expression
  function: (field_expression argument: (_) @call.receiver field: (field_identifier) @call.name)) @call

; `#include "util.h"`, `#include <shop/product.h>` (parsed by parseInclude in src/lang/c-family.ts).
(preproc_include) @import
