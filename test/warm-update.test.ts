import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { buildIndex } from '../src/indexer/build.js';
import { updateIndex } from '../src/indexer/update.js';
import { computeRanks, loadRankRows } from '../src/indexer/ranks.js';
import { RankGraph } from '../src/graph/pagerank.js';
import { callGraph, fileGraph } from '../src/store/graph-data.js';
import { currentDbPath, readMeta } from '../src/store/db.js';
import { loadResolveInput, resolveInputFrom } from '../src/store/load.js';
import { resolveRowsCache } from '../src/indexer/resolve-rows.js';
import { makeRepo, runCg } from './helpers.js';

// Promise: a long-running applier patches the previous generation's rows instead of reading them all,
// and gets what a cold read gets. Ranks refreshed by patching the previous generation's rank rows (a long-running applier
// re-reads only the files an update rewrote) are exactly the ranks computed from every row, and both
// agree with PageRank over graphology's graph (RankGraph, which query-time personalized PageRank uses).

function open(root: string) {
  return new Database(currentDbPath(root)!, { readonly: true });
}

function stored(db: Database.Database) {
  return {
    symbols: new Map(db.prepare('SELECT id, pagerank FROM symbols').raw().all() as [number, number][]),
    files: new Map(db.prepare('SELECT id, pagerank FROM files').raw().all() as [number, number][]),
  };
}

/** The stored ranks are bit-identical to a cold computation and within 1e-12 of RankGraph's. */
function expectRanksExact(root: string): void {
  const db = open(root);
  try {
    const s = stored(db);
    const cold = computeRanks(loadRankRows(db));
    for (const [id, r] of s.symbols) expect(r, `symbol ${id}`).toBe(cold.symbolRanks.get(id) ?? 0);
    for (const [id, r] of s.files) expect(r, `file ${id}`).toBe(cold.fileRanks.get(id));
    const calls = callGraph(db);
    const files = fileGraph(db);
    const viaGraphology = { symbols: new RankGraph(calls.nodes, calls.edges).pagerank(), files: new RankGraph(files.nodes, files.edges).pagerank() };
    expect(viaGraphology.symbols.size).toBe(cold.symbolRanks.size);
    for (const [id, r] of viaGraphology.symbols) expect(Math.abs(r - s.symbols.get(id)!), `symbol ${id}`).toBeLessThan(1e-12);
    for (const [id, r] of viaGraphology.files) expect(Math.abs(r - s.files.get(id)!), `file ${id}`).toBeLessThan(1e-12);
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
    expectRanksExact(root);

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
      expectRanksExact(root);
      expectResolveRowsExact(root);
    }

    // Another process applies a change: this process's rows are of an older generation, so the next
    // update here reads every row again.
    fs.appendFileSync(path.join(root, 'src/c.ts'), 'export function epsilon(x: number): number { return delta(x); }\n');
    expect(runCg(['update', '-q'], root).code).toBe(0);
    expectRanksExact(root);
    fs.appendFileSync(path.join(root, 'src/b.ts'), 'export function zeta(x: number): number { return beta(x); }\n');
    const res = await updateIndex(root);
    expect(res.rounds.map((r) => [r.mode, r.ranks])).toEqual([['incremental', 'cold']]);
    expectRanksExact(root);
    expectResolveRowsExact(root);
  }, 240_000);
});
