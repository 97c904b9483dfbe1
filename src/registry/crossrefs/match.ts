/**
 * When a string-literal use in one project refers to what another provides: a hook hooked under the
 * name it is fired with, a URL called where a route is declared. Each match has a quality in (0, 1];
 * an edge's weight is that times the lower of the two sites' confidences.
 */

/**
 * Hook names: equal (1); equal where one side has a computed part (`pum_*_init`), or both the same
 * pattern (`cmb2_override_*_meta_save` fired and hooked with a field id each), 0.6.
 */
export function hookMatch(use: string, provide: string): number {
  if (use === provide) return use.includes('*') ? 0.6 : 1;
  if (!use.includes('*') && !provide.includes('*')) return 0;
  if (use.includes('*') && provide.includes('*')) return 0;
  const [pattern, name] = use.includes('*') ? [use, provide] : [provide, use];
  // A pattern that is only a computed part with a short fixed prefix would match half the hooks there are.
  if (pattern.replace(/\*/g, '').length < 4) return 0;
  return glob(pattern).test(name) ? 0.6 : 0;
}

/** Segments that say nothing about which route is meant: many APIs share them. */
const GENERIC = new Set(['api', 'rest', 'wp-json', 'v1', 'v2', 'v3', 'v4', 'json', 'index.php', 'public', 'admin', 'ajax']);

/**
 * A client URL against a declared route (both from normalizeRoute). The full path equal segment by
 * segment (`*` matching one segment) is 1; a client URL with an unknown base (`${API}/users/*`)
 * matched against the route's tail is 0.8 with two or more specific segments, 0.5 with one; a route
 * mounted under a prefix the declaration does not show (client `/api/users`, route `/users`), or a
 * client path relative to an API root kept elsewhere (client `/users`, route `/api/users`), is 0.6
 * with two or more specific segments, 0.4 with one. At least one specific (non-generic) segment must agree literally, and known methods must agree.
 */
export function routeMatch(client: string, clientMethod: string | null, route: string, routeMethod: string | null): number {
  if (clientMethod && routeMethod && clientMethod !== routeMethod) return 0;
  const c = segments(client);
  const r = segments(route);
  const unknownPrefix = c[0] === '*';
  const cl = unknownPrefix ? c.slice(1) : c;
  if (!cl.length || !r.length) return 0;
  if (cl.length === r.length) {
    const lit = aligned(cl, r);
    if (lit === null || !lit.specific) return 0;
    // With an unknown base the path may still be the whole route (the base is the scheme and host).
    return unknownPrefix ? (lit.literal >= 2 ? 0.8 : 0.5) : 1;
  }
  if (cl.length < r.length) {
    const lit = aligned(cl, r.slice(r.length - cl.length));
    if (lit === null || !lit.specific) return 0;
    if (unknownPrefix) return lit.literal >= 2 ? 0.8 : 0.5;
    // A path relative to an API root held elsewhere (agent.get('/articles') with API_ROOT = '…/api').
    return lit.literal >= 2 ? 0.6 : 0.4;
  }
  if (cl.length > r.length && !unknownPrefix) {
    const lit = aligned(cl.slice(cl.length - r.length), r);
    if (lit === null || !lit.specific) return 0;
    return lit.literal >= 2 ? 0.6 : 0.4;
  }
  return 0;
}

/**
 * How closely a client URL and a route agree, to choose among several routes one URL matches: each
 * segment equal as written counts 1, a parameter against a parameter 0.5 (so `/articles/*` prefers the
 * route `/articles/{slug}` to `/articles/feed`, and `/articles/feed` the literal route).
 */
export function routeSpecificity(client: string, route: string): number {
  const c = segments(client).filter((x, i) => !(i === 0 && x === '*'));
  const r = segments(route);
  let n = 0;
  for (let i = 1; i <= Math.min(c.length, r.length); i++) {
    const x = c[c.length - i];
    const y = r[r.length - i];
    if (x === '*' && y === '*') n += 0.5;
    else if (x.toLowerCase() === y.toLowerCase()) n += 1;
  }
  return n;
}

function segments(p: string): string[] {
  return p.split('/').filter(Boolean);
}

/** Literal agreement of two equally long segment lists, or null when a segment disagrees. */
function aligned(a: string[], b: string[]): { literal: number; specific: boolean } | null {
  let literal = 0;
  let specific = false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === '*' || y === '*') continue;
    if (x.includes('*') || y.includes('*')) {
      const [pattern, name] = x.includes('*') ? [x, y] : [y, x];
      if (!glob(pattern).test(name)) return null;
      continue;
    }
    if (x.toLowerCase() !== y.toLowerCase()) return null;
    literal++;
    if (!GENERIC.has(x.toLowerCase())) specific = true;
  }
  return { literal, specific };
}

const globs = new Map<string, RegExp>();
function glob(pattern: string): RegExp {
  let re = globs.get(pattern);
  if (!re) {
    if (globs.size > 10_000) globs.clear();
    re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`);
    globs.set(pattern, re);
  }
  return re;
}

/** Whether a stored site name answers a query name (the query may be a plain hook name or a pattern). */
export function nameAnswers(siteName: string, query: string): boolean {
  if (siteName === query) return true;
  if (siteName.includes('*') && !query.includes('*')) return glob(siteName).test(query);
  if (query.includes('*') && !siteName.includes('*')) return glob(query).test(siteName);
  return false;
}
