#!/usr/bin/env node
// For every task of the training corpus (train/mine-corpus.mjs), cg's own candidate generation and the
// learned ranker's features of each candidate file (src/retrieve/features.ts, the very code a query
// runs), with the task's gold as labels. Each task reads the past commits before its own parent
// (checkouts.mjs taskHistories), as a query at that commit would.
//
// One checkout and one index per repository, at the corpus's index commit, kept under --work so a
// second run (new features, same corpus) only re-queries. Output: one JSONL file per repository under
// <corpus>/features/. Run it under `nice`: indexing 190 repositories takes about an hour on 2 cores.
//
// Usage: npm run build && node train/dump-features.mjs [--corpus $TMPDIR/cg-train] [--work DIR] [--mirrors /work/.mirror]
//                                                      [--repos owner/name,...] [--force] [--reindex] [--reverse]
//   Repositories whose features were dumped already are skipped unless --force (or named in --repos).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rankCandidates } from '../dist/retrieve/query.js';
import { FEATURES } from '../dist/retrieve/features.js';
import { readRepoList } from './mine-corpus.mjs';
import { checkout, indexOf, taskHistories } from './checkouts.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const corpus = opt('--corpus', path.join(os.tmpdir(), 'cg-train'));
const work = opt('--work', path.join(corpus, 'checkouts'));
const mirrors = opt('--mirrors', '/work/.mirror');
const only = opt('--repos', '') ? new Set(opt('--repos', '').split(',')) : null;
// The ranker is not needed to compute its features; a stale one must not change what is recorded.
process.env.CG_RANKER_FILE = path.join(corpus, 'no-ranker.json');
process.env.CG_RANKER_PLAIN_FILE = path.join(corpus, 'no-ranker.json');

async function main() {
  // The repositories mined so far, in the list's order (this can run beside a mining still under way).
  const manifest = readRepoList().filter((r) => fs.existsSync(path.join(corpus, 'tasks', `${r.repo.replace('/', '+')}.jsonl`)));
  if (args.includes('--reverse')) manifest.reverse();
  const outDir = path.join(corpus, 'features');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'features.json'), `${JSON.stringify(FEATURES)}\n`);
  for (const [i, m] of manifest.entries()) {
    if (only && !only.has(m.repo)) continue;
    const name = m.repo.replace('/', '+');
    const outFile = path.join(outDir, `${name}.jsonl`);
    if (!only && !args.includes('--force') && fs.existsSync(outFile)) continue;
    const tasks = fs.readFileSync(path.join(corpus, 'tasks', `${name}.jsonl`), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    if (!tasks.length) continue;
    // Several dumps may run at once (--reverse takes the list from its end): one repository, one claimant.
    let claim;
    try {
      claim = fs.openSync(`${outFile}.lock`, 'wx');
    } catch {
      continue;
    }
    m.index_commit = tasks[0].index_commit;
    const t0 = performance.now();
    let db;
    let indexMs;
    try {
      const dir = checkout(work, mirrors, m.repo, m.index_commit);
      ({ db, ms: indexMs } = await indexOf(dir, m.index_commit, args.includes('--reindex')));
      const histories = taskHistories(dir, tasks);
      const lines = [];
      for (const task of tasks) {
        const { ranked, candidates } = await rankCandidates(db, dir, { text: task.description, preset: 'learned', history: histories.get(task.task_id) });
        const gold = new Set(task.source_files_edited);
        const goldRanks = ranked.flatMap((r, k) => (gold.has(r.path) ? [k] : []));
        lines.push(JSON.stringify({
          task_id: task.task_id, repo: task.repo, language: task.language, gold: task.source_files_edited, ranked: ranked.length,
          gold_ranks: goldRanks,
          cands: candidates.map((c) => ({ path: c.file.path, label: gold.has(c.file.path) ? 1 : 0, x: [...c.features].map((v) => Math.round(v * 1e6) / 1e6) })),
        }));
      }
      fs.writeFileSync(outFile, lines.map((l) => `${l}\n`).join(''));
      console.error(`[${i + 1}/${manifest.length}] ${m.repo}: ${tasks.length} tasks; index ${(indexMs / 1000).toFixed(1)} s, total ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } catch (err) {
      console.error(`[${i + 1}/${manifest.length}] ${m.repo}: failed: ${String(err?.message ?? err).split('\n')[0]}`);
    } finally {
      db?.close();
      fs.closeSync(claim);
      fs.rmSync(`${outFile}.lock`, { force: true });
    }
  }
}

await main();
