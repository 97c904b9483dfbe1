#!/usr/bin/env node
// Footprint (issue 20; PRD: an index on disk <= 1.5x the indexed source, snapshots <= 1x the source): a
// repository is cloned and indexed from scratch by `cg index` (the real CLI), then measured:
//   - the source: bytes of the files the index holds (files.size, dependencies' files left out) and of
//     every file git tracks;
//   - the index: the live build's database and vector files, and the database by table and index (dbstat);
//   - the snapshot: `cg snapshot create` of the indexed commit (a .tar.gz).
// With --base <checkout> the same is done by that checkout's cg too, and the full index is timed for
// both, alternating, --runs times (medians). Writes eval/results/footprint.json under --label.
//
//   node eval/footprint.mjs --repo /tmp/f20/django [--base /path/to/main-checkout] [--runs 3] [--label django]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { saveResult } from './lib/results.mjs';
import { median } from './lib/metrics.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: opt } = parseArgs({
  options: {
    repo: { type: 'string' }, base: { type: 'string' }, runs: { type: 'string', default: '1' },
    label: { type: 'string' }, out: { type: 'string', default: path.join(here, 'results', 'footprint.json') },
  },
});
if (!opt.repo) {
  console.error('Usage: node eval/footprint.mjs --repo <git work tree> [--base <cg checkout>] [--runs N] [--label NAME]');
  process.exit(2);
}
const label = opt.label ?? path.basename(path.resolve(opt.repo));
const sides = { head: path.join(here, '..') };
if (opt.base) sides.base = path.resolve(opt.base);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-footprint-'));
const MB = (n) => Math.round(n / 1e4) / 100;

function cg(checkout, argv, cwd) {
  const t0 = performance.now();
  const res = spawnSync(process.execPath, [path.join(checkout, 'bin', 'cg.js'), ...argv], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (res.status !== 0) throw new Error(`cg ${argv.join(' ')} failed (${res.status}): ${res.stdout}${res.stderr}`);
  return { ms: performance.now() - t0, stdout: res.stdout };
}

function trackedBytes(dir) {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 }).split('\0').filter(Boolean);
  return files.reduce((n, f) => n + (fs.lstatSync(path.join(dir, f), { throwIfNoEntry: false })?.size ?? 0), 0);
}

function measure(checkout, dir) {
  const build = fs.readFileSync(path.join(dir, '.codegraph', 'CURRENT'), 'utf8').trim();
  const buildDir = path.join(dir, '.codegraph', 'builds', build);
  const dbFile = path.join(buildDir, 'index.db');
  const db = new Database(dbFile);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const indexed = db.prepare('SELECT SUM(size) FROM files WHERE external = 0').pluck().get();
  const tables = Object.fromEntries((db.prepare('SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC').raw().all())
    .map(([name, bytes]) => [name, bytes]));
  db.close();
  const files = Object.fromEntries(fs.readdirSync(buildDir).map((f) => [f, fs.statSync(path.join(buildDir, f)).size]));
  const indexBytes = Object.values(files).reduce((a, b) => a + b, 0);
  const out = path.join(scratch, `snap-${path.basename(dir)}`);
  const snap = JSON.parse(cg(checkout, ['snapshot', 'create', '--out', out, '--json'], dir).stdout);
  const tracked = trackedBytes(dir);
  return {
    indexedSourceBytes: indexed, trackedBytes: tracked, indexBytes, files, snapshotBytes: snap.bytes,
    indexToSource: Math.round((indexBytes / indexed) * 100) / 100,
    snapshotToTracked: Math.round((snap.bytes / tracked) * 100) / 100,
    snapshotToSource: Math.round((snap.bytes / indexed) * 100) / 100,
    tables,
  };
}

const dirs = {};
for (const name of Object.keys(sides)) {
  dirs[name] = path.join(scratch, name);
  execFileSync('git', ['clone', '-q', '--shared', path.resolve(opt.repo), dirs[name]]);
}
// Full builds, alternating (the first side swapped each round); the last build of each side is measured.
const ms = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
const runs = Math.max(1, Number(opt.runs));
for (let r = 0; r < runs; r++) {
  const order = Object.keys(sides);
  if (r % 2) order.reverse();
  for (const name of order) ms[name].push(cg(sides[name], ['index', '--full', '-q'], dirs[name]).ms);
}
const result = { date: new Date().toISOString(), repo: path.basename(path.resolve(opt.repo)), runs };
for (const name of Object.keys(sides)) {
  const m = measure(sides[name], dirs[name]);
  result[name] = { ...m, fullIndexMs: Math.round(median(ms[name])), fullIndexRunsMs: ms[name].map(Math.round) };
  console.log(`${name}: index ${MB(m.indexBytes)} MB for ${MB(m.indexedSourceBytes)} MB of source (${m.indexToSource}x); `
    + `snapshot ${MB(m.snapshotBytes)} MB for ${MB(m.trackedBytes)} MB tracked (${m.snapshotToTracked}x); full index ${Math.round(median(ms[name]))} ms`);
  const top = Object.entries(m.tables).slice(0, 12).map(([t, b]) => `${t} ${MB(b)}`).join(', ');
  console.log(`  by table (MB): ${top}`);
}
saveResult(opt.out, label, result);
fs.rmSync(scratch, { recursive: true, force: true });
