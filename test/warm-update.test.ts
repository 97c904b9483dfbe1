import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { buildIndex } from '../src/indexer/build.js';
import { updateIndex } from '../src/indexer/update.js';
import v8 from 'node:v8';
import { computeRanks, loadRankRows, RANK_TOLERANCE, rankRowsCache, rankRowsCodec, rankWithin, type RankRows } from '../src/indexer/ranks.js';
import { RankGraph } from '../src/graph/pagerank.js';
import { callGraph, fileGraph } from '../src/store/graph-data.js';
import { currentDbPath, readMeta } from '../src/store/db.js';
import { loadResolveInput, resolveInputFrom } from '../src/store/load.js';
import { resolveRowsCache, resolveRowsCodec } from '../src/indexer/resolve-rows.js';
import type { FileResolveRows } from '../src/store/load.js';
import { makeRepo, runCg } from './helpers.js';

// Promise: a long-running applier patches the previous generation's rows instead of reading them all,
// and gets what a cold read gets. Ranks refreshed by patching the previous generation's rank rows (a long-running applier
// re-reads only the files an update rewrote) are exactly the ranks computed from every row, which agree
// with PageRank over graphology's graph (RankGraph, which query-time personalized PageRank uses); an
// update stores each within RANK_TOLERANCE of them (a rank that moved less keeps its stored value).

function open(root: string) {
  return new Database(currentDbPath(root)!, { readonly: true });
}

function stored(db: Database.Database) {
  return {
    symbols: new Map(db.prepare('SELECT id, pagerank FROM symbols').raw().all() as [number, number][]),
    files: new Map(db.prepare('SELECT id, pagerank FROM files').raw().all() as [number, number][]),
  };
}

/**
 * The stored ranks are within RANK_TOLERANCE of a cold computation, which is within 1e-12 of RankGraph's;
 * the rank rows this process keeps for the live generation (when it has them) hold exactly the stored
 * ranks, so that the next update compares with what the tables hold. Returns how many stored ranks
 * are not bit-identical to the cold computation (left as stored by an update).
 */
function expectRanksCurrent(root: string): number {
  const db = open(root);
  try {
    const s = stored(db);
    const cold = computeRanks(loadRankRows(db));
    let kept = 0;
    const check = (what: string, r: number, computed: number) => {
      expect(rankWithin(computed, r, RANK_TOLERANCE), `${what}: stored ${r}, computed ${computed}`).toBe(true);
      if (r !== computed) kept++;
    };
    for (const [id, r] of s.symbols) check(`symbol ${id}`, r, cold.symbolRanks.get(id) ?? 0);
    for (const [id, r] of s.files) check(`file ${id}`, r, cold.fileRanks.get(id)!);
    const calls = callGraph(db);
    const files = fileGraph(db);
    const viaGraphology = { symbols: new RankGraph(calls.nodes, calls.edges).pagerank(), files: new RankGraph(files.nodes, files.edges).pagerank() };
    expect(viaGraphology.symbols.size).toBe(cold.symbolRanks.size);
    for (const [id, r] of viaGraphology.symbols) expect(Math.abs(r - cold.symbolRanks.get(id)!), `symbol ${id}`).toBeLessThan(1e-12);
    for (const [id, r] of viaGraphology.files) expect(Math.abs(r - cold.fileRanks.get(id)!), `file ${id}`).toBeLessThan(1e-12);
    const meta = readMeta(db);
    const rows = rankRowsCache.take(db.name, meta.build_id, Number(meta.generation));
    if (rows) {
      for (const [id, r] of s.symbols) expect(rows.symbolRanks.get(id) ?? 0, `kept rank of symbol ${id}`).toBe(r);
      for (const [id, r] of s.files) expect(rows.fileRanks.get(id) ?? 0, `kept rank of file ${id}`).toBe(r);
      rankRowsCache.put(db.name, meta.build_id, Number(meta.generation), rows);
    }
    return kept;
  } finally {
    db.close();
  }
}

/**
 * The resolve rows this process keeps for the live generation (an update re-reads only the files it
 * rewrote) make the same resolve input as reading every row; put back afterwards.
 */
function expectResolveRowsExact(root: string): void {
  const db = open(root);
  try {
    const meta = readMeta(db);
    const rows = resolveRowsCache.take(db.name, meta.build_id, Number(meta.generation));
    expect(rows, 'resolve rows kept for the live generation').not.toBeNull();
    const strip = ({ signatureOf: _, ...rest }: ReturnType<typeof loadResolveInput>) => rest;
    const only = new Set([...rows!.keys()].slice(0, 3));
    expect(strip(resolveInputFrom(db, rows!))).toEqual(strip(loadResolveInput(db)));
    expect(strip(resolveInputFrom(db, rows!, only))).toEqual(strip(loadResolveInput(db, only)));
    resolveRowsCache.put(db.name, meta.build_id, Number(meta.generation), rows!);
  } finally {
    db.close();
  }
}

const ts = (name: string, body: string) => `import { helper } from './util';\nexport function ${name}(x: number): number {\n  ${body}\n}\n`;

describe('warm updates', () => {
  it('patches the previous rows in a long-running applier and gives the ranks a cold read gives', async () => {
    // Files no step touches keep each update's re-resolved share small, as in a real repository (an
    // update that re-resolves most files replaces every edge and ranks from a cold read).
    const filler = Object.fromEntries(Array.from({ length: 12 }, (_, i) =>
      [`lib/f${i}.ts`, `export function filler${i}(y: number): number { return y + ${i}; }\nexport const use${i} = filler${i}(${i});\n`]));
    const root = makeRepo({
      ...filler,
      'src/util.ts': 'export function helper(x: number): number { return x + 1; }\nexport function twice(x: number): number { return helper(helper(x)); }\n',
      'src/a.ts': ts('alpha', 'return helper(x);'),
      'src/b.ts': ts('beta', 'return helper(x) * 2;'),
      'pkg/m.py': 'def load(x):\n    return x\n\ndef run(x):\n    return load(x)\n',
      'pkg/n.py': 'from pkg.m import load\n\ndef go(x):\n    return load(load(x))\n',
    }, { commit: true });
    await buildIndex(root);
    fs.writeFileSync(path.join(root, '.codegraph', 'config.json'), JSON.stringify({ hooks: { autoApply: false } }));
    await updateIndex(root);
    expectRanksCurrent(root);

    const steps: [string, () => void][] = [
      ['add a function', () => fs.appendFileSync(path.join(root, 'src/a.ts'), 'export function gamma(x: number): number { return alpha(helper(x)); }\n')],
      ['add a file', () => fs.writeFileSync(path.join(root, 'src/c.ts'), ts('delta', 'return helper(x) + 3;'))],
      ['edit a body', () => fs.writeFileSync(path.join(root, 'src/b.ts'), ts('beta', 'return helper(helper(x));'))],
      ['remove a called function', () => fs.writeFileSync(path.join(root, 'src/util.ts'), 'export function twice(x: number): number { return x * 2; }\n')],
      ['delete a file', () => fs.rmSync(path.join(root, 'pkg/n.py'))],
      ['python edit', () => fs.appendFileSync(path.join(root, 'pkg/m.py'), '\ndef save(x):\n    return run(load(x))\n')],
    ];
    for (const [what, step] of steps) {
      step();
      const res = await updateIndex(root);
      expect(res.rounds.map((r) => [r.mode, r.ranks]), what).toEqual([['incremental', 'patched']]);
      expectRanksCurrent(root);
      expectResolveRowsExact(root);
    }

    // Another process applies a change: this process's rows are of an older generation, but that process
    // left its rank rows beside the database (rank-rows-<generation>.v8), so the next update here patches them.
    fs.appendFileSync(path.join(root, 'src/c.ts'), 'export function epsilon(x: number): number { return delta(x); }\n');
    expect(runCg(['update', '-q'], root).code).toBe(0);
    expectRanksCurrent(root);
    const dir = path.dirname(currentDbPath(root)!);
    const rankFile = () => fs.readdirSync(dir).filter((n) => n.startsWith('rank-rows-'));
    expect(rankFile()).toEqual([`rank-rows-${readMeta(open(root)).generation}.v8`]);
    // The resolve rows too (resolve-rows-<generation>.v8, as columns: src/indexer/resolve-rows.ts).
    const resolveFile = () => fs.readdirSync(dir).filter((n) => n.startsWith('resolve-rows-'));
    expect(resolveFile()).toEqual([`resolve-rows-${readMeta(open(root)).generation}.v8`]);
    fs.appendFileSync(path.join(root, 'src/b.ts'), 'export function zeta(x: number): number { return beta(x); }\n');
    let res = await updateIndex(root);
    expect(res.rounds.map((r) => [r.mode, r.ranks, r.resolveRows])).toEqual([['incremental', 'patched', 'patched']]);
    // A long-running applier (this process: no oneShot) keeps its rows in memory and leaves no files,
    // the previous generation's included: they no longer match.
    expect([...rankFile(), ...resolveFile()]).toEqual([]);
    expectRanksCurrent(root);
    expectResolveRowsExact(root);
    // One `cg update` process after another: the second patches both from the files the first left.
    for (const [i, fn] of ['eta', 'theta'].entries()) {
      fs.appendFileSync(path.join(root, 'src/c.ts'), `export function ${fn}(x: number): number { return epsilon(x); }\n`);
      const other = runCg(['update', '--json'], root).json;
      if (i === 1) {
        expect(other.rounds.map((r: { mode: string; ranks: string; resolveRows: string }) => [r.mode, r.ranks, r.resolveRows]))
          .toEqual([['incremental', 'patched', 'patched']]);
      }
      expect(resolveFile()).toEqual([`resolve-rows-${readMeta(open(root)).generation}.v8`]);
    }
    expectRanksCurrent(root);
    expectResolveRowsExact(root);

    // A damaged file, or none, and the next update in a fresh process reads every row again.
    for (const damage of [(f: string) => fs.appendFileSync(f, 'x'), (f: string) => fs.rmSync(f)]) {
      fs.appendFileSync(path.join(root, 'src/b.ts'), `export const more${rankFile().length} = zeta(1);\n`);
      expect(runCg(['update', '-q'], root).code).toBe(0);
      damage(path.join(dir, rankFile()[0]));
      damage(path.join(dir, resolveFile()[0]));
      fs.appendFileSync(path.join(root, 'src/a.ts'), `export const again${Date.now() % 1000} = alpha(2);\n`);
      const fresh = runCg(['update', '--json'], root).json;
      expect(fresh.rounds.map((r: { mode: string; ranks: string; resolveRows: string }) => [r.mode, r.ranks, r.resolveRows]))
        .toEqual([['incremental', 'cold', 'cold']]);
      expectRanksCurrent(root);
      expectResolveRowsExact(root);
    }

  }, 240_000);

  it('leaves ranks that moved less than RANK_TOLERANCE as stored, in a fresh process and in a long-running one', async () => {
    // 1,200 functions: one more node moves every rank by about 1/1200 (the teleport share), below 0.1 %.
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, f) => [`pkg/m${f}.py`, Array.from({ length: 30 }, (_, i) =>
      `def f${f}_${i}(x):\n    return ${i ? `f${f}_${i - 1}(x) + ` : ''}${f ? `f${f - 1}_${i}(x)` : 'x'}\n`).join('\n')]));
    const root = makeRepo(files, { commit: true });
    await buildIndex(root);
    fs.writeFileSync(path.join(root, '.codegraph', 'config.json'), JSON.stringify({ hooks: { autoApply: false } }));
    await updateIndex(root);
    expect(expectRanksCurrent(root), 'a build writes every rank exactly').toBe(0);

    // A fresh process with no rank rows left beside the database (cold: every row read): most ranks stay
    // as stored, the new function's is written.
    const dir = path.dirname(currentDbPath(root)!);
    for (const n of fs.readdirSync(dir).filter((x) => x.startsWith('rank-rows-'))) fs.rmSync(path.join(dir, n));
    fs.appendFileSync(path.join(root, 'pkg/m7.py'), '\ndef lonely(x):\n    return x\n');
    expect(runCg(['update', '-q'], root).code).toBe(0);
    const keptCold = expectRanksCurrent(root);
    expect(keptCold, 'ranks left as stored by a cold refresh').toBeGreaterThan(1000);
    const db = open(root);
    try {
      const lonely = db.prepare("SELECT pagerank FROM symbols WHERE name = 'lonely'").pluck().get() as number;
      expect(lonely).toBe(computeRanks(loadRankRows(db)).symbolRanks.get(
        db.prepare("SELECT id FROM symbols WHERE name = 'lonely'").pluck().get() as number));
    } finally {
      db.close();
    }

    // This process: the first update patches the rows the other process left, the next ones its own; the
    // kept ranks drift no further than the tolerance from what a cold computation gives, however many updates run.
    for (let i = 0; i < 4; i++) {
      fs.appendFileSync(path.join(root, `pkg/m${i * 9}.py`), `\ndef extra${i}(x):\n    return f${i * 9}_0(x)\n`);
      const res = await updateIndex(root);
      expect(res.rounds.map((r) => r.ranks)).toEqual(['patched']);
      expectRanksCurrent(root);
    }
  }, 240_000);
});

describe('the row files beside the database', () => {
  // What the columns must give back exactly: nulls and absent aliases, empty strings, text beyond ASCII
  // and beyond the BMP, an empty file, flags, fractional weights and ranks.
  it('turn resolve rows and rank rows into columns and back, unchanged', () => {
    const rows = new Map<number, FileResolveRows>([
      [7, { file: { id: 7, path: 'pkg/ünï/😀.py', language: 'python', isTest: false, external: false },
        symbols: [
          { id: 70, fileId: 7, parentId: null, name: 'Klasse', qualifiedName: 'Klasse', kind: 'class', exported: true, isTest: false, startLine: 1, inError: false, scoped: false },
          { id: 71, fileId: 7, parentId: 70, name: '', qualifiedName: 'Klasse.', kind: 'method', exported: false, isTest: true, startLine: 3, inError: true, scoped: false },
          { id: 72, fileId: 7, parentId: 70, name: 'g', qualifiedName: 'Other.g', kind: 'method', exported: false, isTest: false, startLine: 5, inError: false, scoped: false },
          { id: 73, fileId: 7, parentId: 72, name: 'h', qualifiedName: 'Other.g.h', kind: 'function', exported: false, isTest: false, startLine: 6, inError: false, scoped: false },
          { id: 74, fileId: 7, parentId: 99, name: 'k', qualifiedName: 'X.k', kind: 'function', exported: false, isTest: false, startLine: 7, inError: false, scoped: true },
        ],
        imports: [
          { id: 700, fileId: 7, module: 'os.path', names: [{ name: 'join', alias: 'j' }, { name: 'split' }], alias: undefined, wildcard: false, reexport: false, line: 1, inError: false },
          { id: 701, fileId: 7, module: '', names: [], alias: '', wildcard: true, reexport: true, line: 2, inError: true },
        ],
        globalRefs: [
          { id: 7000, fileId: 7, symbolId: 70, kind: 'extends', name: 'Base', receiver: null, receiverType: null, line: 1, inError: false, detail: null },
          { id: 7001, fileId: 7, symbolId: 71, kind: 'table', name: 'users', receiver: 'self', receiverType: 'Klasse', line: 4, inError: true, detail: '{"what":"x"}' },
        ] }],
      [3, { file: { id: 3, path: 'd.ts', language: 'typescript', isTest: true, external: true }, symbols: [], imports: [], globalRefs: [] }],
    ]);
    const back = resolveRowsCodec.unpack(v8.deserialize(v8.serialize(resolveRowsCodec.pack(rows))) as never);
    expect(back).toStrictEqual(rows);
    expect([...back.keys()]).toEqual([7, 3]);

    const ranks: RankRows = {
      files: new Map([[7, { symbols: [70, 71], modules: new Set([72]), edges: [70, 71, 0.5, 1, 71, 70, 1, 0] }], [3, { symbols: [], modules: new Set(), edges: [] }]]),
      symbolRanks: new Map([[70, 0.123456789], [71, 1e-9]]),
      fileRanks: new Map([[7, 0.75], [3, 0.25]]),
    };
    const ranksBack = rankRowsCodec.unpack(v8.deserialize(v8.serialize(rankRowsCodec.pack(ranks))) as never);
    expect(ranksBack).toStrictEqual(ranks);
    // Ordinary ids and lengths go as 32-bit integers and 16-bit lengths (half the bytes of doubles).
    const packed = resolveRowsCodec.pack(rows);
    expect(packed.symbols).toBeInstanceOf(Int32Array);
    expect(packed.lengths).toBeInstanceOf(Uint16Array);
    expect(rankRowsCodec.pack(ranks).edgeTargets).toBeInstanceOf(Int32Array);
  });

  it('keep ids past 2^31, ids of another shape and strings of 64k characters or more exactly', () => {
    // A symbol's id is its file's id · 2^20 + a number: past 2^31 from file 2,048 on (Go's standard library).
    const file = 5000;
    const base = file * 2 ** 20;
    const long = 'x'.repeat(70_000);
    const rows = new Map<number, FileResolveRows>([
      [file, { file: { id: file, path: long, language: 'python', isTest: false, external: false },
        symbols: [
          { id: base + 1, fileId: file, parentId: null, name: 'C', qualifiedName: 'C', kind: 'class', exported: true, isTest: false, startLine: 1, inError: false, scoped: false },
          { id: base + 2, fileId: file, parentId: base + 1, name: 'm', qualifiedName: 'C.m', kind: 'method', exported: true, isTest: false, startLine: 2, inError: false, scoped: false },
        ],
        imports: [],
        globalRefs: [{ id: 9, fileId: file, symbolId: base + 1, kind: 'extends', name: 'B', receiver: null, receiverType: null, line: 1, inError: false, detail: null }] }],
    ]);
    let packed = resolveRowsCodec.pack(rows);
    expect(packed.symbols).toBeInstanceOf(Int32Array); // relative to the file: small
    expect(packed.lengths).toBeInstanceOf(Uint32Array);
    expect(resolveRowsCodec.unpack(v8.deserialize(v8.serialize(packed)) as never)).toStrictEqual(rows);
    // An id of another shape (no writer makes one) keeps its column as doubles, and comes back.
    rows.get(file)!.globalRefs[0].symbolId = 7;
    packed = resolveRowsCodec.pack(rows);
    expect(packed.refs).toBeInstanceOf(Float64Array);
    expect(resolveRowsCodec.unpack(v8.deserialize(v8.serialize(packed)) as never)).toStrictEqual(rows);

    const other = 6000 * 2 ** 20 + 3;
    const ranks: RankRows = {
      files: new Map([[file, { symbols: [base + 1, base + 2], modules: new Set([base + 1]), edges: [base + 2, other, 0.25, 1, base + 1, 12, 0.5, 0] }]]),
      symbolRanks: new Map([[base + 2, 0.5], [other, 0.125], [base + 1, NaN]]),
      fileRanks: new Map([[file, 1]]),
    };
    const rankPacked = rankRowsCodec.pack(ranks);
    expect(rankPacked.symbols).toBeInstanceOf(Int32Array);
    expect(rankPacked.edgeTargets).toBeInstanceOf(Float64Array);
    expect(rankRowsCodec.unpack(v8.deserialize(v8.serialize(rankPacked)) as never)).toStrictEqual(ranks);
  });
});
