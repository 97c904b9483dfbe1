#!/usr/bin/env node
// Freshness benchmark (issue 3): how fast changes reach the index, against a full rebuild measured in
// the same run, on a real repository with history.
//
//   hook return time      the installed post-commit hook, run as git runs it (sh), N times
//   one-file change       edit 1 file (add a function), then apply; in-process and warm (grammars
//                         loaded, as in cg watch), p50/p95 of N; also as a fresh `cg update` process
//   five-file change      the same with 5 files
//   branch switch         git checkout of a commit far away (hundreds of files), then apply
//   full rebuild          cg's full build of the same checkout, in-process, median of 3
//
// Usage: node eval/bench-freshness.mjs --repo GIT_DIR --at COMMIT --far COMMIT [--runs 30] [--label NAME] [--note TEXT]
// e.g. with a mirror brought by the `fetch` tool:
//   node eval/bench-freshness.mjs --repo /work/.mirror/trpc+trpc/repo \
//     --at 340811ba5320637fbaf48fccf3dbfdd258bd34db --far e963b8829ed7f3293dd66fc6000576d020a012a4
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { buildIndex } = await import('../dist/indexer/build.js');
const { updateIndex } = await import('../dist/indexer/update.js');
const { installHooks } = await import('../dist/repo/hooks.js');
const { languageForFile } = await import('../dist/lang/registry.js');

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const repo = opt('--repo');
const at = opt('--at');
const far = opt('--far');
const runs = Number(opt('--runs', '30'));
if (!repo || !at || !far) {
  console.error('usage: node eval/bench-freshness.mjs --repo GIT_DIR --at COMMIT --far COMMIT [--runs 30] [--label NAME]');
  process.exit(2);
}
const label = opt('--label', path.basename(path.dirname(repo)));

const git = (dir, ...a) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...a],
  { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).trim();
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => Math.round(x * 10) / 10;
const time = async (fn) => {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
};

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-fresh-'));
const dir = path.join(scratch, 'repo');
git(scratch, 'clone', '-q', '--shared', '--no-checkout', repo, dir);
git(dir, 'checkout', '-q', '--detach', at);

const files = git(dir, 'ls-files').split('\n').filter((f) => languageForFile(f));
let loc = 0;
for (const f of files) loc += fs.readFileSync(path.join(dir, f), 'utf8').split('\n').length;

// Full rebuilds (in-process, like the applier): the baseline.
const rebuilds = [];
let summary;
for (let i = 0; i < 3; i++) {
  const [t, s] = await time(() => buildIndex(dir));
  rebuilds.push(t);
  summary = s;
}
// Files to edit: indexed ones (not vendored or ignored), in languages where appending a function is valid.
const { default: Database } = await import('better-sqlite3');
const { currentDbPath } = await import('../dist/store/db.js');
const idx = new Database(currentDbPath(dir), { readonly: true });
const editable = idx.prepare("SELECT path FROM files WHERE language IN ('typescript', 'tsx', 'javascript', 'python') AND path NOT LIKE '%.d.ts' ORDER BY path")
  .pluck().all();
idx.close();
fs.writeFileSync(path.join(dir, '.codegraph', 'config.json'), JSON.stringify({ hooks: { autoApply: false } }));
await updateIndex(dir);
installHooks(dir);

// Hook return time: the post-commit hook as git runs it.
const hookTimes = [];
for (let i = 0; i < runs * 3; i++) {
  const t = performance.now();
  spawnSync('sh', [path.join(dir, '.git', 'hooks', 'post-commit')], { cwd: dir, stdio: 'ignore' });
  hookTimes.push(performance.now() - t);
}
await updateIndex(dir); // consume those records

let counter = 0;
const edit = (f) => {
  counter++;
  const p = path.join(dir, f);
  const fn = /\.py$/.test(f) ? `\n\ndef bench_added_${counter}():\n    return ${counter}\n`
    : `\nexport function benchAdded${counter}(): number { return ${counter}; }\n`;
  fs.appendFileSync(p, fn);
};
const applyAfter = async (n) => {
  const out = [];
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < n; k++) edit(editable[(i * 37 + k * 101) % editable.length]);
    const [t, r] = await time(() => updateIndex(dir));
    if (r.rounds[0].mode !== 'incremental') throw new Error(`expected an incremental update, got ${r.rounds[0].mode}`);
    out.push({ t, resolved: r.rounds[0].resolvedFiles });
  }
  return out;
};
// The checkout above wrote files in the same second as the index that records them, so git cannot trust
// their timestamps ("racily clean") and re-reads every file on each `git status` until some git
// command refreshes the index. Any git command the user runs in the checkout does that; cg's own
// `git status` runs with --no-optional-locks (it must never take .git/index.lock from under the
// user) and does not. Without this refresh a warm one-file apply pays ~25 ms more in git status (31
// instead of 7 ms on trpc), on every update, until the user's next git command.
git(dir, 'update-index', '-q', '--refresh');
// Warm up as a long-running applier (cg watch, a server) is: one update per language loads its grammar.
const { languageForFile: lf } = await import('../dist/lang/registry.js');
for (const lang of new Set(editable.map((f) => lf(f).id))) {
  edit(editable.find((f) => lf(f).id === lang));
  await updateIndex(dir);
}
const one = await applyAfter(1);
const five = await applyAfter(5);

// One-file change as a user sees it from the command line (Node start-up included), for reference.
const cli = [];
for (let i = 0; i < 5; i++) {
  edit(editable[i * 13 % editable.length]);
  const t = performance.now();
  execFileSync(process.execPath, [path.join(here, '..', 'bin', 'cg.js'), 'update', '-q'], { cwd: dir, stdio: 'ignore' });
  cli.push(performance.now() - t);
}

// Branch switch far away.
git(dir, 'checkout', '-q', '-f', '.');
git(dir, 'clean', '-qfd', '-e', '.codegraph');
await updateIndex(dir);
const switched = git(dir, 'diff', '--name-only', at, far).split('\n').filter((f) => languageForFile(f)).length;
git(dir, 'checkout', '-q', '--detach', far);
const [switchTime, switchRes] = await time(() => updateIndex(dir));

fs.rmSync(scratch, { recursive: true, force: true });
const rebuildMs = pct(rebuilds, 50);
const result = {
  label, repo, at, far, runs,
  date: new Date().toISOString().slice(0, 10),
  machine: `${os.cpus()[0].model}, ${os.availableParallelism()} cores`,
  ...(opt('--note') ? { note: opt('--note') } : {}),
  gitIndexRefreshedBeforeApplies: true,
  corpus: { files: files.length, loc, indexedFiles: summary.files, symbols: summary.symbols },
  fullRebuildMs: { median: ms(rebuildMs), all: rebuilds.map(ms) },
  hookMs: { p50: ms(pct(hookTimes, 50)), p95: ms(pct(hookTimes, 95)), n: hookTimes.length },
  oneFileMs: { p50: ms(pct(one.map((x) => x.t), 50)), p95: ms(pct(one.map((x) => x.t), 95)), resolvedFilesP50: pct(one.map((x) => x.resolved), 50) },
  fiveFilesMs: { p50: ms(pct(five.map((x) => x.t), 50)), p95: ms(pct(five.map((x) => x.t), 95)), resolvedFilesP50: pct(five.map((x) => x.resolved), 50) },
  oneFileCliMs: { p50: ms(pct(cli, 50)) },
  branchSwitch: { changedFiles: switched, ms: ms(switchTime), mode: switchRes.rounds[0].mode, ratioToRebuild: +(switchTime / rebuildMs).toFixed(2) },
};
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'bench-freshness.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
console.log(`
| ${label}: ${files.length} files, ${loc} lines | p50 | p95 | target |
|---|---|---|---|
| hook return (sh post-commit) | ${result.hookMs.p50} ms | ${result.hookMs.p95} ms | p95 <= 20 ms |
| one-file change applied | ${result.oneFileMs.p50} ms | ${result.oneFileMs.p95} ms | p95 <= 100 ms |
| five-file change applied | ${result.fiveFilesMs.p50} ms | ${result.fiveFilesMs.p95} ms | <= 300 ms |
| one-file change, \`cg update\` process | ${result.oneFileCliMs.p50} ms | | (Node start-up included) |
| branch switch, ${switched} files (${result.branchSwitch.mode}) | ${result.branchSwitch.ms} ms | | vs full rebuild ${result.fullRebuildMs.median} ms (${result.branchSwitch.ratioToRebuild}x) |`);
