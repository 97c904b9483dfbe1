import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { buildIndex } from '../src/indexer/build.js';
import { openReader } from '../src/store/db.js';
import { edgesFrom, edgesFromEach, edgesTo, edgesToEach } from '../src/store/queries.js';
import { symbolReferences } from '../src/graph/refs.js';
import { blastRadius, testsFor } from '../src/graph/blast.js';
import { runQuery } from '../src/retrieve/query.js';
import { makeRepo } from './helpers.js';

// How the graph's answers use the relations of spec 004 (overrides, registrations, data access) and
// warn about what they cannot be sure of (FR-003).
let root: string;
let db: Database.Database;
const same = (p: string) => p;
beforeAll(async () => {
  root = makeRepo({
    'app/users.py': [
      'class User:', '    def display_name(self):', '        return self.name', '', '',
      'class AdminUser(User):', '    def display_name(self):', '        return "admin " + self.name', '', '',
      'def greet(user: User):', '    return "hi " + user.display_name()', '',
    ].join('\n'),
    'app/guess.py': [
      'def caller(x):', '    return x.refresh()', '',
    ].join('\n'),
    'app/cache.py': 'class Cache:\n    def refresh(self):\n        return 1\n',
    'app/broken.py': 'def half(:\n    pass\n\ndef whole():\n    return caller(1)\n',
    // A model, the view that reads it behind a route, a migration that writes its table, a test of the view.
    'app/models.py': "class Account:\n    __tablename__ = 'accounts'\n\n    def close(self):\n        self.closed = True\n",
    'app/views.py': [
      'from app.models import Account', '', '',
      "@app.get('/accounts/<int:id>')", 'def show_account(acct: Account):', '    return acct.balance', '', '',
      'def purge():', '    db.execute("DELETE FROM accounts WHERE closed")', '',
    ].join('\n'),
    'tests/test_views.py': 'from app.views import show_account\n\n\ndef test_show():\n    assert show_account(None) is None\n',
    'plugin.php': [
      '<?php', "add_action('init', 'on_init');", "function on_init() { return 1; }",
      "function boot() { do_action('init'); }", '',
    ].join('\n'),
    // Overloads: each override goes to the supertype method of its own shape.
    'src/Shapes.java': [
      'interface Shape {', '  double area();', '  double area(double scale);', '}', '',
      'class Square implements Shape {', '  public double area() { return 1; }', '  public double area(double scale) { return scale; }', '}', '',
    ].join('\n'),
    'Sources/Coder.swift': [
      'protocol Coder {', '    func decode(_ data: String) -> Int', '    func decode(_ data: String, using base: Int) -> Int', '}', '',
      'struct HexCoder: Coder {', '    func decode(_ data: String) -> Int { return 0 }',
      '    func decode(_ data: String, radix: Int) -> Int { return radix }', '    func kind() -> Any.Type { return HexCoder.self }', '}', '',
    ].join('\n'),
    // Ties: several calls on one line, to one function and to two (edges of a node with equal lines).
    'app/ties.py': 'def b(x):\n    return x\n\n\ndef c(x):\n    return x\n\n\ndef a():\n    return b(1) + c(b(2)) + b(c(3))\n\n\ndef d():\n    return a() + a()\n',
    'tests/test_users.py': [
      'from app.users import User, greet', '', '',
      'def test_greet():', '    assert greet(User()) == "hi x"', '',
    ].join('\n'),
  });
  await buildIndex(root);
  db = openReader(root);
});
afterAll(() => db?.close());

describe('edge order', () => {
  it('a frontier read at once gives each node its edges as its own query does: by line, then kind, then as written', () => {
    const ids = (db.prepare('SELECT id FROM symbols ORDER BY id').pluck().all() as number[]);
    let ties = 0;
    for (const kinds of [['calls', 'registers'], ['calls', 'registers', 'fires'], ['extends', 'implements', 'overrides'], ['calls'], ['reads']]) {
      // In several orders and chunks, as frontiers come.
      for (const frontier of [ids, [...ids].reverse(), ids.filter((_, i) => i % 3 === 0)]) {
        const to = edgesToEach(db, frontier, kinds);
        const from = edgesFromEach(db, frontier, kinds);
        for (const id of frontier) {
          const one = edgesTo(db, id, kinds);
          expect(to.get(id) ?? [], `edges to ${id} (${kinds})`).toEqual(one);
          expect(from.get(id) ?? [], `edges from ${id} (${kinds})`).toEqual(edgesFrom(db, id, kinds));
          for (let i = 1; i < one.length; i++) {
            const [p, e] = [one[i - 1], one[i]];
            expect((p.line ?? -1) < (e.line ?? -1) || (p.line === e.line && p.kind <= e.kind)).toBe(true);
            if (p.line === e.line) ties++;
          }
        }
      }
    }
    const a = edgesFrom(db, (db.prepare("SELECT id FROM symbols WHERE qualified_name = 'a'").pluck().get() as number), ['calls']);
    expect(a.length).toBeGreaterThan(1);
    expect(new Set(a.map((e) => e.line)).size).toBe(1);
    expect(ties).toBeGreaterThan(0);
  });
});

describe('brief references', () => {
  it('list the same symbols, in the same order and with the same links, as whole records do', () => {
    const briefKeys = ['id', 'name', 'qualifiedName', 'kind', 'file', 'startLine', 'endLine'];
    const linkKeys = ['line', 'lines', 'confidence', 'depth', 'via', 'relation', 'target'];
    // A whole entry less the record's other fields (doc, signature, params...).
    const project = (e: object) => Object.fromEntries(Object.entries(e).filter(([k]) => briefKeys.includes(k) || linkKeys.includes(k)));
    let compared = 0;
    for (const ref of ['a', 'b', 'd', 'on_init', 'boot', 'Account', 'show_account', 'User.display_name', 'Shape', 'User']) {
      for (const opts of [{ callers: true, callees: true, depth: 2 }, { callers: true, callees: true, depth: 3, hierarchy: true }]) {
        const whole = symbolReferences(db, ref, opts);
        const brief = symbolReferences(db, ref, { ...opts, brief: true });
        for (const list of ['callers', 'callees', 'subtypes', 'supertypes', 'readers', 'writers', 'reads', 'writes'] as const) {
          expect(brief[list], `${ref} ${list}`).toEqual(whole[list]?.map(project));
          compared += brief[list]?.length ?? 0;
        }
        expect(brief.warnings).toEqual(whole.warnings);
      }
    }
    expect(compared).toBeGreaterThan(20);
  });
});

describe('overrides in answers', () => {
  it('refs --hierarchy of a method: what it overrides, and what overrides it', () => {
    const sub = symbolReferences(db, 'AdminUser.display_name', { callers: true, callees: false, depth: 1, hierarchy: true });
    expect(sub.supertypes!.map((e) => e.qualifiedName)).toEqual(['User.display_name']);
    const base = symbolReferences(db, 'User.display_name', { callers: true, callees: false, depth: 1, hierarchy: true });
    expect(base.subtypes!.map((e) => e.qualifiedName)).toEqual(['AdminUser.display_name']);
  });

  it('impact of an override reaches the callers of the method it overrides, and their tests', () => {
    const res = blastRadius(db, { symbols: ['AdminUser.display_name'] }, 3, same);
    expect(res.direct.callers.map((d) => `${d.symbol} ${d.relation}`)).toEqual(['greet calls-overridden']);
    expect(res.tests.map((t) => t.symbol)).toEqual(['test_greet', 'tests.test_users']);
    const tests = testsFor(db, { symbols: ['AdminUser.display_name'] }, 3, same);
    expect(tests.tests.map((t) => t.path.map((p) => p.symbol).join(' -> '))).toEqual(['test_greet -> greet -> AdminUser.display_name',
      'tests.test_users -> greet -> AdminUser.display_name']);
  });

  it('impact of an overridden method lists the overriding one', () => {
    const res = blastRadius(db, { symbols: ['User.display_name'] }, 1, same);
    expect(res.direct.subtypes.map((d) => `${d.symbol} ${d.relation}`)).toEqual(['AdminUser.display_name overrides']);
  });
});

describe('overrides of overloaded methods', () => {
  const overrides = (file: string) => (db.prepare(`SELECT s.qualified_name || ':' || s.start_line || ' -> ' || d.qualified_name || ':' || d.start_line
    FROM edges e JOIN symbols s ON s.id = e.src_id JOIN symbols d ON d.id = e.dst_id JOIN files f ON f.id = s.file_id
    WHERE e.kind = 'overrides' AND f.path = ? ORDER BY s.start_line`).pluck().all(file) as string[]);
  it('link each overload to the supertype method with as many parameters', () => {
    expect(overrides('src/Shapes.java')).toEqual(['Square.area:7 -> Shape.area:2', 'Square.area:8 -> Shape.area:3']);
  });
  it('in Swift, only to a method with the same argument labels (decode(_:radix:) overrides nothing)', () => {
    expect(overrides('Sources/Coder.swift')).toEqual(['HexCoder.decode:7 -> Coder.decode:2']);
  });
  it('a Swift metatype (HexCoder.self) is not a read of a field named self', () => {
    expect(db.prepare(`SELECT COUNT(*) FROM edges e JOIN symbols s ON s.id = e.src_id JOIN files f ON f.id = s.file_id
      WHERE e.kind = 'reads' AND f.path = 'Sources/Coder.swift'`).pluck().get()).toBe(0);
  });
});

describe('registrations in answers', () => {
  it('refs of a callback: the registration, and the code that fires its hook', () => {
    const res = symbolReferences(db, 'on_init', { callers: true, callees: false, depth: 1 });
    expect(res.callers!.map((e) => `${e.qualifiedName} ${e.relation} ${e.target ?? ''}`.trim())).toEqual(['plugin registers action:init', 'boot fires']);
    const boot = symbolReferences(db, 'boot', { callers: false, callees: true, depth: 1 });
    expect(boot.callees!.map((e) => `${e.qualifiedName} ${e.relation}`)).toEqual(['on_init fires']);
  });

  it('impact of a handler lists the endpoint that exposes it', () => {
    const res = blastRadius(db, { symbols: ['show_account'] }, 1, same);
    expect(res.direct.registrations.map((d) => `${d.symbol} ${d.kind}`)).toEqual(['GET /accounts/<int:id> endpoint']);
  });
});

describe('data access in answers', () => {
  it('refs of a model: who reads and writes it, with the fields and tables', () => {
    const res = symbolReferences(db, 'Account', { callers: true, callees: false, depth: 1 });
    expect(res.readers!.map((e) => `${e.qualifiedName} ${e.target}`)).toEqual(['show_account balance']);
    expect(res.writers!.map((e) => `${e.qualifiedName} ${e.target}`).sort()).toEqual(['Account.close closed', 'purge table:accounts']);
    const view = symbolReferences(db, 'show_account', { callers: false, callees: true, depth: 1 });
    expect(view.reads!.map((e) => e.qualifiedName)).toEqual(['Account']);
  });

  it('impact of a model reaches its readers and writers, the endpoint over a reader, and the reader\'s test', () => {
    const res = blastRadius(db, { symbols: ['Account'] }, 2, same);
    expect(res.direct.dataAccess.map((d) => `${d.symbol} ${d.relation}`).sort()).toEqual(['Account.close writes', 'purge writes', 'show_account reads']);
    expect(res.transitive.map((d) => `${d.symbol} ${d.relation}`)).toContain('GET /accounts/<int:id> registers');
    expect(res.tests.map((t) => t.symbol)).toContain('test_show');
  });
});

describe('warnings', () => {
  it('count the relations at or below the threshold, once per answer', () => {
    // x.refresh() on an unknown x: a repository-wide name match (0.5).
    const res = symbolReferences(db, 'Cache.refresh', { callers: true, callees: false, depth: 1 });
    expect(res.callers!.map((e) => e.confidence)).toEqual([0.5]);
    expect(res.warnings).toEqual([expect.stringMatching(/^1 of 1 relation\(s\) in this answer have a confidence of 70 % or less/)]);
    // A lower threshold: no warning.
    expect(symbolReferences(db, 'Cache.refresh', { callers: true, callees: false, depth: 1, lowConfidence: 0.4 }).warnings).toEqual([]);
    expect(blastRadius(db, { symbols: ['Cache.refresh'] }, 1, same).warnings).toEqual([expect.stringMatching(/^1 of 1 relation/)]);
  });

  it('name the partially parsed files an answer goes through', () => {
    const res = symbolReferences(db, 'caller', { callers: true, callees: false, depth: 1 });
    expect(res.callers!.map((e) => e.qualifiedName)).toEqual(['whole']); // not imported: a name match
    expect(res.warnings).toEqual([expect.stringMatching(/^1 of 1 relation/),
      expect.stringMatching(/^1 file\(s\) in this answer have syntax errors .*: app\/broken\.py$/)]);
    expect(symbolReferences(db, 'greet', { callers: true, callees: true, depth: 1 }).warnings).toEqual([]);
  });

  it('say when execution signals name files that are not there', async () => {
    const res = await runQuery(db, root, { text: 'greet a user', signals: [
      { path: 'app/gone.py', line: 3, exists: false, depth: 0, symbol: null, kind: 'frame' },
    ] });
    expect(res.stale_references).toEqual([{ path: 'app/gone.py', line: 3 }]);
    expect(res.warnings).toContainEqual(expect.stringMatching(/^1 execution-signal reference\(s\) name files or lines that are not in the repository now/));
  });
});
