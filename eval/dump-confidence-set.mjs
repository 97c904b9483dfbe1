#!/usr/bin/env node
// The confidence model's inputs on an evaluation set, in train/dump-confidence.mjs's format: each task's
// ranked files (ranker probability and features) and the query's evidence, labelled by the commit's
// files; and the set's no-answer queries (eval/no-answer.jsonl) as kind "noanswer". For looking at how
// the confidence separates, never for fitting (train/fit-confidence.mjs reads training repositories only).
//
// Usage: npm run build && node eval/dump-confidence-set.mjs --tasks FILE --set dev|heldout --out FILE [--cache DIR] [--mirrors DIR]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexedCheckout } from './lib/indexed.mjs';
import { rankCandidates } from '../dist/retrieve/query.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const tasks = fs.readFileSync(opt('--tasks'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const set = opt('--set', 'dev');
const mirrors = opt('--mirrors', '/work/.mirror');
const cache = opt('--cache', path.join(os.tmpdir(), 'cg-eval'));
const out = opt('--out');
const noAnswer = fs.readFileSync(path.join(here, 'no-answer.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((q) => q.set === set);

const indexed = (task) => indexedCheckout(task, { mirrors, cache });

async function probe(db, dir, text) {
  const c = await rankCandidates(db, dir, { text });
  const feats = new Map((c.candidates ?? []).map((x) => [x.file.path, [...x.features].map((v) => Math.round(v * 1e6) / 1e6)]));
  return { evidence: c.evidence, ranked: c.ranked.slice(0, 40).map((r, k) => ({ path: r.path, k, p: r.probability ?? null, x: feats.get(r.path) ?? null })), other: [] };
}

const lines = [];
for (const [i, t] of tasks.entries()) {
  process.stderr.write(`\r${i + 1}/${tasks.length}`);
  const { dir, db } = await indexed(t);
  try {
    lines.push({ kind: 'task', repo: t.repo, task_id: t.task_id, gold: t.source_files_edited, touched: t.files_edited, ...(await probe(db, dir, t.description)) });
  } finally { db.close(); }
}
const latest = new Map();
for (const t of tasks) if (!latest.has(t.repo) || latest.get(t.repo).date < t.date) latest.set(t.repo, t);
for (const q of noAnswer) {
  const { dir, db } = await indexed(latest.get(q.repo));
  try {
    lines.push({ kind: 'noanswer', subkind: q.kind, repo: q.repo, query: q.query, gold: [], touched: [], ...(await probe(db, dir, q.query)) });
  } finally { db.close(); }
}
fs.writeFileSync(out, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
process.stderr.write(`\n${lines.length} queries -> ${out}\n`);
