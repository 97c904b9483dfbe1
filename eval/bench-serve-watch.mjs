#!/usr/bin/env node
// A save made without any hook (an editor, a formatter, `sed` from a shell) to a fresh index, on a clone of
// a real repository with no git hooks installed, and what watching the working tree costs `cg serve`:
//
//   serve    `cg serve` runs (its working-tree watch on, the default): the save alone; timed from the
//            write until the index holds the new function
//   update   no server: the save, then `cg update` run at once (what a user without a watcher runs), timed
//            the same way
//
// Each mode has its own clone; rounds alternate them (rotating which goes first), each appending a function
// with a new name to one file; figures are medians. Also: the resident memory (VmRSS) of two idle servers
// started side by side, one with --no-watch, after the watch is ready and again after the rounds (--no-warm
// for both, so the tokenizer and model are not in either).
//
// Usage: node eval/bench-serve-watch.mjs --repo GIT_REPO --file PATH_IN_REPO [--rounds 7] [--label NAME]
//          [--out eval/results/bench-serve-watch.json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { currentDbPath } from '../dist/store/db.js';
import { option } from './lib/args.mjs';
import { median } from './lib/metrics.mjs';
import { saveResult } from './lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const CG = path.join(here, '..', 'bin', 'cg.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => option(args, name, dflt);
const repo = opt('--repo');
const file = opt('--file');
if (!repo || !file) {
  console.error('usage: node eval/bench-serve-watch.mjs --repo GIT_REPO --file PATH_IN_REPO [--rounds 7] [--label NAME]');
  process.exit(2);
}
const rounds = Number(opt('--rounds', '7'));
const label = opt('--label', path.basename(path.resolve(repo)));
const out = opt('--out', path.join(here, 'results', 'bench-serve-watch.json'));
const MODES = ['serve', 'update'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-serve-watch-'));
const dirs = {};
for (const mode of [...MODES, 'nowatch']) {
  const dir = path.join(scratch, mode);
  execFileSync('git', ['clone', '-q', '--shared', path.resolve(repo), dir]);
  execFileSync('git', ['status', '--porcelain'], { cwd: dir });
  execFileSync(process.execPath, [CG, 'index', '-q'], { cwd: dir, stdio: 'ignore' });
  dirs[mode] = dir;
}

const hasSymbol = (dir, name) => {
  const db = new Database(currentDbPath(dir), { readonly: true });
  try {
    return db.prepare('SELECT 1 FROM symbols WHERE name = ? LIMIT 1').get(name) !== undefined;
  } finally {
    db.close();
  }
};
const rssMiB = (pid) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
const startServer = async (dir, extra) => {
  const child = spawn(process.execPath, [CG, 'serve', '--no-warm', ...extra], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const ready = extra.includes('--no-watch') ? /serving/ : /watching \d+ directories/;
  for (let t = 0; !ready.test(stderr); t += 50) {
    if (t > 60_000) throw new Error(`cg serve did not start in ${dir}: ${stderr}`);
    await sleep(50);
  }
  await sleep(1000); // settled: the applier announced, the watch's first scan done
  return { child, stderr: () => stderr };
};

const ext = path.extname(file);
const fnText = (name) => (ext === '.py' ? `\n\ndef ${name}():\n    return 1\n` : ext === '.go' ? `\n\nfunc ${name}() int { return 1 }\n`
  : `\n\nexport function ${name}(): number { return 1 }\n`);
let n = 0;
const round = async (mode) => {
  const dir = dirs[mode];
  const name = `benchSaved${n++}`;
  const t0 = performance.now();
  fs.appendFileSync(path.join(dir, file), fnText(name));
  if (mode === 'update') execFileSync(process.execPath, [CG, 'update', '-q'], { cwd: dir, stdio: 'ignore' });
  while (!hasSymbol(dir, name)) {
    if (performance.now() - t0 > 60_000) throw new Error(`${mode}: ${name} not indexed after 60 s`);
    await sleep(10);
  }
  return performance.now() - t0;
};

const server = await startServer(dirs.serve, []);
const idle = await startServer(dirs.nowatch, ['--no-watch']);
const rssReady = { watch: rssMiB(server.child.pid), noWatch: rssMiB(idle.child.pid) };
await round('serve'); // the server's first apply starts its thread and loads what every later one reuses
const samples = { serve: [], update: [] };
for (let r = 0; r < rounds; r++) {
  for (const mode of MODES.map((_, i) => MODES[(i + r) % MODES.length])) {
    const ms = await round(mode);
    samples[mode].push(ms);
    console.error(`round ${r + 1}/${rounds} ${mode}: fresh ${ms.toFixed(0)} ms after the save`);
  }
}
const rssAfter = { watch: rssMiB(server.child.pid), noWatch: rssMiB(idle.child.pid) };
for (const s of [server, idle]) {
  s.child.stdin.end();
  await new Promise((r) => s.child.once('exit', r));
}
const medianMs = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, Math.round(median(xs))]));
const result = {
  label, file, rounds, date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadavg: os.loadavg().map((x) => +x.toFixed(1)),
  note: 'ms from appending a function to the file (no git hooks installed) until the index holds it, medians; serve: `cg serve` watching the '
    + 'working tree applies it; update: `cg update` run right after the save. rssMiB: VmRSS of `cg serve --no-warm` with and without '
    + '--no-watch, once ready and after the rounds (the watching server applied them; the other stayed idle)',
  medianMs, ratio: +(medianMs.serve / medianMs.update).toFixed(2), rssMiB: { ready: rssReady, afterRounds: rssAfter },
  samplesMs: Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, xs.map(Math.round)])),
};
saveResult(out, label, result);
console.log(JSON.stringify({ medianMs, ratio: result.ratio, rssMiB: result.rssMiB }, null, 2));
fs.rmSync(scratch, { recursive: true, force: true });
