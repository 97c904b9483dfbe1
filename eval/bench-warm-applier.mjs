#!/usr/bin/env node
// Commit to fresh index, with and without a warm applier (src/indexer/warm-applier.ts): on a clone of a
// real repository with cg's git hooks installed, each round appends a function to one file and commits
// it, then times from the start of `git commit` until the index's indexed_commit is the new HEAD.
//
//   cold   no long-running applier: the post-commit hook starts `cg update --background`
//   warm   `cg watch` (or, with --applier serve, `cg serve`: it applies on a thread of its own) runs and
//          announced itself: the hook leaves the record to it
//   optave with --optave BIN: @optave/codegraph's incremental `codegraph build`, run right after the
//          commit (it has no hook of its own; what its users run, or a hook would), in a third clone
//
// Each mode has its own clone; the warm clone's `cg watch` runs for the whole benchmark and applies one
// commit before the first measured one (a watcher's first apply loads what every later one reuses).
// Rounds alternate the two (rotating which goes first); figures are medians. Also reported: how long
// `git commit` itself took (the hook runs inside it) and, for warm rounds, that no other process applied.
//
// Usage: node eval/bench-warm-applier.mjs --repo GIT_REPO [--file PATH_IN_REPO] [--rounds 7] [--applier watch|serve]
//          [--optave CODEGRAPH_BIN] [--label NAME]
//          [--out eval/results/bench-warm-applier.json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { currentDbPath } from '../dist/store/db.js';
import { median } from './lib/metrics.mjs';
import { saveResult } from './lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const CG = path.join(here, '..', 'bin', 'cg.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const repo = opt('--repo');
if (!repo) {
  console.error('usage: node eval/bench-warm-applier.mjs --repo GIT_REPO [--file PATH] [--rounds 7] [--label NAME]');
  process.exit(2);
}
const rounds = Number(opt('--rounds', '7'));
const applier = opt('--applier', 'watch');
if (!['watch', 'serve'].includes(applier)) throw new Error('--applier is watch or serve');
const optave = opt('--optave') ? path.resolve(opt('--optave')) : null;
const MODES = optave ? ['cold', 'warm', 'optave'] : ['cold', 'warm'];
const label = opt('--label', path.basename(path.resolve(repo)));
const out = opt('--out', path.join(here, 'results', 'bench-warm-applier.json'));

const git = (dir, ...a) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...a],
  { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const cg = (dir, ...a) => execFileSync(process.execPath, [CG, ...a], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-warm-'));
const dirs = {};
for (const mode of MODES) {
  const dir = path.join(scratch, mode);
  git(scratch, 'clone', '-q', '--shared', path.resolve(repo), dir);
  git(dir, 'status', '--porcelain');
  if (mode === 'optave') {
    execFileSync(optave, ['build'], { cwd: dir, stdio: 'ignore' });
  } else {
    cg(dir, 'index', '-q');
    cg(dir, 'hooks', 'install');
  }
  dirs[mode] = dir;
}
const file = opt('--file') ?? git(dirs.cold, 'ls-files').split('\n').find((f) => /\.(py|ts|go)$/.test(f));
const edit = (n) => (file.endsWith('.go') ? `\n\nfunc cgBenchWarm${n}(x int) int { return x + ${n} }\n`
  : /\.[cm]?[jt]sx?$/.test(file) ? `\n\nexport function cgBenchWarm${n}(x) { return x + ${n}; }\n`
    : `\n\ndef cg_bench_warm_${n}(x):\n    return x + ${n}\n`);

function indexedCommit(dir) {
  const db = new Database(currentDbPath(dir), { readonly: true });
  try {
    return db.prepare("SELECT value FROM meta WHERE key = 'indexed_commit'").pluck().get();
  } finally {
    db.close();
  }
}
const applierStarts = (dir) => {
  const f = path.join(dir, '.codegraph', 'applier.log');
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter((l) => l.includes(' start')).map((l) => Number(/pid=(\d+)/.exec(l)[1])) : [];
};
async function settled(dir) {
  // No writer left (the lock names its holder while one applies).
  for (let i = 0; i < 400 && fs.existsSync(path.join(dir, '.codegraph', 'writer.lock')); i++) await sleep(25);
}

const watcher = spawn(process.execPath, [CG, applier, ...(applier === 'serve' ? ['--no-warm'] : [])], { cwd: dirs.warm, stdio: ['pipe', 'ignore', 'pipe'] });
let watchErr = '';
watcher.stderr.on('data', (d) => { watchErr += d; });
const note = path.join(dirs.warm, '.codegraph', 'warm-applier.json');
const announced = () => fs.existsSync(note) && JSON.parse(fs.readFileSync(note, 'utf8')).pid === watcher.pid;
for (let i = 0; i < 800 && !announced(); i++) await sleep(25);
if (!announced()) throw new Error(`cg ${applier} did not announce itself: ${watchErr}`);
const rssMiB = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${watcher.pid}/status`, 'utf8'))[1]) / 1024);
const rssBefore = rssMiB();

let n = 0;
async function round(mode) {
  const dir = dirs[mode];
  await settled(dir);
  const before = applierStarts(dir).length;
  fs.appendFileSync(path.join(dir, file), edit(++n));
  const t0 = performance.now();
  git(dir, 'commit', '-qam', `bench ${n}`);
  const commitMs = performance.now() - t0;
  if (mode === 'optave') {
    execFileSync(optave, ['build'], { cwd: dir, stdio: 'ignore' });
    return { freshMs: performance.now() - t0, commitMs, appliers: 1, byWatcher: null };
  }
  const head = git(dir, 'rev-parse', 'HEAD');
  while (indexedCommit(dir) !== head) {
    if (performance.now() - t0 > 120_000) throw new Error(`${mode}: the commit was not applied within 120 s`);
    await sleep(2);
  }
  const freshMs = performance.now() - t0;
  await settled(dir);
  const pids = applierStarts(dir).slice(before);
  return { freshMs, commitMs, appliers: pids.length, byWatcher: mode === 'warm' ? pids.every((p) => p === watcher.pid) : null };
}

await round('warm'); // the watcher's first apply, not measured
const samples = Object.fromEntries(MODES.map((m) => [m, []]));
for (let r = 0; r < rounds; r++) {
  for (const mode of MODES.map((_, i) => MODES[(i + r) % MODES.length])) {
    const s = await round(mode);
    samples[mode].push(s);
    console.error(`round ${r + 1}/${rounds} ${mode}: fresh ${s.freshMs.toFixed(0)} ms after the commit began (commit ${s.commitMs.toFixed(0)} ms), `
      + `${s.appliers} apply run(s)${s.byWatcher === null ? '' : s.byWatcher ? `, all in cg ${applier}` : `, NOT all in cg ${applier}`}`);
  }
}
const rssAfter = rssMiB();
watcher.kill('SIGTERM');
await new Promise((r) => watcher.once('exit', r));
const summary = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, {
  freshMs: Math.round(median(xs.map((x) => x.freshMs))), commitMs: Math.round(median(xs.map((x) => x.commitMs))),
}]));
const result = {
  label, file, rounds, applier: `cg ${applier}`, rssMiB: { beforeFirstApply: rssBefore, afterRounds: rssAfter }, date: new Date().toISOString(), node: process.version, cpus: os.cpus().length,
  loadavg: os.loadavg().map((x) => +x.toFixed(1)),
  note: 'ms from the start of `git commit` (hooks installed) until indexed_commit is the new HEAD, medians; cold: the hook starts '
    + '`cg update --background`; warm: the applier named runs and the hook leaves the record to it; rssMiB: its resident memory; '
    + 'optave: the commit, then `codegraph build` (incremental) in the same clone, timed together',
  medianMs: summary, ratio: +(summary.warm.freshMs / summary.cold.freshMs).toFixed(2),
  ...(optave ? { ratioToOptave: { cold: +(summary.cold.freshMs / summary.optave.freshMs).toFixed(2), warm: +(summary.warm.freshMs / summary.optave.freshMs).toFixed(2) } } : {}),
  allWarmAppliesInWatcher: samples.warm.every((s) => s.byWatcher),
  samplesMs: Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, xs.map((x) => Math.round(x.freshMs))])),
};
saveResult(out, label, result);
console.log(JSON.stringify({ medianMs: summary, ratio: result.ratio, ratioToOptave: result.ratioToOptave, allWarmAppliesInWatcher: result.allWarmAppliesInWatcher, rssMiB: result.rssMiB }, null, 2));
fs.rmSync(scratch, { recursive: true, force: true });
