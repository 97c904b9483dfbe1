#!/usr/bin/env node
// Start-up and one-file update benchmark (issue 20): whole processes, as a user, an agent or a hook
// starts them, on one real repository, measured side by side in one run:
//
//   version   `cg --version`
//   symbols   `cg symbols NAME` answered from a fresh index (optave: `codegraph where NAME`)
//   update    append a function to one file, then `cg update` (optave: `codegraph build`, incremental);
//             then the edit undone and applied again: two samples per round
//
// Tools: `head` is this checkout (or --head CG_CHECKOUT); `base` another built checkout of cg (e.g. a
// worktree of main, to measure a change against); `optave` the `codegraph` binary of @optave/codegraph
// when given. Each tool gets its own clone of the repository (both keep their index in .codegraph/).
// Rounds alternate the tools (rotating which goes first); the figures are medians (the upper middle of
// an even count, eval/lib/metrics.mjs), and the ratios come from this run only (the machine's speed
// drifts between runs).
//
// Usage: node eval/bench-startup.mjs --repo GIT_REPO [--head CG_CHECKOUT] [--base CG_CHECKOUT] [--optave CODEGRAPH_BIN]
//          [--file PATH_IN_REPO] [--symbol NAME] [--runs 5] [--label NAME] [--out eval/results/bench-startup.json]
// e.g.  git worktree add /tmp/cg-main main && (cd /tmp/cg-main && npm run build)
//       node eval/bench-startup.mjs --repo /tmp/django --base /tmp/cg-main \
//         --optave /tmp/optave/node_modules/.bin/codegraph --file db/models/query_utils.py --symbol Q
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './lib/metrics.mjs';
import { saveResult } from './lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const repo = opt('--repo');
if (!repo) {
  console.error('usage: node eval/bench-startup.mjs --repo GIT_REPO [--base CG_CHECKOUT] [--optave CODEGRAPH_BIN] [--file PATH] [--symbol NAME] [--runs 5]');
  process.exit(2);
}
const runs = Number(opt('--runs', '5'));
const symbol = opt('--symbol', 'Model');
const label = opt('--label', path.basename(path.resolve(repo)));
const out = opt('--out', path.join(here, 'results', 'bench-startup.json'));

const git = (dir, ...a) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...a],
  { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).trim();
const ms = (x) => Math.round(x);

const cg = (checkout) => ({
  cmd: [process.execPath, path.join(checkout, 'bin', 'cg.js')],
  index: ['index', '-q'],
  version: ['--version'],
  symbols: ['symbols', symbol, '--limit', '20'],
  update: ['update', '-q'],
});
const tools = [['head', cg(path.resolve(opt('--head', path.join(here, '..'))))]];
if (opt('--base')) tools.push(['base', cg(path.resolve(opt('--base')))]);
if (opt('--optave')) {
  tools.push(['optave', {
    cmd: [path.resolve(opt('--optave'))],
    index: ['build'],
    version: ['--version'],
    symbols: ['where', symbol, '-n', '20'],
    update: ['build'],
  }]);
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-startup-'));
const run = (tool, dir, what) => {
  const [bin, ...pre] = tool.cmd;
  const t = performance.now();
  const res = spawnSync(bin, [...pre, ...tool[what]], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = performance.now() - t;
  if (res.status !== 0) throw new Error(`${[bin, ...pre, ...tool[what]].join(' ')} in ${dir} exited ${res.status}: ${res.stderr}`);
  return wall;
};

// One clone per tool, its git index refreshed (a fresh clone's stat data would make the first
// `git status` of each update rehash every file), then indexed once.
const dirs = new Map();
let file = opt('--file');
for (const [name, tool] of tools) {
  const dir = path.join(scratch, name);
  git(scratch, 'clone', '-q', '--shared', path.resolve(repo), dir);
  git(dir, 'status', '--porcelain');
  dirs.set(name, dir);
  const t = performance.now();
  run(tool, dir, 'index');
  console.error(`${name}: indexed ${label} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
const head = dirs.get('head');
file ??= git(head, 'ls-files').split('\n').find((f) => f.endsWith('.py') || f.endsWith('.ts') || f.endsWith('.go'));
const files = git(head, 'ls-files').split('\n').filter(Boolean);
// A function appended in the edited file's language (tree-sitter parses anything, but an error region is no real edit).
const edit = file.endsWith('.go') ? '\n\nfunc cgBenchAddedFunction(x int) int { return x + 1 }\n'
  : /\.[cm]?[jt]sx?$/.test(file) ? '\n\nexport function cgBenchAddedFunction(x) { return x + 1; }\n'
    : '\n\ndef cg_bench_added_function(x):\n    return x + 1\n';

const samples = Object.fromEntries(tools.map(([name]) => [name, { version: [], symbols: [], update: [] }]));
for (let r = 0; r < runs; r++) {
  // Rotate the order so that no tool always runs first (or right after the same other tool).
  const order = tools.map((_, i) => tools[(i + r) % tools.length]);
  for (const [name, tool] of order) {
    const dir = dirs.get(name);
    const s = samples[name];
    s.version.push(run(tool, dir, 'version'));
    s.symbols.push(run(tool, dir, 'symbols'));
    fs.appendFileSync(path.join(dir, file), edit);
    s.update.push(run(tool, dir, 'update'));
    git(dir, 'checkout', '-q', '--', file);
    s.update.push(run(tool, dir, 'update'));
  }
  console.error(`round ${r + 1}/${runs}: ${tools.map(([n]) => `${n} version ${ms(samples[n].version.at(-1))} ms, symbols ${ms(samples[n].symbols.at(-1))} ms, update ${ms(samples[n].update.at(-1))} ms`).join('; ')}`);
}

const medians = Object.fromEntries(tools.map(([name]) => [name, Object.fromEntries(Object.entries(samples[name])
  .map(([k, xs]) => [k, ms(median(xs))]))]));
const ratios = {};
for (const [other] of tools.filter(([n]) => n !== 'head')) {
  ratios[`head/${other}`] = Object.fromEntries(Object.keys(medians.head).map((k) => [k, +(medians.head[k] / medians[other][k]).toFixed(2)]));
}
const result = {
  label, files: files.length, editedFile: file, symbol, runs, date: new Date().toISOString(), node: process.version,
  cpus: os.cpus().length, loadavg: os.loadavg().map((x) => +x.toFixed(1)),
  note: 'Wall-clock ms of whole processes, medians; update = append a function to one file then `cg update` (and the undo, applied ' +
    'again); optave: `codegraph where` and incremental `codegraph build` (no embeddings; cg\'s update includes its built-in ones).',
  medianMs: medians, ratios, samplesMs: Object.fromEntries(tools.map(([n]) => [n, Object.fromEntries(Object.entries(samples[n])
    .map(([k, xs]) => [k, xs.map(ms)]))])),
};
saveResult(out, label, result);
console.log(JSON.stringify({ medianMs: medians, ratios }, null, 2));
fs.rmSync(scratch, { recursive: true, force: true });
