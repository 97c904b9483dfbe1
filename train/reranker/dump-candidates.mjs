#!/usr/bin/env node
// The re-ranker experiment's evaluation input (issue 23): for every task of a task file, cg's ranked
// files as the evaluation sees them (eval/lib/cg-system.mjs: the answer's files, its more_files, then the
// rest of the candidates), the first --top of them each with the text a re-ranker reads at query time:
// its path and the signatures of its best-matching functions (rankCandidates' units, else its first
// definitions), and the task's gold files. Reads the evaluation's indexed checkouts (eval/run.mjs's
// cache); writes JSONL outside the project (it quotes the tasks' commit messages).
//
// Usage: node train/reranker/dump-candidates.mjs --tasks FILE --out $TMPDIR/rr/dev-candidates.jsonl [--cache DIR] [--top 20]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkoutDir } from '../../eval/lib/checkout.mjs';
import { usableReader } from '../../eval/lib/indexed.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { rankCandidates, runQuery } = await import(path.join(here, '..', '..', 'dist', 'retrieve', 'query.js'));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const tasks = fs.readFileSync(opt('--tasks'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const cache = opt('--cache', path.join(os.tmpdir(), 'cg-eval'));
const top = Number(opt('--top', '20'));
const out = fs.openSync(opt('--out'), 'w');
const UNITS = 3;

for (const [n, task] of tasks.entries()) {
  const dir = checkoutDir(task, cache);
  const db = usableReader(dir);
  if (!db) {
    console.error(`${task.task_id}: no usable index in ${dir} (run eval/run.mjs first)`);
    continue;
  }
  try {
    const answer = await runQuery(db, dir, { text: task.description, budget: 200_000, maxRegions: 30 });
    const cands = await rankCandidates(db, dir, { text: task.description });
    const byPath = new Map(cands.ranked.map((r) => [r.path, r]));
    const order = [...new Set([...answer.files.map((e) => e.path), ...answer.more_files, ...cands.ranked.map((r) => r.path)])].slice(0, top);
    const sig = db.prepare('SELECT qualified_name AS q, signature AS s FROM symbols WHERE id = ?');
    const firstDefs = db.prepare(`SELECT qualified_name AS q, signature AS s FROM symbols WHERE file_id = (SELECT id FROM files WHERE path = ?)
      AND kind IN ('function', 'method', 'class', 'struct', 'interface', 'trait', 'enum') ORDER BY start_line LIMIT ${UNITS}`);
    const files = order.map((p, k) => {
      const r = byPath.get(p);
      const units = (r?.units ?? []).slice(0, UNITS).map((u) => sig.get(u.symbolId)).filter(Boolean);
      const defs = units.length ? units : firstDefs.all(p);
      return { path: p, k, score: r?.score ?? 0, sigs: defs.map((d) => `${d.q}\n${d.s}`) };
    });
    fs.writeSync(out, `${JSON.stringify({ task_id: task.task_id, repo: task.repo, language: task.language, q: task.description,
      gold: task.source_files_edited ?? task.files_edited, files })}\n`);
  } finally {
    db.close();
  }
  if ((n + 1) % 10 === 0) console.error(`${n + 1}/${tasks.length}`);
}
fs.closeSync(out);
