// cg as a system under evaluation: a fresh index of the checkout, then the task's description as a query.
import fs from 'node:fs';
import path from 'node:path';
import { buildIndex } from '../../dist/indexer/build.js';
import { openReader } from '../../dist/store/db.js';
import { rankFiles } from '../../dist/retrieve/rank.js';

export function cgSystem(opts = {}) {
  return async (dir, task) => {
    let indexMs;
    if (!opts.reuseIndex || !fs.existsSync(path.join(dir, '.codegraph', 'CURRENT'))) {
      fs.rmSync(path.join(dir, '.codegraph'), { recursive: true, force: true });
      const t = performance.now();
      await buildIndex(dir);
      indexMs = performance.now() - t;
    }
    const db = openReader(dir);
    try {
      const t = performance.now();
      const weights = process.env.CG_EVAL_WEIGHTS ? { ...JSON.parse(process.env.CG_EVAL_WEIGHTS) } : opts.weights;
      const ranked = rankFiles(db, task.description, weights);
      const queryMs = performance.now() - t;
      return { files: ranked.map((r) => r.path), indexMs, queryMs };
    } finally {
      db.close();
    }
  };
}
