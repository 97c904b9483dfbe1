import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { buildIndex } from '../src/indexer/build.js';
import { openReader } from '../src/store/db.js';
import { deadCode } from '../src/analysis/dead-code.js';
import { cycles } from '../src/analysis/cycles.js';
import { communities } from '../src/analysis/communities.js';
import { coChange } from '../src/analysis/cochange.js';
import { complexity } from '../src/analysis/complexity.js';
import { ownership, parseCodeowners } from '../src/analysis/owners.js';
import { LANGUAGES } from '../src/lang/registry.js';
import { analysisQuery, loadLanguage } from '../src/lang/loader.js';
import { createServer } from '../src/mcp/server.js';
import { git, makeRepo, runCg } from './helpers.js';

/**
 * The analyses on a repository made here, whose answers are known by construction: a file cycle
 * (a imports b imports a), mutual recursion, dead and live private code, a name only a template
 * mentions, two clusters of files, files that always change together, and a CODEOWNERS file.
 */
const FILES: Record<string, string> = {
  'pkg/__init__.py': '',
  'pkg/a.py': `from pkg import b


def public_entry():
    return b.helper() + _used()


def _used():
    return 1


def _dead():
    return 2


def _named_in_template():
    return 3


@register
def _decorated():
    return 4


class _Hidden:
    def m(self):
        return 5


def ping(n):
    return pong(n - 1) if n else 0


def pong(n):
    return ping(n)
`,
  'pkg/b.py': 'from pkg import a\n\n\ndef helper():\n    return a.ping(1)\n',
  'x/p.py': 'from x.q import q1\nfrom x.r import r1\n\n\ndef p1():\n    return q1() + r1()\n',
  'x/q.py': 'from x.r import r1\n\n\ndef q1():\n    return r1()\n',
  'x/r.py': 'def r1():\n    return 1\n\n\ndef r2():\n    return r1()\n',
  'templates/page.html': '<p>{{ _named_in_template }}</p>\n',
  'tests/test_a.py': 'from pkg.a import public_entry\n\n\ndef test_entry():\n    assert public_entry() == 1\n',
  '.github/CODEOWNERS': '# owners\n*        @org/all\npkg/     @alice\npkg/b.py @bob   # last match wins\nx/\ndocs/    not-an-owner\n',
};

let root: string;
let db: Database.Database;
beforeAll(async () => {
  root = makeRepo(FILES, { commit: true });
  // Three more commits that change pkg/b.py and x/p.py together (no edge links them).
  for (let i = 0; i < 3; i++) {
    fs.appendFileSync(path.join(root, 'pkg/b.py'), `# change ${i}\n`);
    fs.appendFileSync(path.join(root, 'x/p.py'), `# change ${i}\n`);
    git(root, 'commit', '-qam', `change ${i}`);
  }
  await buildIndex(root);
  db = openReader(root);
});
afterAll(() => db?.close());

describe('dead code', () => {
  it('reports unreferenced private code nobody names, folds members into their type, and leaves the rest', () => {
    const r = deadCode(db, root);
    expect(r.dead.map((d) => `${d.kind} ${d.symbol} ${d.confidence}`).sort()).toEqual(['class _Hidden high', 'function _dead high']);
    const all = deadCode(db, root, { includeMedium: true });
    const named = all.dead.find((d) => d.symbol === '_named_in_template')!;
    expect([named.confidence, named.mentions]).toEqual(['medium', 1]);
    // Called, decorated, exported or tested code is never reported.
    for (const live of ['_used', '_decorated', 'public_entry', 'ping', 'helper', 'test_entry', '_Hidden.m']) {
      expect(all.dead.map((d) => d.symbol)).not.toContain(live);
    }
  });

  it('with exported definitions included, reports exported code nothing calls', () => {
    const r = deadCode(db, root, { includeExported: true });
    expect(r.dead.map((d) => d.symbol)).toContain('r2');
    expect(r.dead.map((d) => d.symbol)).not.toContain('r1');
  });
});

describe('cycles', () => {
  it('finds the file import cycle and the mutual recursion, each with a loop', () => {
    const files = cycles(db, 'file');
    expect(files.cycles.map((c) => c.members)).toEqual([['pkg/a.py', 'pkg/b.py']]);
    expect(files.cycles[0].loop).toEqual(['pkg/a.py', 'pkg/b.py', 'pkg/a.py']);
    const symbols = cycles(db, 'symbol');
    expect(symbols.cycles.map((c) => c.members)).toEqual([['pkg/a.py:ping', 'pkg/a.py:pong']]);
    // Other edge kinds by name: nothing extends anything here.
    expect(cycles(db, 'file', ['extends']).cycles).toEqual([]);
  });
});

describe('communities', () => {
  it('puts the x/ cluster together, apart from pkg/, the same way every run', () => {
    const r = communities(db);
    const ofFile = (f: string) => r.communities.find((c) => c.files.includes(f))!;
    expect(ofFile('x/p.py').files).toEqual(['x/p.py', 'x/q.py', 'x/r.py']);
    expect(ofFile('x/p.py').label).toBe('x/');
    expect(ofFile('pkg/a.py').files).not.toContain('x/p.py');
    expect(r.modularity).toBeGreaterThan(0);
    expect(communities(db)).toEqual(r);
  });
});

describe('co-change', () => {
  it('finds files that change together, and marks a pair no edge links as hidden', () => {
    const r = coChange(db, root, { minSupport: 3 });
    expect(r.commits).toBe(4);
    const pair = r.pairs.find((p) => p.a === 'pkg/b.py' && p.b === 'x/p.py')!;
    expect(pair).toMatchObject({ support: 4, confidence: 1, hidden: true });
    expect(r.pairs.every((p) => p.support >= 3)).toBe(true);
    expect(coChange(db, root, { minSupport: 3, file: 'x/q.py' }).pairs.every((p) => p.a === 'x/q.py' || p.b === 'x/q.py')).toBe(true);
  });
});

describe('complexity', () => {
  it('measures cyclomatic and cognitive complexity as counted by hand (Python, TypeScript, Go)', async () => {
    const repo = makeRepo({
      'a.py': 'def simple(x):\n    return x\n\ndef branchy(a, b):\n    if a and b:\n        for i in range(3):\n            if i:\n                pass\n'
        + '    elif b:\n        pass\n    else:\n        pass\n    try:\n        pass\n    except ValueError:\n        pass\n    return 1 if a else 2\n',
      'b.ts': 'export function f(a: number, b: boolean) {\n  if (a > 1) {\n    return 1;\n  } else if (b) {\n    return 2;\n  } else {\n'
        + '    while (a--) {\n      if (a && b || a) {}\n    }\n  }\n  switch (a) { case 1: break; case 2: break; default: break; }\n  return a ? 1 : 0;\n}\n',
      'c.go': 'package c\n\nfunc g(a int) int {\n\tif a > 1 {\n\t\treturn 1\n\t} else if a > 2 {\n\t\treturn 2\n\t}\n'
        + '\tfor i := 0; i < a; i++ {\n\t\tif i > 1 && a > 2 {\n\t\t}\n\t}\n\treturn 0\n}\n',
    }, { commit: true });
    await buildIndex(repo);
    const rdb = openReader(repo);
    try {
      const r = await complexity(rdb, repo);
      const by = Object.fromEntries(r.functions.map((f) => [f.symbol, [f.cyclomatic, f.cognitive, f.maxNesting]]));
      // branchy: if, and, for, if, elif, except, ternary = 1 + 7; cognitive 1+1 + (1+1) + (1+2) + 1 + 1 (else) + 1 + 1.
      // f: if, else if, while, if, &&, ||, 2 cases, ternary = 1 + 9; cognitive 1 + 1 + 1 (else) + (1+1) + (1+2) + 2 + 1 (switch) + 1.
      // g: if, else if, for, if, && = 1 + 5; cognitive 1 + 1 + 1 + (1+1) + 1.
      expect(by).toEqual({ simple: [1, 0, 0], branchy: [8, 11, 3], f: [10, 12, 3], g: [6, 6, 2] });
      expect(r.functions[0].symbol).toBe('f');
      expect((await complexity(rdb, repo, { min: 7 })).functions.map((f) => f.symbol)).toEqual(['f', 'branchy']);
    } finally {
      rdb.close();
    }
  });

  it('every language has a complexity query that compiles against its grammar', async () => {
    const without: string[] = [];
    for (const l of LANGUAGES) if (!analysisQuery(await loadLanguage(l), 'complexity')) without.push(l.id);
    expect(without).toEqual([]);
  });
});

describe('ownership', () => {
  it('applies CODEOWNERS as GitHub does: last match wins, no owners unassigns, bad owners reported', () => {
    const r = ownership(db, root);
    const of = (p: string) => r.files.find((f) => f.path === p)!;
    expect(r.file).toBe('.github/CODEOWNERS');
    expect(of('pkg/b.py')).toEqual({ path: 'pkg/b.py', owners: ['@bob'], rule: 4 });
    expect(of('pkg/a.py').owners).toEqual(['@alice']);
    expect(of('tests/test_a.py').owners).toEqual(['@org/all']);
    expect(of('x/p.py').owners).toEqual([]);
    expect(r.unowned).toBe(3);
    expect(r.problems.map((p) => p.line)).toEqual([6]);
    expect(parseCodeowners('*.js @a foo@example.com\n').problems).toEqual([]);
  });
});

describe('the analysis toolset and the CLI', () => {
  it('serves each analysis as an MCP tool, fitted into the token budget', async () => {
    const h = createServer(root, { toolsets: ['analysis'] });
    try {
      expect(h.tools.map((t) => t.name)).toEqual(['dead_code', 'cycles', 'communities', 'co_change', 'complexity', 'ownership']);
      const dead = (await h.call('dead_code', {})).structuredContent as any;
      expect(dead.dead.map((d: any) => d.symbol).sort()).toEqual(['_Hidden', '_dead']);
      const cyc = (await h.call('cycles', { level: 'symbol' })).structuredContent as any;
      expect(cyc.cycles[0].members).toEqual(['pkg/a.py:ping', 'pkg/a.py:pong']);
      const small = (await h.call('complexity', { token_budget: 300 })).structuredContent as any;
      expect(small.truncated).toBe(true);
      expect(small.functions.length + small.omitted).toBe(small.total);
      expect((await h.call('cycles', { level: 'module' })).isError).toBe(true);
    } finally {
      h.live.close();
    }
    expect(createServer(root, { toolsets: ['all'] }).tools.map((t) => t.name)).toContain('co_change');
  });

  it('cg analyze prints JSON and refuses bad options with exit 2', () => {
    const r = runCg(['analyze', 'cycles', '--json'], root);
    expect(r.code).toBe(0);
    expect(r.json.cycles[0].members).toEqual(['pkg/a.py', 'pkg/b.py']);
    expect(r.json.freshness.generation).toBeGreaterThan(0);
    expect(runCg(['analyze', 'cycles', '--level', 'module'], root).code).toBe(2);
  });
});
