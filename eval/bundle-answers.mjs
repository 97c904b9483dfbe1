#!/usr/bin/env node
// The bundle (dist/bundle/, scripts/bundle.mjs) answers as dist/ does: for every task of a task file
// whose checkout the retrieval evaluation left indexed (eval/run.mjs: $TMPDIR/cg-eval/<task_id>),
// `cg query TEXT --json` and `cg context TEXT --json` run once through bin/cg.js (the bundle, when it
// is current) and once through dist/cli/main.js itself; the answers, freshness and timings left out,
// must be the same text.
//
// Usage: node eval/bundle-answers.mjs [--tasks ../shared/eval/dev-tasks.jsonl] [--checkouts $TMPDIR/cg-eval]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const tasksFile = opt('--tasks', path.join(root, '..', 'shared', 'eval', 'dev-tasks.jsonl'));
const checkouts = opt('--checkouts', path.join(os.tmpdir(), 'cg-eval'));
const bundleMain = path.join(root, 'dist', 'bundle', 'cli', 'main.js');
if (!fs.existsSync(bundleMain) || fs.statSync(bundleMain).mtimeMs < fs.statSync(path.join(root, 'dist', 'cli', 'main.js')).mtimeMs) {
  console.error('The bundle is missing or older than dist/: run `npm run build`.');
  process.exit(2);
}
// A script that runs dist/'s CLI, as bin/cg.js would without the bundle (process.argv as a script gets it).
const unbundled = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cg-unbundled-')), 'cg-dist.mjs');
fs.writeFileSync(unbundled, `await import(${JSON.stringify(pathToFileURL(path.join(root, 'dist', 'cli', 'main.js')).href)});\n`);
const VOLATILE = new Set(['freshness', 'durationMs', 'ageSeconds']);
const strip = (text) => JSON.stringify(JSON.parse(text), (k, v) => (VOLATILE.has(k) ? undefined : v));

const tasks = fs.readFileSync(tasksFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
let same = 0;
const differing = [];
for (const t of tasks) {
  const dir = path.join(checkouts, t.task_id);
  if (!fs.existsSync(path.join(dir, '.codegraph'))) continue;
  for (const cmd of ['query', 'context']) {
    const a = spawnSync(process.execPath, [path.join(root, 'bin', 'cg.js'), cmd, t.description, '--json'], { cwd: dir, encoding: 'utf8' });
    const b = spawnSync(process.execPath, [unbundled, cmd, t.description, '--json'], { cwd: dir, encoding: 'utf8' });
    const x = a.status === 0 ? strip(a.stdout) : `exit ${a.status}: ${a.stderr}`;
    const y = b.status === 0 ? strip(b.stdout) : `exit ${b.status}: ${b.stderr}`;
    if (x === y) same++;
    else differing.push(`${t.task_id} ${cmd}`);
  }
}
fs.rmSync(path.dirname(unbundled), { recursive: true, force: true });
console.log(JSON.stringify({ tasks: tasksFile, compared: same + differing.length, same, differing }, null, 2));
process.exit(differing.length ? 1 : 0);
