/**
 * Function names as runtimes print them, turned into the qualified names cg gives symbols
 * (`Type.method`, `function`), so a caller can look them up: Go's `pkg.(*Cart).Total`, Rust's
 * `shop::cart::Cart::total::h5c1e...`, PHP's `App\Cart->total()`, Java's `Cart$Line.<init>`.
 * Where a runtime prints no usable name (module level, anonymous functions) the symbol is null.
 */

import { openingParen } from './text.js';

/** Python: `<module>`, `<lambda>`, `<listcomp>` and friends name no symbol. */
export function pythonSymbol(name: string | undefined): string | null {
  const s = name?.trim();
  return s && !s.startsWith('<') ? s : null;
}

/** pytest node ids: `TestCart::test_total[qty-2]` -> `TestCart.test_total`. */
export function pytestSymbol(nodeId: string | undefined): string | null {
  if (!nodeId) return null;
  const parts = nodeId.split('::').map((p) => p.replace(/\[.*$/, '')).filter(Boolean);
  return parts.length ? parts.join('.') : null;
}

/** V8: `Cart.total`, `async Cart.load`, `new Cart`, `Object.<anonymous>`, `fn [as alias]`. */
export function v8Symbol(name: string | null): string | null {
  if (!name) return null;
  let s = name.replace(/ \[as [^\]]*\]$/, '').replace(/^(?:async |new )+/, '').trim();
  // CommonJS module-level functions are called on the exports object and print as `Object.fn`.
  if (s.startsWith('Object.')) s = s.slice('Object.'.length);
  if (!s || /[<>\s()]/.test(s)) return null;
  return s;
}

/** Go: `github.com/acme/shop/cart.(*Cart).Total(0xc000010000)` -> `Cart.Total`; closures -> their function. */
export function goSymbol(call: string | null): string | null {
  if (!call) return null;
  let s = call.trim();
  if (s.endsWith(')')) {
    // Go prints the call's arguments last: `Total(0xc000010000, {0x5f1e60, 0x3})`, `Total(...)`.
    const open = openingParen(s);
    if (open > 0) s = s.slice(0, open);
  }
  s = s.slice(s.lastIndexOf('/') + 1);
  const dot = s.indexOf('.');
  if (dot >= 0) s = s.slice(dot + 1);
  s = s.replace(/\[[^\]]*\]/g, '').replace(/\(\*?([\w]+)\)/g, '$1');
  while (/\.(?:func\d+|gowrap\d+|\d+)$/.test(s)) s = s.replace(/\.(?:func\d+|gowrap\d+|\d+)$/, '');
  return /^[\w.]+$/.test(s) ? s : null;
}

/** Java: class `com.acme.Cart$Line`, method `<init>` -> `Cart.Line.Line`; `lambda$total$0` -> its method. */
export function javaSymbol(className: string, method: string): string | null {
  const parts = className.slice(className.lastIndexOf('.') + 1).split('$').filter((p) => p && !/^\d+$/.test(p));
  if (parts.length === 0) return null;
  const type = parts.join('.');
  if (method === '<clinit>') return type;
  if (method === '<init>') return `${type}.${parts[parts.length - 1]}`;
  const lambda = /^lambda\$(.+)\$\d+$/.exec(method);
  const name = lambda ? lambda[1] : method;
  return /^[\w$]+$/.test(name) ? `${type}.${name}` : type;
}

/** PHP: `App\Cart->total()`, `App\Cart::make(Array)`, `App\helper('x')`; closures and `{main}` name nothing. */
export function phpSymbol(call: string | undefined): string | null {
  if (!call) return null;
  const paren = call.indexOf('(');
  const s = (paren >= 0 ? call.slice(0, paren) : call).trim();
  if (!s || s.includes('{')) return null;
  const parts = s.split(/->|::/);
  const method = lastNamespaceSegment(parts[parts.length - 1]);
  if (/^(?:include|require)(?:_once)?$/.test(method)) return null;
  return parts.length > 1 ? `${lastNamespaceSegment(parts[0])}.${method}` : method || null;
}

function lastNamespaceSegment(name: string): string {
  return name.slice(name.lastIndexOf('\\') + 1);
}

/**
 * Rust: `shop::cart::Cart::total::h5c1e2f3a4b5c6d7e` -> `Cart.total`; `<shop::Cart as Display>::fmt` ->
 * `Cart.fmt`; `shop::cart::tests::sums` -> `tests.sums` (cg qualifies by types and inline modules,
 * not by file modules, which a printed path cannot tell apart, except the ubiquitous `mod tests`).
 */
export function rustSymbol(name: string | null): string | null {
  if (!name) return null;
  let s = name.trim().replace(/::h[0-9a-f]{16}$/, '');
  if (s.startsWith('<')) {
    const close = closingAngle(s);
    if (close > 0) s = s.slice(1, close).split(' as ')[0] + s.slice(close + 1);
  }
  s = withoutAngles(s);
  const segs = s.split('::').filter((seg) => seg && !seg.startsWith('{{'));
  const last = segs[segs.length - 1];
  const prev = segs[segs.length - 2];
  if (!last || !/^\w+$/.test(last)) return null;
  return prev && (/^[A-Z]/.test(prev) || prev === 'tests') ? `${prev}.${last}` : last;
}

/** Swift: `closure #1 in Cart.total() + 93 in shop` -> `Cart.total`. */
export function swiftSymbol(name: string | null): string | null {
  if (!name) return null;
  let s = name.trim().replace(/ \+ \d+(?: in \S+)?$/, '');
  const inner = s.lastIndexOf(' in ');
  if (inner >= 0) s = s.slice(inner + 4);
  const paren = s.indexOf('(');
  if (paren >= 0) s = s.slice(0, paren);
  s = s.replace(/^(?:static|@objc)\s+/, '').trim();
  return /^[\w.]+$/.test(s) && !/^\d/.test(s) ? s : null;
}

/** XCTest: `-[ShopTests.CartTests testTotal]` (Darwin) or `CartTests.testTotal` (Linux) -> `CartTests.testTotal`. */
export function xctestSymbol(text: string): string | null {
  const darwin = /^-\[(?:\w+\.)?(\w+) (\w+)\]/.exec(text);
  if (darwin) return `${darwin[1]}.${darwin[2]}`;
  const linux = /^(?:\w+\.)?(\w+)\.(\w+) : /.exec(text);
  return linux ? `${linux[1]}.${linux[2]}` : null;
}

function closingAngle(s: string): number {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '<') depth++;
    else if (s[i] === '>' && s[i - 1] !== '-' && --depth === 0) return i;
  }
  return -1;
}

function withoutAngles(s: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '<') depth++;
    else if (c === '>' && s[i - 1] !== '-' && depth > 0) depth--;
    else if (depth === 0) out += c;
  }
  return out;
}
