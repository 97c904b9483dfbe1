#!/usr/bin/env node
// Counts the deeper graph's edges (overrides, reads, writes, registers, fires, endpoints) on a real
// repository and draws a fixed sample of each kind for checking by hand: every sampled edge is printed
// with the source line it was found on and what it leads to, and written to a JSON file that the
// checker annotates (eval/results/edges/<label>.json; verdicts in eval/README.md, "Deeper graph").
//
// Usage: node eval/edges.mjs --repo /work/.mirror/<owner>+<name>/repo [--label NAME] [--n 20] [--out DIR]
//   The mirror is cloned (git clone --shared) into a temporary directory at its HEAD and indexed there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';

const here = path.dirname(new URL(import.meta.url).pathname);
const { buildIndex } = await import(path.join(here, '..', 'dist', 'indexer', 'build.js'));
const { openReader } = await import(path.join(here, '..', 'dist', 'store', 'db.js'));

const args = process.argv.slice(2);
const opt = (name, def) => (args.includes(name) ? args[args.indexOf(name) + 1] : def);
const repo = opt('--repo', null);
if (!repo) {
  console.error('usage: node eval/edges.mjs --repo GIT_DIR [--label NAME] [--n 20] [--out DIR]');
  process.exit(2);
}
const label = opt('--label', path.basename(path.dirname(repo)).replace('+', '/'));
const n = Number(opt('--n', '20'));
const outDir = opt('--out', path.join(here, 'results', 'edges'));
const KINDS = ['overrides', 'reads', 'writes', 'registers', 'fires'];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-edges-'));
execFileSync('git', ['clone', '-q', '--shared', repo, dir]);
const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
const summary = await buildIndex(dir);
const db = openReader(dir);
const lines = new Map();
const lineOf = (file, line) => {
  if (!lines.has(file)) lines.set(file, fs.readFileSync(path.join(dir, file), 'utf8').split('\n'));
  return (lines.get(file)[line - 1] ?? '').trim().slice(0, 160);
};

const counts = {};
const samples = {};
for (const kind of KINDS) {
  const rows = db.prepare(`SELECT e.src_id AS src, e.dst_id AS dst, e.line, e.confidence, e.target, s.qualified_name AS srcName,
      sf.path AS srcFile, d.qualified_name AS dstName, df.path AS dstFile, d.start_line AS dstLine, d.kind AS dstKind
    FROM edges e JOIN symbols s ON s.id = e.src_id JOIN files sf ON sf.id = s.file_id
    LEFT JOIN symbols d ON d.id = e.dst_id LEFT JOIN files df ON df.id = d.file_id
    WHERE e.kind = ? AND sf.external = 0`).all(kind);
  counts[kind] = { edges: rows.length, resolved: rows.filter((r) => r.dst !== null).length };
  // A fixed draw: the rows whose content hashes lowest, so a re-run on the same commit draws the same edges.
  const key = (r) => createHash('sha1').update(`${kind}|${r.srcFile}|${r.srcName}|${r.line}|${r.dstFile}|${r.dstName}|${r.target}`).digest('hex');
  samples[kind] = rows.filter((r) => r.dst !== null || kind === 'fires').map((r) => ({ r, k: key(r) })).sort((a, b) => (a.k < b.k ? -1 : 1))
    .slice(0, n).map(({ r }) => ({
      from: `${r.srcFile}:${r.line} ${r.srcName}`, source: lineOf(r.srcFile, r.line),
      to: r.dst === null ? null : `${r.dstFile}:${r.dstLine} ${r.dstName} (${r.dstKind})`, target: r.target, confidence: r.confidence,
      correct: null,
    }));
}
counts.endpoints = db.prepare("SELECT COUNT(*) FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.kind = 'endpoint' AND f.external = 0").pluck().get();
db.close();

const result = { repo: label, commit, files: summary.files, counts, samples };
fs.mkdirSync(outDir, { recursive: true });
const file = path.join(outDir, `${label.replace('/', '+')}.json`);
// Verdicts already written for the same commit are kept: a re-run adds none and loses none.
if (fs.existsSync(file)) {
  const old = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (old.commit === commit) {
    for (const kind of KINDS) for (const s of result.samples[kind]) {
      const prev = old.samples?.[kind]?.find((o) => o.from === s.from && o.to === s.to && o.target === s.target);
      if (prev) Object.assign(s, { correct: prev.correct, ...(prev.note ? { note: prev.note } : {}) });
    }
  }
}
fs.writeFileSync(file, `${JSON.stringify(result, null, 1)}\n`);
console.log(`${label} @${commit.slice(0, 10)}: ${summary.files} files; ${Object.entries(counts).map(([k, v]) => `${k} ${typeof v === 'object' ? `${v.edges} (${v.resolved} resolved)` : v}`).join(', ')}`);
for (const kind of KINDS) {
  console.log(`\n## ${kind}`);
  samples[kind].forEach((s, i) => console.log(`${i + 1}. ${s.from}  | ${s.source}\n   -> ${s.to ?? '(none)'} ${s.target ? `[${s.target}]` : ''} ${s.confidence}`));
}
fs.rmSync(dir, { recursive: true, force: true });
