/**
 * Cross-project references hidden in string literals: WordPress hooks (fired with do_action /
 * apply_filters, hooked with add_action / add_filter, in PHP and in wp.hooks JavaScript) and HTTP
 * routes (declared with register_rest_route, Express/Koa/Hono-style `app.get('/x')`, Flask and FastAPI
 * decorators, Laravel `Route::get`, Django `path()`, Spring mappings, Go mux handlers; called with
 * fetch, axios, jQuery, WordPress apiFetch / wp_remote_*, Python requests/httpx, Angular HttpClient
 * and other `client.get('/x')` calls).
 *
 * This is a text pass over a file's source, not a parse: what it reads is the first argument of
 * known calls, with literal parts kept and every computed part (a variable, `${…}`, `{$…}`, a
 * concatenated expression) turned into `*`. Issue 18 builds `registers` edges and `endpoint` nodes
 * inside one project's index; when they land this finder should read those instead of the text.
 */
export type SiteRole = 'provides' | 'uses';
export type SiteKind = 'hook' | 'route';

export interface StringSite {
  role: SiteRole;
  kind: SiteKind;
  /** Hook name, or a route path normalised by normalizeRoute; `*` stands for a part computed at run time. */
  name: string;
  /** The call or declaration it was read from: do_action, add_filter, fetch, app.get, @app.route… */
  call: string;
  /** HTTP method for routes when the code states it. */
  method: string | null;
  line: number;
  /** Decorator-style declarations belong to the definition below them, not the one around them. */
  attachBelow: boolean;
  confidence: number;
}

const HOOK_PROVIDERS = new Set(['do_action', 'do_action_ref_array', 'do_action_deprecated', 'apply_filters', 'apply_filters_ref_array',
  'apply_filters_deprecated', 'doAction', 'applyFilters', 'doActionAsync', 'applyFiltersAsync']);
const HOOK_USERS = new Set(['add_action', 'add_filter', 'remove_action', 'remove_filter', 'has_action', 'has_filter', 'remove_all_actions',
  'remove_all_filters', 'addAction', 'addFilter', 'removeAction', 'removeFilter', 'hasAction', 'hasFilter']);
const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);
/** Client helpers' method names that are not HTTP verbs as written (superagent's del). */
const METHOD_ALIASES: Record<string, string> = { del: 'DELETE' };

/** Extensions the pass reads; other files (documents, stylesheets) hold no such calls. */
const CODE = /\.(php|phtml|inc|js|jsx|mjs|cjs|ts|tsx|mts|cts|vue|svelte|py|go|java|kt|swift|rb)$/i;

export function scansFile(path: string): boolean {
  return CODE.test(path);
}

export function findStringSites(path: string, text: string): StringSite[] {
  const out: StringSite[] = [];
  const lines = lineStarts(text);
  const lineOf = (i: number) => lineAt(lines, i);
  // One scan over identifiers followed by `(`; each known call has its arguments read from there.
  // TypeScript type arguments may stand between the name and `(`: this.http.get<{ user: User }>('/user').
  const CALL = /(@?)((?:[A-Za-z_$][\w$]*(?:\s*(?:\.|->|::|\?\.)\s*))*)([A-Za-z_$][\w$]*)\s*(?:<[^()<>]*(?:<[^()<>]*>[^()<>]*)*>\s*)?\(/g;
  for (let m = CALL.exec(text); m; m = CALL.exec(text)) {
    const decorator = m[1] === '@';
    const receiver = m[2].replace(/\s+/g, '').replace(/(\.|->|::|\?\.)$/, '');
    const fn = m[3];
    const argsAt = m.index + m[0].length;
    const site = (role: SiteRole, kind: SiteKind, name: string | null, call: string, method: string | null, confidence: number) => {
      if (name) out.push({ role, kind, name, call, method, line: lineOf(m!.index), attachBelow: decorator, confidence });
    };
    if (HOOK_PROVIDERS.has(fn) || HOOK_USERS.has(fn)) {
      if (receiver && !/^(wp\.hooks|hooks|wp\.hooks\.\w+|\$?this|self|static|\w*[Hh]ooks?)$/.test(receiver)) continue;
      const arg = firstArgument(text, argsAt);
      const name = arg ? hookName(arg) : null;
      const certain = name && !name.includes('*');
      site(HOOK_PROVIDERS.has(fn) ? 'provides' : 'uses', 'hook', name, fn, null, certain ? 0.9 : 0.5);
      continue;
    }
    if (fn === 'register_rest_route' && !receiver) {
      const ns = firstArgument(text, argsAt);
      const route = ns ? nthArgument(text, argsAt, 1) : null;
      if (ns && route) {
        const nsv = stringValue(ns);
        const rv = stringValue(route);
        if (nsv && rv) site('provides', 'route', normalizeRoute(`/wp-json/${nsv}/${rv}`), fn, restMethod(text, argsAt), confidence(nsv + rv, 0.9));
      }
      continue;
    }
    const lower = fn.toLowerCase();
    // Server side: app.get('/x', …), router.post, Route::get, @app.route, @router.get, @GetMapping, mux.HandleFunc, path().
    if (decorator && (lower === 'route' || HTTP_METHODS.has(lower) || /^(get|post|put|patch|delete|request)mapping$/.test(lower))) {
      const arg = firstArgument(text, argsAt);
      const value = arg && stringValue(stripKeyword(arg));
      if (value && value.startsWith('/')) {
        const method = lower === 'route' ? flaskMethods(text, argsAt) : lower.endsWith('mapping') ? mappingMethod(lower) : lower.toUpperCase();
        site('provides', 'route', normalizeRoute(value), `@${receiver ? `${receiver}.` : ''}${fn}`, method, confidence(value, 0.85));
      }
      continue;
    }
    if (receiver === 'Route' && (HTTP_METHODS.has(lower) || lower === 'any' || lower === 'match' || lower === 'resource' || lower === 'apiresource')) {
      const arg = nthArgument(text, argsAt, lower === 'match' ? 1 : 0);
      const value = arg && stringValue(arg);
      if (value) {
        const prefix = /(^|\/)routes\/api\.php$/.test(path) ? '/api/' : '/';
        const route = normalizeRoute(prefix + value);
        if (lower === 'resource' || lower === 'apiresource') {
          site('provides', 'route', route, `Route::${fn}`, null, 0.8);
          site('provides', 'route', normalizeRoute(`${route}/*`), `Route::${fn}`, null, 0.8);
        } else site('provides', 'route', route, `Route::${fn}`, HTTP_METHODS.has(lower) ? lower.toUpperCase() : null, confidence(value, 0.85));
      }
      continue;
    }
    if (receiver && HTTP_METHODS.has(lower) && /^(app|router|server|api|routes?|\w*[Rr]outer|\w*[Aa]pp)$/.test(receiver) && !/\.(py)$/.test(path)) {
      const arg = firstArgument(text, argsAt);
      const value = arg && stringValue(arg);
      // A route declaration has a handler after the path; a client call (api.get('/x', {params})) has none, or options.
      const next = value && value.startsWith('/') ? nthArgument(text, argsAt, 1) : null;
      if (value && next && !next.startsWith('{')) {
        site('provides', 'route', normalizeRoute(value), `${receiver}.${fn}`, lower.toUpperCase(), confidence(value, 0.8));
        continue;
      }
    }
    if (receiver && /^(HandleFunc|Handle|Get|Post|Put|Patch|Delete|Method)$/.test(fn) && path.endsWith('.go')) {
      const arg = nthArgument(text, argsAt, fn === 'Method' ? 1 : 0);
      const value = arg && stringValue(arg);
      if (value && value.startsWith('/')) {
        site('provides', 'route', normalizeRoute(value), `${receiver}.${fn}`, /^(Get|Post|Put|Patch|Delete)$/.test(fn) ? fn.toUpperCase() : null, confidence(value, 0.8));
      }
      continue;
    }
    if (!receiver && (fn === 'path' || fn === 're_path' || fn === 'url') && /urls\.py$/.test(path)) {
      const arg = firstArgument(text, argsAt);
      const value = arg && stringValue(arg.replace(/^r(?=['"])/, ''));
      if (value !== null && value !== undefined && value !== '') {
        site('provides', 'route', normalizeRoute(`/${value.replace(/^\^/, '').replace(/\$$/, '')}`), fn, null, confidence(value, 0.6));
      }
      continue;
    }
    // Client side.
    const client = clientCall(receiver, fn, path);
    if (client) {
      const arg = client.argIndex < 0 ? objectKey(text, argsAt, client.key!) : nthArgument(text, argsAt, client.argIndex);
      const value = arg && urlValue(arg, client.relativeTo);
      if (value) site('uses', 'route', value, receiver ? `${receiver}.${fn}` : fn, client.method, confidence(value, client.confidence));
    }
  }
  return out;
}

interface ClientCall {
  argIndex: number;
  /** When the URL is a key of an options object ({url: …}, {path: …}). */
  key?: string;
  method: string | null;
  confidence: number;
  /** apiFetch paths are relative to the REST root. */
  relativeTo?: string;
}

function clientCall(receiver: string, fn: string, path: string): ClientCall | null {
  const lower = fn.toLowerCase();
  const method = HTTP_METHODS.has(lower) ? lower.toUpperCase() : METHOD_ALIASES[lower] ?? null;
  if (!receiver && fn === 'fetch') return { argIndex: 0, method: null, confidence: 0.9 };
  if (!receiver && fn === 'axios') return { argIndex: 0, method: null, confidence: 0.9 };
  if (receiver === 'axios' && (method || lower === 'request')) return { argIndex: 0, method, confidence: 0.9 };
  if ((!receiver && fn === 'apiFetch') || receiver === 'wp' && fn === 'apiFetch') {
    return { argIndex: -1, key: 'path', method: null, confidence: 0.9, relativeTo: '/wp-json/' };
  }
  if (!receiver && /^wp_(safe_)?remote_(get|post|head|request)$/.test(fn)) {
    const m = /_(get|post|head)$/.exec(fn);
    return { argIndex: 0, method: m ? m[1].toUpperCase() : null, confidence: 0.8 };
  }
  if ((receiver === '$' || receiver === 'jQuery') && (lower === 'get' || lower === 'post' || lower === 'getjson')) {
    return { argIndex: 0, method: lower === 'post' ? 'POST' : 'GET', confidence: 0.8 };
  }
  if ((receiver === '$' || receiver === 'jQuery') && lower === 'ajax') return { argIndex: -1, key: 'url', method: null, confidence: 0.8 };
  if (/^(requests|httpx|session|client|self\.client|self\.session)$/.test(receiver) && /\.py$/.test(path) && method) {
    return { argIndex: 0, method, confidence: 0.8 };
  }
  // Wrappers around an HTTP client (this.http, apiService, requests, client): only URL-looking first arguments count (urlValue).
  if (method && /^(\$?this\.)?(\$?http\w*|\w*[Aa]pi\w*|\w*[Cc]lient|requests?|agent|superagent|ky|got|instance|axiosInstance|\w*[Ss]ervice)$/.test(receiver)) {
    return { argIndex: 0, method, confidence: 0.7 };
  }
  if (/^URL$/.test(fn) && /\.swift$/.test(path)) return { argIndex: -1, key: 'string', method: null, confidence: 0.6 };
  return null;
}

// Arguments ------------------------------------------------------------------------------------------

const MAX_ARG = 400;

/** The text of the first argument at `at` (just after `(`), up to a top-level comma or `)`. */
function firstArgument(text: string, at: number): string | null {
  return nthArgument(text, at, 0);
}

function nthArgument(text: string, at: number, n: number): string | null {
  let depth = 0;
  let index = 0;
  let start = at;
  const end = Math.min(text.length, at + MAX_ARG * (n + 1) + 200);
  for (let i = at; i < end; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'" || ch === '`') {
      i = skipString(text, i, end);
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) return index === n ? clean(text.slice(start, i)) : null;
      depth--;
    } else if (ch === ',' && depth === 0) {
      if (index === n) return clean(text.slice(start, i));
      index++;
      start = i + 1;
    }
  }
  return null;
}

function clean(arg: string): string | null {
  const t = arg.trim();
  return t && t.length <= MAX_ARG ? t : null;
}

function skipString(text: string, i: number, end: number): number {
  const q = text[i];
  for (let j = i + 1; j < end; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === q) return j;
  }
  return end;
}

/** The value of `key: …` / `'key' => …` in an options object that is the call's first argument. */
function objectKey(text: string, at: number, key: string): string | null {
  const arg = firstArgument(text, at);
  if (!arg || !arg.startsWith('{')) return null;
  const m = new RegExp(`(?:^|[{,\\s])['"]?${key}['"]?\\s*(?::|=>)\\s*`).exec(arg);
  if (!m) return null;
  return nthArgument(`${arg.slice(m.index + m[0].length)})`, 0, 0);
}

/** `value = "/x"` (Spring's `@GetMapping(value = "/x")`, `path = "/x"`) to its value. */
function stripKeyword(arg: string): string {
  return arg.replace(/^(value|path)\s*=\s*/, '');
}

/**
 * An argument's string value: literal parts kept, computed parts as `*`. Handles PHP (`'a' . $b`,
 * `"a{$b}"`, `"a$b"`), JS/TS (`'a' + b`, template literals) and Python (`'a' + b`, f-strings).
 * Null when no literal part is there at all.
 */
export function stringValue(arg: string): string | null {
  const parts: string[] = [];
  let literal = false;
  let i = 0;
  const s = arg.trim();
  while (i < s.length) {
    const ch = s[i];
    if (/\s/.test(ch) || ch === '.' || ch === '+') {
      i++;
      continue;
    }
    const fstring = (ch === 'f' || ch === 'F') && (s[i + 1] === '"' || s[i + 1] === "'");
    if (ch === '"' || ch === "'" || ch === '`' || fstring) {
      const q = fstring ? s[i + 1] : ch;
      const start = fstring ? i + 2 : i + 1;
      const end = skipString(s, start - 1, s.length);
      let body = s.slice(start, end);
      if (q === '`') body = body.replace(/\$\{[^}]*\}/g, '\u0000');
      else if (fstring) body = body.replace(/\{[^}]*\}/g, '\u0000');
      else if (q === '"') body = body.replace(/\{\$[^}]*\}|\$[A-Za-z_][\w]*(?:->[A-Za-z_]\w*|\[[^\]]*\])*/g, '\u0000');
      parts.push(body.replace(/\\(.)/g, '$1').replace(/\u0000/g, '*'));
      literal = true;
      i = end + 1;
      continue;
    }
    // A computed operand: a variable, a call, a constant. Skip to the next concatenation operator.
    let depth = 0;
    let j = i;
    for (; j < s.length; j++) {
      const c = s[j];
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth--;
      else if (depth === 0 && (c === '+' || (c === '.' && /\s/.test(s[j - 1] ?? '') ) || /\s/.test(c))) break;
      else if (c === '"' || c === "'" || c === '`') j = skipString(s, j, s.length);
    }
    parts.push('*');
    i = Math.max(j, i + 1);
  }
  if (!literal) return null;
  return parts.join('').replace(/\*+/g, '*');
}

function hookName(arg: string): string | null {
  const v = stringValue(arg);
  if (!v || v === '*' || v.length > 200) return null;
  // A hook name is one token: anything with spaces is not a name (a message passed by mistake).
  if (/\s/.test(v)) return null;
  return v;
}

/** A client URL as a normalised route, or null when the argument is not a URL path. */
function urlValue(arg: string, relativeTo?: string): string | null {
  let v = stringValue(arg);
  if (!v) return null;
  v = v.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '*');   // scheme and host: the server's address, not the route
  v = v.replace(/[?#].*$/, '');
  if (relativeTo && !v.startsWith('*') && !v.startsWith('/')) v = relativeTo + v;
  else if (relativeTo && v.startsWith('/') && !v.startsWith(relativeTo)) v = relativeTo + v.slice(1);
  if (!v.includes('/')) return null;
  const literalSegments = v.split('/').filter((seg) => /[A-Za-z]/.test(seg.replace(/\*/g, '')));
  if (!literalSegments.length) return null;
  // A file or asset (…/logo.png, style.css) is not an API call.
  if (/\.(png|jpe?g|gif|svg|css|js|html?|ico|woff2?|ttf|map|json)$/i.test(v)) return null;
  return normalizeRoute(v.startsWith('/') || v.startsWith('*') ? v : `*/${v}`);
}

/**
 * A route as segments joined by `/`: parameters (`:id`, `{id}`, `<int:id>`, `(?P<id>\d+)`, `[id]`)
 * and computed parts become `*`; a leading `*` segment means an unknown prefix (a base URL held in a
 * variable); trailing slashes go.
 */
export function normalizeRoute(route: string): string {
  let r = route.replace(/\(\?P?<\w+>[^()]*(?:\([^()]*\)[^()]*)*\)/g, '*')   // (?P<id>[\d]+)
    .replace(/\([^()]*\)/g, '*')
    .replace(/<[^<>/]*>/g, '*')                  // <int:id>
    .replace(/\{[^{}/]*\}/g, '*')                // {id}
    .replace(/\[[^\]/]*\]/g, '*')                // [id]
    .replace(/(^|\/):\w+\??/g, '$1*')            // :id
    .replace(/[\^$?]+/g, '');
  const leadingUnknown = r.startsWith('*');
  const segs = r.split('/').filter((s) => s.length).map((s) => (/^\*+$/.test(s) || !/[A-Za-z0-9_-]/.test(s.replace(/\*/g, '')) ? '*' : s.replace(/\*+/g, '*')));
  // `${base}users`: the computed base ends where the literal starts, so the literal is a segment of its own.
  if (leadingUnknown && segs[0] !== '*') segs.splice(0, 1, '*', segs[0].replace(/^\*+/, ''));
  return `/${segs.join('/')}`;
}

function confidence(value: string, base: number): number {
  return value.includes('*') ? Math.round(base * 0.8 * 100) / 100 : base;
}

/** WordPress: `'methods' => 'POST'` or WP_REST_Server::CREATABLE in the route's arguments, when written there. */
function restMethod(text: string, at: number): string | null {
  const args = nthArgument(text, at, 2) ?? '';
  const m = /['"]methods['"]\s*=>\s*(?:['"](\w+)['"]|WP_REST_Server::(\w+))/.exec(args);
  if (!m) return null;
  if (m[1]) return m[1].toUpperCase();
  return ({ READABLE: 'GET', CREATABLE: 'POST', DELETABLE: 'DELETE' } as Record<string, string>)[m[2]] ?? null;
}

function flaskMethods(text: string, at: number): string | null {
  const rest = text.slice(at, at + 300);
  // methods=['PUT'] or methods=('PUT',): one method; several, or none written, mean any.
  const m = /^[^)]*methods\s*=\s*[[(]\s*['"](\w+)['"]\s*,?\s*[\])]/.exec(rest);
  return m ? m[1].toUpperCase() : null;
}

function mappingMethod(lower: string): string | null {
  const m = /^(get|post|put|patch|delete)mapping$/.exec(lower);
  return m ? m[1].toUpperCase() : null;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineAt(starts: number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
