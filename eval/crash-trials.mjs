#!/usr/bin/env node
// Crash-safety trials (issue 3), more than the test suite runs: edit a generated repository, start
// `cg update`, kill -9 it after a random delay, run `cg update` again, and compare the index with a
// fresh full build of the same tree. Prints how many kills interrupted a running applier and how many
// trials converged.
//
// Usage: node eval/crash-trials.mjs [--trials 200] [--files 120]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const here = path.dirname(fileURLToPath(import.meta.url));
const cg = path.join(here, '..', 'bin', 'cg.js');
const { buildIndex } = await import('../dist/indexer/build.js');
const { currentDbPath } = await import('../dist/store/db.js');
const { dumpIndex } = await import('../dist/store/dump.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const trials = Number(opt('--trials', '200'));
const n = Number(opt('--files', '120'));

const module = (i, version) => [`from pkg.m${(i + 1) % n} import f${(i + 1) % n}`, '', `def f${i}(x):`,
  `    return f${(i + 1) % n}(x) + ${version}`, '', `class C${i}:`, `    def v${version}_m(self):`, `        return f${i}(${version})`, ''].join('\n');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-crash-'));
const root = path.join(scratch, 'repo');
fs.mkdirSync(path.join(root, 'pkg'), { recursive: true });
fs.writeFileSync(path.join(root, 'pkg', '__init__.py'), '');
for (let i = 0; i < n; i++) fs.writeFileSync(path.join(root, `pkg/m${i}.py`), module(i, 0));
const git = (...a) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...a], { cwd: root, stdio: 'ignore' });
git('init', '-q');
git('add', '-A');
git('commit', '-qm', 'init');
const cli = (...a) => execFileSync(process.execPath, [cg, ...a], { cwd: root, encoding: 'utf8' });
cli('index', '-q');

const dump = (dir) => {
  const db = new Database(currentDbPath(dir), { readonly: true });
  try {
    return JSON.stringify(dumpIndex(db));
  } finally {
    db.close();
  }
};
const fresh = async () => {
  const copy = path.join(fs.mkdtempSync(path.join(scratch, 'fresh-')), 'repo');
  fs.cpSync(root, copy, { recursive: true, filter: (src) => !src.includes(`${path.sep}.codegraph`) });
  await buildIndex(copy);
  const d = dump(copy);
  fs.rmSync(path.dirname(copy), { recursive: true, force: true });
  return d;
};

let t = performance.now();
for (let i = 0; i < n; i += 2) fs.writeFileSync(path.join(root, `pkg/m${i}.py`), module(i, 1));
cli('update', '-q');
const span = performance.now() - t;
let interrupted = 0;
let converged = 0;
for (let trial = 0; trial < trials; trial++) {
  const share = trial % 5 === 4 ? 0.9 : 0.25;
  for (let i = 0; i < n; i++) if ((i * 7 + trial) % 100 < share * 100) fs.writeFileSync(path.join(root, `pkg/m${i}.py`), module(i, trial + 2));
  const child = spawn(process.execPath, [cg, 'update', '-q'], { cwd: root, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', (_c, signal) => resolve(signal)));
  await sleep(Math.random() * span * 1.2);
  child.kill('SIGKILL');
  if ((await exited) === 'SIGKILL') interrupted++;
  cli('update', '-q');
  if (dump(root) === (await fresh())) converged++;
  else console.error(`trial ${trial}: did NOT converge`);
  if ((trial + 1) % 20 === 0) console.error(`${trial + 1}/${trials}: ${interrupted} interrupted, ${converged} converged`);
}
fs.rmSync(scratch, { recursive: true, force: true });
const result = { date: new Date().toISOString().slice(0, 10), trials, files: n, applyMs: Math.round(span), interrupted, converged };
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'crash-trials.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result));
