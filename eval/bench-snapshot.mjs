#!/usr/bin/env node
// Snapshot restore benchmark (issue 5): a real repository with a long history (default: pallets/jinja
// from /work/.mirror), a snapshot made at HEAD~N, then, in the same run and interleaved:
//   - restore + catch-up: `cg snapshot restore FILE` in a fresh clone at HEAD (verify, unpack, publish,
//     then the incremental applier brings it from HEAD~N to HEAD);
//   - full rebuild: `cg index --full` in a fresh clone at HEAD.
// Both are the real CLI as child processes (Node start-up included), as a CI job would run them.
// After the runs, the restored + caught-up index is compared with the full build (dumpIndex) so the
// speed-up is never bought with a different index. Prints medians, p95 and the ratio; writes
// eval/results/bench-snapshot.json.
//
// Usage: node eval/bench-snapshot.mjs [--repo GIT_DIR] [--behind N] [--runs R] [--label NAME]   (--behind 0: the restore alone)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { saveResult } from './lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const cg = path.join(here, '..', 'bin', 'cg.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const source = opt('--repo', '/work/.mirror/pallets+jinja/repo');
const behind = Number(opt('--behind', '50'));
const runs = Number(opt('--runs', '3'));
const label = opt('--label', path.basename(path.dirname(source)).replace('+', '/'));
if (!fs.existsSync(source)) {
  console.error(`Repository not found: ${source} (pass --repo GIT_DIR)`);
  process.exit(2);
}
// --behind 0 measures the restore alone (nothing to catch up): the floor every catch-up adds to.
if (!(Number.isInteger(behind) && behind >= 0)) throw new Error('--behind must be a whole number, 0 or more');

const { openReader } = await import('../dist/store/db.js');
const { dumpIndex } = await import('../dist/store/dump.js');

const git = (cwd, ...a) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).trim();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-snap-'));

function clone(name, rev) {
  const dir = path.join(scratch, name);
  execFileSync('git', ['clone', '-q', '--shared', source, dir]);
  git(dir, 'checkout', '-q', '--detach', rev);
  return dir;
}

function cgRun(argv, cwd) {
  const t0 = performance.now();
  const res = spawnSync(process.execPath, [cg, ...argv, '--json'], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (res.status !== 0) throw new Error(`cg ${argv.join(' ')} failed (${res.status}): ${res.stdout}${res.stderr}`);
  return { ms, json: JSON.parse(res.stdout) };
}

const head = git(source, 'rev-parse', 'HEAD');
const commits = Number(git(source, 'rev-list', '--count', head));
const base = git(source, 'rev-parse', `${head}~${behind}`);
const changed = git(source, 'diff', '--name-only', base, head).split('\n').filter(Boolean).length;
console.log(`${label}: ${commits} commits; snapshot at HEAD~${behind} (${base.slice(0, 10)}), ${changed} paths differ from HEAD (${head.slice(0, 10)})`);
console.log('Note: measured on a 2-core machine shared with other work; compare the ratio, not absolute times.');

// The snapshot, as CI would have made it on an earlier push.
const maker = clone('maker', base);
const built = cgRun(['index', '--full', '-q'], maker);
const snap = cgRun(['snapshot', 'create', '--out', path.join(scratch, 'artifacts')], maker);
console.log(`snapshot: ${(snap.json.bytes / 1e6).toFixed(2)} MB (${snap.json.manifest.counts.files} files, ${snap.json.manifest.counts.symbols} symbols, `
  + `${snap.json.manifest.counts.vectors} vectors), created in ${Math.round(snap.ms)} ms after a ${Math.round(built.ms)} ms build`);

// Source size at HEAD: every tracked file, and the files cg indexes.
const tracked = git(source, 'ls-tree', '-r', '-l', head).split('\n').reduce((n, l) => n + (Number(l.split(/\s+/)[3]) || 0), 0);

const restoreMs = [];
const fullMs = [];
// Third column: the same catch-up in a clone that was indexed at HEAD~N and then moved to HEAD (a plain
// `cg update`), to show which part of restore + catch-up is the restore itself.
const updateMs = [];
let restoredDir = null;
let fullDir = null;
let catchUp = null;
for (let i = 0; i < runs; i++) {
  // Fresh clones each run, outside the timing: a CI job starts from a new checkout.
  const r = clone(`restore-${i}`, head);
  const f = clone(`full-${i}`, head);
  const rr = cgRun(['snapshot', 'restore', snap.json.file], r);
  restoreMs.push(rr.ms);
  catchUp = rr.json.catchUp;
  const ff = cgRun(['index', '--full', '-q'], f);
  fullMs.push(ff.ms);
  const u = clone(`update-${i}`, base);
  cgRun(['index', '--full', '-q'], u);
  git(u, 'checkout', '-q', '--detach', head);
  const uu = cgRun(['update', '-q'], u);
  updateMs.push(uu.ms);
  fs.rmSync(u, { recursive: true, force: true });
  console.log(`run ${i + 1}: restore + catch-up ${Math.round(rr.ms)} ms (verify ${rr.json.phasesMs.verify}, swap ${rr.json.phasesMs.swap}, `
    + `catch-up ${rr.json.phasesMs.catchUp} ms: ${rr.json.catchUp.mode}, +${rr.json.catchUp.added} ~${rr.json.catchUp.modified} -${rr.json.catchUp.deleted}); `
    + `full rebuild ${Math.round(ff.ms)} ms; plain cg update over the same commits ${Math.round(uu.ms)} ms`);
  if (restoredDir) fs.rmSync(restoredDir, { recursive: true, force: true });
  if (fullDir) fs.rmSync(fullDir, { recursive: true, force: true });
  restoredDir = r;
  fullDir = f;
}

const dumps = [restoredDir, fullDir].map((d) => {
  const db = openReader(d);
  try {
    return JSON.stringify(dumpIndex(db));
  } finally {
    db.close();
  }
});
const indexed = (() => {
  const db = openReader(fullDir);
  try {
    return db.prepare('SELECT COUNT(*) AS files, SUM(size) AS bytes FROM files').get();
  } finally {
    db.close();
  }
})();

const result = {
  corpus: label,
  repository: source,
  commits,
  head,
  snapshotCommit: base,
  behind,
  changedPaths: changed,
  runs,
  machine: `${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), shared with other work while measured`,
  snapshot: { bytes: snap.json.bytes, sha256: snap.json.sha256, counts: snap.json.manifest.counts, createMs: Math.round(snap.ms) },
  sourceBytes: { tracked, indexed: indexed.bytes, indexedFiles: indexed.files },
  sizeRatio: { toTracked: +(snap.json.bytes / tracked).toFixed(3), toIndexed: +(snap.json.bytes / indexed.bytes).toFixed(3) },
  restoreCatchUpMs: { median: Math.round(median(restoreMs)), p95: Math.round(p95(restoreMs)), all: restoreMs.map(Math.round) },
  fullRebuildMs: { median: Math.round(median(fullMs)), p95: Math.round(p95(fullMs)), all: fullMs.map(Math.round) },
  plainUpdateMs: { median: Math.round(median(updateMs)), p95: Math.round(p95(updateMs)), all: updateMs.map(Math.round) },
  speedup: +(median(fullMs) / median(restoreMs)).toFixed(2),
  catchUp,
  sameIndexAsFullBuild: dumps[0] === dumps[1],
};
console.log(`\nrestore + catch-up: median ${result.restoreCatchUpMs.median} ms, p95 ${result.restoreCatchUpMs.p95} ms`);
console.log(`full rebuild:       median ${result.fullRebuildMs.median} ms, p95 ${result.fullRebuildMs.p95} ms`);
console.log(`plain cg update over the same commits (an index already at HEAD~${behind}): median ${result.plainUpdateMs.median} ms`);
console.log(`speed-up: ${result.speedup}x; snapshot ${(result.snapshot.bytes / 1e6).toFixed(2)} MB = ${result.sizeRatio.toTracked}x the tracked source `
  + `(${(tracked / 1e6).toFixed(2)} MB), ${result.sizeRatio.toIndexed}x the indexed source (${(indexed.bytes / 1e6).toFixed(2)} MB)`);
console.log(`restored + caught-up index identical to the full build: ${result.sameIndexAsFullBuild}`);
const out = path.join(here, 'results', 'bench-snapshot.json');
saveResult(out, label, result);
console.log(`wrote ${path.relative(process.cwd(), out)}`);
fs.rmSync(scratch, { recursive: true, force: true });
