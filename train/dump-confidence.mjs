#!/usr/bin/env node
// What the confidence model (src/retrieve/confidence.ts) is fitted on: for every task of the learned
// ranker's validation repositories (held out of its fit, so its probabilities there are not in-sample),
// cg's ranked files with the ranker's probability and the query's evidence, labelled by the files the
// task's commit edited; and the same for descriptions swapped in from three other of those repositories
// (five each): tasks with no answer in this one. Plus the answer's places outside the ranked candidates
// (reached through calls or tests), for the probability of such places. No evaluation set is read.
//
// Usage: npm run build && node train/dump-confidence.mjs [--corpus $TMPDIR/cg-train] [--work DIR] [--out FILE] [--plain]
//   --plain: the queries without past commits (the data of confidence-no-history.json; out: confidence-no-history.jsonl)
//   --work: where train/dump-features.mjs left one indexed checkout per repository (default <corpus>/checkouts)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openReader } from '../dist/store/db.js';
import { MAX_QUERY_CHARS, rankCandidates, runQuery } from '../dist/retrieve/query.js';
import { taskHistories } from './checkouts.mjs';
import { historyOf } from '../dist/retrieve/history.js';
import { loadRanker } from '../dist/retrieve/ranker.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const corpus = opt('--corpus', path.join(os.tmpdir(), 'cg-train'));
const work = opt('--work', path.join(corpus, 'checkouts'));
const out = opt('--out', path.join(corpus, args.includes('--plain') ? 'confidence-no-history.jsonl' : 'confidence.jsonl'));
// Candidates and evidence must not depend on an earlier confidence model.
process.env.CG_CONFIDENCE_FILE = path.join(corpus, 'no-confidence-model.json');
process.env.CG_CONFIDENCE_PLAIN_FILE = path.join(corpus, 'no-confidence-model.json');
// --plain: every query as an index without history sees it (no past commits), so the ranker fitted
// without them answers: the data of train/model/confidence-no-history.json.
const plain = args.includes('--plain');
const NO_HISTORY = historyOf([]);

const ranker = loadRanker();
if (!ranker.ok) throw new Error(ranker.warning);
const repos = ranker.model.manifest.validation_repositories;
const tasksOf = (repo) => {
  const f = path.join(corpus, 'tasks', `${repo.replace('/', '+')}.jsonl`);
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
};
/** Descriptions from other repositories: those 3, 7 and 11 places further down the list (deterministic). */
const SWAP_FROM = [3, 7, 11];
const SWAPS_EACH = 5;

const lines = [];
for (const [i, repo] of repos.entries()) {
  const dir = path.join(work, repo.replace('/', '+'));
  let db;
  try {
    db = openReader(dir);
  } catch (err) {
    console.error(`${repo}: no index at ${dir} (${String(err?.message ?? err).split('\n')[0]}); skipped`);
    continue;
  }
  try {
    // Each task reads the commits before it (checkouts.mjs); a swapped description those of one of this repository's tasks.
    const own = tasksOf(repo);
    const histories = taskHistories(dir, own);
    const probe = async (text, taskHistory) => {
      const history = plain ? NO_HISTORY : taskHistory;
      const c = await rankCandidates(db, dir, { text, history });
      const answer = await runQuery(db, dir, { text, history });
      // Each candidate's ranker features too (src/retrieve/features.ts): inputs a confidence model may try.
      const feats = new Map(c.candidates.map((x) => [x.file.path, [...x.features].map((v) => Math.round(v * 1e6) / 1e6)]));
      const ranked = c.ranked.slice(0, 40).map((r, k) => ({ path: r.path, k, p: r.probability ?? null, x: feats.get(r.path) ?? null }));
      const candidates = new Set(ranked.filter((r) => r.p !== null).map((r) => r.path));
      const other = [...new Set(answer.files.map((e) => e.path))].filter((p) => !candidates.has(p));
      return { evidence: c.evidence, ranked, other };
    };
    // A description longer than a query may be (a pasted log: google/guice has one of 57k characters) is
    // refused by cg; it says nothing about how cg's answers are trusted.
    const askable = (t) => t.description.length <= MAX_QUERY_CHARS;
    for (const t of own.filter(askable)) {
      lines.push({ kind: 'task', repo, task_id: t.task_id, gold: t.source_files_edited, touched: t.files_edited,
        ...(await probe(t.description, histories.get(t.task_id))) });
    }
    let s = 0;
    for (const k of SWAP_FROM) {
      const from = repos[(i + k) % repos.length];
      for (const t of tasksOf(from).filter(askable).slice(0, SWAPS_EACH)) {
        const at = own[s++ % own.length];
        lines.push({ kind: 'swap', repo, from, gold: [], touched: [], ...(await probe(t.description, histories.get(at.task_id))) });
      }
    }
    console.error(`[${i + 1}/${repos.length}] ${repo}`);
  } finally {
    db.close();
  }
}
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
console.error(`${lines.length} queries -> ${out}`);
