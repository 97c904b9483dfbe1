// cg as a system under evaluation: a fresh index of the checkout (timed), then
//   - the ranked file list: the files of `cg query`'s answer (budget 200k, 30 places) in order, its further
//     files (more_files), then the rest of its ranked candidate files (rankCandidates), so MRR and
//     recall@10 see as deep a list as BM25's 50;
//   - symbols for function-level hits: the symbols of those answer entries;
//   - bundles: `cg context` at the default budget and at 8,000 tokens.
import fs from 'node:fs';
import path from 'node:path';
import { buildIndex } from '../../dist/indexer/build.js';
import { openReader } from '../../dist/store/db.js';
import { rankCandidates, runQuery } from '../../dist/retrieve/query.js';
import { buildContext } from '../../dist/retrieve/context.js';
import { usableReader } from './indexed.mjs';

// Checkouts indexed during this run: several cg systems (presets) share one index per checkout.
const indexedNow = new Set();

/** A usable index of this cg's schema, or null. */

export function cgSystem(opts = {}) {
  const q = { preset: opts.preset, vectorWeight: opts.vectorWeight };
  return async (dir, task) => {
    let indexMs;
    let db = indexedNow.has(dir) || opts.reuseIndex ? usableReader(dir) : null;
    if (!db) {
      db?.close();
      fs.rmSync(path.join(dir, '.codegraph'), { recursive: true, force: true });
      const t = performance.now();
      await buildIndex(dir);
      indexMs = performance.now() - t;
      indexedNow.add(dir);
      db = openReader(dir);
    }
    try {
      // The first query of a process loads the embedding model; the evaluation times warm queries.
      await runQuery(db, dir, { ...q, text: 'warm up' });
      const t = performance.now();
      const answer = await runQuery(db, dir, { ...q, text: task.description, budget: 200_000, maxRegions: 30 });
      const queryMs = performance.now() - t;
      const files = [...answer.files.map((e) => e.path), ...answer.more_files,
        ...(await rankCandidates(db, dir, { ...q, text: task.description })).ranked.map((r) => r.path)];
      const symbolsByFile = new Map();
      for (const e of answer.files) if (e.symbol) symbolsByFile.set(e.path, [...(symbolsByFile.get(e.path) ?? []), e.symbol]);
      const bundleOf = async (budget) => {
        const b = await buildContext(db, dir, { ...q, text: task.description, budget });
        return { files: b.files.map((f) => f.path), tokens: b.tokens_used };
      };
      return { files, symbolsByFile, indexMs, queryMs, bundle: await bundleOf(opts.budget ?? 3500), bundle8k: await bundleOf(8000) };
    } finally {
      db.close();
    }
  };
}
