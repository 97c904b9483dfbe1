/**
 * Registrations: code that hands a callback to a framework under a literal name, and code that fires
 * such a name. What the query files capture (queries/README.md, "Registrations") is turned here into
 * records with the literal names as the framework sees them, whatever the language:
 *
 *   route   `@app.get('/users/<id>')`, `app.get('/users/:id', show)`, `Route::get('/users', [C::class, 'index'])`,
 *           `@GetMapping("/{id}")` under `@RequestMapping("/users")`, `mux.HandleFunc("GET /users", h)`,
 *           `#[get("/users")]`, `.route("/users", get(h))`, `app.get("users", use: h)`
 *           -> an endpoint named `GET /users/<id>` (method, path as written, a class-level prefix joined)
 *   hook    WordPress `add_action('init', 'on_init')`, `add_filter(...)`, `add_shortcode(...)` -> `action:init`
 *   event   `emitter.on('data', onData)`, `addEventListener('click', h)`, `@receiver(post_save)` -> `event:data`
 *   fire    `do_action('init')`, `apply_filters('the_content', ...)`, `emitter.emit('data')` -> `action:init`
 *
 * A registration's target (`kind:name`) is what links it to the places that fire the same name, in
 * this repository (src/graph) and, for cross-repository answers, in others: these functions are the
 * one place that spells them.
 */

export interface CallbackRef {
  /** The callable's own name: `on_init`, `show`, `handle`. */
  name: string;
  /** What it is reached through, as written: `$this`, `UserController`, `self`, `h`; null for a bare name. */
  receiver: string | null;
  /** Named by a string (`'on_init'`, `'C@m'`, `[$this, 'm']`): PHP looks it up globally at run time. */
  literal: boolean;
}

export interface Registration {
  /** The symbol the edge starts from: the route's endpoint, else the innermost symbol around the call. */
  symbol: number;
  /** `route`, `event`, or the hook's kind (`action`, `filter`, `shortcode`). */
  kind: string;
  /** The literal it registers under: `GET /users/<id>`, `init`, `click`. */
  name: string;
  /** The callback, when it is a name (not an inline function). */
  callback: CallbackRef | null;
  /** The declared or constructed type of the callback's receiver, when the file says it (`s *Service` for `s.handle`). */
  callbackType: string | null;
  /** The decorated or annotated definition that is the handler itself (an index into the file's symbols), or -1. */
  handler: number;
  line: number;
  inError: boolean;
}

export interface FireSite {
  /** The innermost symbol around the call that fires the name. */
  symbol: number;
  kind: string;
  name: string;
  line: number;
  inError: boolean;
}

/** `kind:name`, the key a registration and the sites that fire it share. */
export function registrationTarget(kind: string, name: string): string {
  return `${kind}:${name}`;
}

/** The parts of a target written by registrationTarget. */
export function parseTarget(target: string): { kind: string; name: string } | null {
  const colon = target.indexOf(':');
  return colon > 0 ? { kind: target.slice(0, colon), name: target.slice(colon + 1) } : null;
}

const STRING = /^(?:[rRbBuUfF]{0,2}|@)("""|'''|"|'|`)([\s\S]*)\1$/;
const RUST_RAW = /^r(#*)"([\s\S]*)"\1$/;

/** A string literal's value as written between its quotes (prefixes and raw markers removed); other text as is. */
export function literalText(text: string): string {
  const t = text.trim();
  const raw = RUST_RAW.exec(t);
  if (raw) return raw[2];
  const m = STRING.exec(t);
  return m ? m[2] : t;
}

/**
 * The kind of a WordPress-style hook function: `add_action`, `do_action`, `do_action_ref_array` ->
 * `action`; `add_filter`, `apply_filters` -> `filter`; `add_shortcode` -> `shortcode`.
 */
export function hookKind(verb: string): string {
  return verb.toLowerCase().replace(/^(add|do|apply|register|remove|has)_/, '').replace(/_ref_array$/, '').replace(/s$/, '') || 'hook';
}

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
/** WordPress's WP_REST_Server method constants. */
const REST_SERVER_METHODS: Record<string, string> = {
  READABLE: 'GET', CREATABLE: 'POST', EDITABLE: 'POST, PUT, PATCH', DELETABLE: 'DELETE', ALLMETHODS: 'ANY',
};

/**
 * An endpoint's name, `METHOD /path`: the method from the function or annotation (`get`, `GET`,
 * `GetMapping`, `Route::post`), from a methods list (`methods=['GET', 'POST']`,
 * `method = RequestMethod.POST`, `'methods' => WP_REST_Server::READABLE`) or from the path itself
 * (Go 1.22 `"GET /items/{id}"`); ANY when none says. The path is joined from its parts (Vapor's
 * `"users", ":id"`, WordPress's namespace and route) under a class-level prefix, with a leading `/`.
 */
export function routeName(verb: string | null, methods: string | null, parts: string[], prefix: string | null): string {
  const texts = parts.map(literalText).filter((p) => p !== '');
  let path = texts.map((p, i) => (i ? p.replace(/^\/+/, '') : p).replace(i < texts.length - 1 ? /\/+$/ : /$^/, '')).join('/');
  let method: string[] = [];
  const inPath = /^([A-Z]+)\s+(\S.*)$/.exec(path);
  if (inPath && HTTP_METHODS.includes(inPath[1])) {
    method = [inPath[1]];
    path = inPath[2];
  }
  if (methods) method = methodsIn(methods);
  if (!method.length && verb) {
    const v = verb.replace(/Mapping$/, '').toUpperCase();
    if (HTTP_METHODS.includes(v)) method = [v];
  }
  const full = joinPath(prefix ? literalText(prefix) : '', path);
  return `${method.length ? method.join(', ') : 'ANY'} ${full}`;
}

function methodsIn(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(/[A-Za-z]+/g) ?? []) {
    const rest = REST_SERVER_METHODS[word];
    if (rest) out.push(...rest.split(', ').filter((m) => m !== 'ANY'));
    const upper = word.toUpperCase();
    if (HTTP_METHODS.includes(upper)) out.push(upper);
  }
  return [...new Set(out)];
}

function joinPath(prefix: string, path: string): string {
  const parts = [prefix, path].map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean);
  const joined = `/${parts.join('/')}`;
  return path.endsWith('/') && joined !== '/' ? `${joined}/` : joined;
}

/**
 * The callable a registration names, from its source text: `on_init`, `'on_init'`, `'Cls::m'`,
 * `'Cls@m'` (Laravel), `[$this, 'm']`, `array('Cls', 'm')`, `[Cls::class, 'm']`, `self.handle`,
 * `this.onData.bind(this)`, `views.UserView.as_view()`, `h.Save`. Null for inline functions and
 * anything else that names no callable.
 */
export function callbackRef(text: string): CallbackRef | null {
  let t = text.trim().replace(/\s+/g, '');
  t = t.replace(/\.(bind|as_view)\((?:[^()]|\([^()]*\))*\)$/, '');
  // PHP callable arrays: [$this, 'm'], array(Cls::class, 'm'), ['Cls', 'm'].
  const arr = /^(?:array\(|\[)(.+?),(['"])(\w+)\2[)\]]$/.exec(t);
  if (arr) {
    const receiver = literalText(arr[1]).replace(/::class$/, '').replace(/^\\/, '');
    return { name: arr[3], receiver: receiver === '__CLASS__' || receiver === 'self' || receiver === 'static' ? '$this' : receiver, literal: true };
  }
  const quoted = /^(['"])([\w\\]+(?:(?:::|@)\w+)?)\1$/.exec(t);
  if (quoted) {
    const [owner, method] = quoted[2].split(/::|@/);
    const ownerName = owner.slice(owner.lastIndexOf('\\') + 1);
    return method ? { name: method, receiver: ownerName, literal: true } : { name: ownerName, receiver: null, literal: true };
  }
  if (!/^[\w$\\]+(?:(?:\.|->|::)[\w$]+)*$/.test(t)) return null;
  const member = /^(.*)(?:\.|->|::)([\w$]+)$/.exec(t);
  if (!member) return { name: t.slice(t.lastIndexOf('\\') + 1), receiver: null, literal: false };
  return { name: member[2], receiver: member[1], literal: false };
}
