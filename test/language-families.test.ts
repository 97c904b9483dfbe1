import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { buildIndex } from '../src/indexer/build.js';
import { openReader } from '../src/store/db.js';
import { makeRepo } from './helpers.js';

/** A real index of a repository made of `files`, built before the block's tests and closed after them. */
function indexedRepo(files: Record<string, string>): () => Database.Database {
  let db: Database.Database | undefined;
  beforeAll(async () => {
    const root = makeRepo(files);
    await buildIndex(root);
    db = openReader(root);
  });
  afterAll(() => db?.close());
  return () => db!;
}

// A name matched across the whole repository (a bare call nothing nearer defines, a method on a receiver
// of unknown type) stays inside the caller's language family: Django's admin JavaScript calls
// `gettext()`, which its Python also defines, and those are two different functions.
const families = indexedRepo({
  'app/i18n.py': 'def gettext(s):\n    return s\n\n\nclass Cache:\n    def refresh(self):\n        return 1\n',
  'app/use.py': 'def show(widget):\n    widget.redraw()\n    return shout("x")\n',
  'static/admin.js': 'function init(box) {\n  box.refresh();\n  return gettext("Show");\n}\n',
  // Same family: a page script calls a TypeScript helper and method by name, without an import.
  'web/util.ts': 'export function shout(s: string) { return s.toUpperCase(); }\nexport class Panel {\n  redraw() { return 1; }\n}\n',
  'web/page.js': 'function main(p) {\n  p.redraw();\n  return shout("x");\n}\n',
  // The JVM family: Kotlin calls a method that only a Java class defines, on a receiver of unknown type.
  'src/main/java/app/Store.java': 'package app;\n\npublic class Store {\n  public int flushAll() { return 1; }\n}\n',
  'src/main/kotlin/app/Job.kt': 'package app\n\nfun runJob(s: Any) {\n  val t = make(s)\n  t.flushAll()\n}\n',
});

/** The call edges as `caller file:caller -> callee file:callee`. */
function calls(): string[] {
  return (families().prepare(`SELECT fs.path || ':' || s.qualified_name || ' -> ' || fd.path || ':' || d.qualified_name
    FROM edges e JOIN symbols s ON s.id = e.src_id JOIN symbols d ON d.id = e.dst_id
    JOIN files fs ON fs.id = s.file_id JOIN files fd ON fd.id = d.file_id WHERE e.kind = 'calls'`).pluck().all() as string[]).sort();
}

describe('repository-wide name matches within a language family', () => {
  it('does not link JavaScript calls to Python functions or methods of the same name, nor Python calls to TypeScript methods', () => {
    const all = calls();
    expect(all.filter((c) => c.startsWith('static/admin.js'))).toEqual([]);
    expect(all.filter((c) => c.startsWith('app/use.py'))).toEqual([]);
  });

  it('still links JavaScript to TypeScript, and Kotlin to Java, by name', () => {
    const all = calls();
    expect(all).toContain('web/page.js:main -> web/util.ts:shout');
    expect(all).toContain('web/page.js:main -> web/util.ts:Panel.redraw');
    expect(all).toContain('src/main/kotlin/app/Job.kt:runJob -> src/main/java/app/Store.java:Store.flushAll');
  });
});

// A bare call of a name that a function or block around it binds (a parameter, a local variable, a helper
// declared in a test's callback) goes to that binding, not to a same-named definition elsewhere.
describe('calls of names bound in a scope around the call', () => {
  const scopes = indexedRepo({
    'src/app.test.ts': [
      "import { it } from 'vitest'",
      "it('one', () => {",
      '  const Counter = () => 1',          // line 3
      '  return Counter()',
      '})',
      "it('two', () => {",
      '  const Counter = () => 2',          // line 7
      '  const [count, setCount] = useState(0)',
      '  setCount(count + 1)',
      '  return Counter()',
      '})',
      "it('three', () => {",
      '  let setCount: (n: number) => void = () => {}', // line 13
      '  setCount(3)',
      '})',
      '',
    ].join('\n'),
    'src/url.ts': 'export function getPath() {\n  return "/"\n}\n',
    'src/path.test.ts': "import { getPath } from './url'\nit('a', () => {\n  const getPath = () => 'x'\n  return getPath()\n})\nit('b', () => {\n  return getPath()\n})\n",
    'src/run.ts': 'export function next() { return 1 }\nexport function run(next: () => number) {\n  return next()\n}\nexport function go() {\n  return next()\n}\n',
    'pkg/retry.py': 'def attempt():\n    return 1\n\n\ndef retry(attempt):\n    return attempt()\n\n\ndef again():\n    return attempt()\n',
    'src/lib.rs': 'pub fn tick() -> u32 { 1 }\n\npub fn apply<F: Fn() -> u32>(tick: F) -> u32 {\n    tick()\n}\n\npub fn run() -> u32 {\n    let tock = || 2;\n    tock() + tick()\n}\n\npub fn tock() -> u32 { 3 }\n',
    'Sources/App/Load.swift': 'func done() {}\n\nfunc load(completion: () -> Void) {\n    completion()\n}\n\nfunc finish(done: () -> Void) {\n    done()\n}\n\nfunc completion() {}\n\nfunc start() {\n    done()\n}\n',
    'lib/run.c': 'int step(void) { return 1; }\n\nint each(int (*step)(void)) {\n  return step();\n}\n\nint main(void) {\n  return step();\n}\n',
    'go.mod': 'module example.com/m\n\ngo 1.21\n',
    // Each name of `c, e := NewPair()` holds its own result.
    'mw/pair.go': 'package mw\n\ntype Ctx struct{}\n\nfunc (c *Ctx) Set() {}\n\ntype Eng struct{}\n\nfunc (e *Eng) Set() {}\n\nfunc NewPair() (*Ctx, *Eng) { return nil, nil }\n\nfunc Use() {\n\tc, e := NewPair()\n\tc.Set()\n\te.Set()\n}\n\nfunc (e *Eng) Current() *Ctx { return nil }\n\nfunc NewEng() *Eng { return nil }\n\nfunc Use2() {\n\teng := NewEng()\n\tc := eng.Current()\n\tc.Set()\n}\n',
    // A chain from a library value (`w.Body` of an httptest recorder) is the library's, not Buf.String.
    'mw/check.go': 'package mw\n\nimport "net/http/httptest"\n\ntype Buf struct{}\n\nfunc (b *Buf) String() string { return "" }\n\nfunc Check() string {\n\tw := httptest.NewRecorder()\n\treturn w.Body.String()\n}\n',
    'mw/mw.go': [
      'package mw', '', 'func next() int { return 1 }', '',
      'func Wrap(next func() int) int {', '\treturn next()', '}', '',
      'func Run() int {', '\tstep := func() int { return 2 }', '\treturn step() + next()', '}', '',
      'func step() int { return 3 }', '',
    ].join('\n'),
  });

  const edges = () => (scopes().prepare(`SELECT fs.path || ':' || s.qualified_name || ' -> ' || d.qualified_name || ':' || d.start_line
    FROM edges e JOIN symbols s ON s.id = e.src_id JOIN symbols d ON d.id = e.dst_id JOIN files fs ON fs.id = s.file_id
    WHERE e.kind = 'calls' AND fs.path <> ''`).pluck().all() as string[]).sort();

  it('links a helper declared in a callback to the calls in that callback only', () => {
    const own = edges().filter((e) => e.startsWith('src/app.test.ts'));
    expect(own.filter((e) => e.includes('-> Counter:'))).toEqual([
      'src/app.test.ts:src/app.test -> Counter:3',
      'src/app.test.ts:src/app.test -> Counter:7',
    ]);
    // setCount of `const [count, setCount] = useState(0)` is a value; only the third callback's is a definition.
    expect(own.filter((e) => e.includes('-> setCount:'))).toEqual(['src/app.test.ts:src/app.test -> setCount:13']);
  });

  it('does not let a helper declared in one callback capture the calls of another, which reach the import', () => {
    const rows = scopes().prepare(`SELECT d.qualified_name || ' ' || fd.path || ':' || d.start_line || ' scoped=' || d.scoped FROM edges e
      JOIN symbols d ON d.id = e.dst_id JOIN files fd ON fd.id = d.file_id JOIN files f ON f.id = e.file_id
      WHERE e.kind = 'calls' AND f.path = 'src/path.test.ts' ORDER BY e.line`).pluck().all();
    expect(rows).toEqual(['getPath src/path.test.ts:3 scoped=1', 'getPath src/url.ts:1 scoped=0']);
  });

  it('does not link a call of a parameter to a function named like it, and still links the function elsewhere', () => {
    const all = edges();
    expect(all.filter((e) => e.startsWith('src/run.ts:run'))).toEqual([]);
    expect(all).toContain('src/run.ts:go -> next:1');
    expect(all.filter((e) => e.startsWith('pkg/retry.py:retry'))).toEqual([]);
    expect(all).toContain('pkg/retry.py:again -> attempt:1');
    expect(all.filter((e) => e.startsWith('mw/mw.go:'))).toEqual(['mw/mw.go:Run -> next:3']);
    expect(all.filter((e) => e.startsWith('mw/check.go:'))).toEqual([]);
    expect(all.filter((e) => e.startsWith('mw/pair.go:'))).toEqual([
      'mw/pair.go:Use -> Ctx.Set:5', 'mw/pair.go:Use -> Eng.Set:9', 'mw/pair.go:Use -> NewPair:11',
      // `c := eng.Ctx()` with `eng := NewEng()`: what the method of the variable's type returns.
      'mw/pair.go:Use2 -> Ctx.Set:5', 'mw/pair.go:Use2 -> Eng.Current:19', 'mw/pair.go:Use2 -> NewEng:21',
    ]);
    expect(all.filter((e) => e.startsWith('src/lib.rs:'))).toEqual(['src/lib.rs:run -> tick:1']);
    expect(all.filter((e) => e.startsWith('Sources/App/Load.swift:'))).toEqual(['Sources/App/Load.swift:start -> done:1']);
    expect(all.filter((e) => e.startsWith('lib/run.c:'))).toEqual(['lib/run.c:main -> step:1']);
    const values = scopes().prepare("SELECT COUNT(*) FROM refs WHERE kind = 'call' AND resolution = 'value'").pluck().get() as number;
    // setCount(count + 1), next() in run, attempt() in retry, next() in Wrap, step() in Run, tick() in apply,
    // tock() in run, completion() in load, done() in finish, step() in each
    expect(values).toBe(10);
  });
});

// Python's absolute imports resolve as Python would with each package's root on the path: `import flask` in
// flask's tests is src/flask, not a fixture module named flask.py deep in the tests; `import logging` is
// the standard library's, not src/flask/logging.py.
describe('Python absolute imports by package root', () => {
  const shop = indexedRepo({
    'src/shop/__init__.py': 'from .cart import total as total\n',
    'src/shop/cart.py': 'def total():\n    return 0\n',
    'src/shop/logging.py': 'def setup():\n    return 1\n',
    'tests/apps/fixture/__init__.py': '',
    'tests/apps/fixture/inner/__init__.py': '',
    'tests/apps/fixture/inner/shop.py': 'def total():\n    return 1\n',
    'tests/test_cart.py': 'import logging\nimport shop\nfrom fixture.inner import shop as fake\n\n\ndef test_total():\n    logging.getLogger()\n    return shop.total() + fake.total()\n',
  });

  it('takes the package under src/ and the standard library over files that merely end so', () => {
    const imports = shop().prepare(`SELECT i.module || ' ' || i.resolution FROM imports i JOIN files f ON f.id = i.file_id
      WHERE f.path = 'tests/test_cart.py' ORDER BY i.line`).pluck().all();
    expect(imports).toEqual(['logging external', 'shop internal', 'fixture.inner internal']);
    const calls = shop().prepare(`SELECT fd.path || ':' || d.qualified_name FROM edges e JOIN symbols d ON d.id = e.dst_id
      JOIN files fd ON fd.id = d.file_id JOIN files f ON f.id = e.file_id WHERE e.kind = 'calls' AND f.path = 'tests/test_cart.py'
      ORDER BY fd.path`).pluck().all();
    expect(calls).toEqual(['src/shop/cart.py:total', 'tests/apps/fixture/inner/shop.py:total']);
  });
});

// A method called on a plain variable of unknown type (a callback's parameter) is matched by name across
// the repository; among the types that declare it, those declaring the most of the other members the same
// function calls on that variable are kept (duck typing): hono's `(c) => c.text()` beside `c.header()` is
// Context's text, not a response's or a request's. (Property reads count where the extraction records them.)
describe('calls on a variable of unknown type, narrowed by what else it is used with', () => {
  const duck = indexedRepo({
    'src/context.ts': 'export class Context {\n  req = 1\n  header(n: string) { return n }\n  text(s: string) { return s }\n  json(o: object) { return o }\n}\n',
    'src/request.ts': 'export class Req {\n  text() { return "" }\n  json() { return {} }\n}\n',
    'src/response.ts': 'export class Resp {\n  clone() { return this }\n  text() { return "" }\n}\n',
    'src/app.ts': [
      'export function handler(c) {',
      '  c.header("x")',
      '  console.log(c.req)',
      '  return c.text("hi")',
      '}',
      'export function check(res) {',
      '  const copy = res.clone()',
      '  return res.text() + copy',
      '}',
      'export function alone(x) {',
      '  return x.text()',
      '}',
      'export function nobody(y) {',
      '  y.flush()',
      '  return y.text()',
      '}',
      '',
    ].join('\n'),
  });
  const textCalls = (caller: string) => (duck().prepare(`SELECT d.qualified_name FROM edges e JOIN symbols s ON s.id = e.src_id
    JOIN symbols d ON d.id = e.dst_id WHERE e.kind = 'calls' AND s.qualified_name = ? AND d.name = 'text'`).pluck().all(caller) as string[]).sort();

  it('keeps the types that declare the other members used on the variable', () => {
    expect(textCalls('handler')).toEqual(['Context.text']);
    expect(textCalls('check')).toEqual(['Resp.text']);
  });

  it('keeps every candidate when the variable is used with nothing else, or with nothing a candidate declares', () => {
    expect(textCalls('alone')).toEqual(['Context.text', 'Req.text', 'Resp.text']);
    expect(textCalls('nobody')).toEqual(['Context.text', 'Req.text', 'Resp.text']);
  });
});
