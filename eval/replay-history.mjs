#!/usr/bin/env node
// Real history through the incremental applier: a fresh clone of a repository at HEAD~N is indexed, then
// each of the N first-parent commits up to HEAD is checked out and applied with `cg update` (the real CLI,
// one process per commit, as a post-checkout hook would start it); at the end the index is compared, row by
// row without internal ids (dumpIndex), with a full build of the same working tree. Reports each update's
// files re-resolved and time. With --base, another built checkout of cg replays the same commits in a clone
// of its own, alternating commit by commit, and is compared with the same full build. Writes
// eval/results/replay-history.json under --label.
//
// test/incremental.test.ts proves the same on generated repositories; this finds what generated ones do not
// (sqlalchemy's history showed a partial resolution depending on which file's scope it built first).
//
// Usage: npm run build && node eval/replay-history.mjs --repo GIT_DIR [--commits 30] [--base CG_CHECKOUT] [--label NAME]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { option } from './lib/args.mjs';
import { median } from './lib/metrics.mjs';
import { saveResult } from './lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const repo = option(argv, '--repo');
const commits = Number(option(argv, '--commits', '30'));
const base = option(argv, '--base');
const label = option(argv, '--label', repo ? path.basename(path.resolve(repo, repo.endsWith('/repo') ? '..' : '.')) : '');
const out = option(argv, '--out', path.join(here, 'results', 'replay-history.json'));
if (!repo) {
  console.error('Usage: node eval/replay-history.mjs --repo GIT_DIR [--commits 30] [--base CG_CHECKOUT] [--label NAME]');
  process.exit(2);
}
const { dumpIndex } = await import(path.join(here, '..', 'dist', 'store', 'dump.js'));
const { currentDbPath } = await import(path.join(here, '..', 'dist', 'store', 'db.js'));

const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();
const list = git(repo, 'log', '--first-parent', '--format=%H', `-${commits + 1}`).split('\n').reverse();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-replay-'));
const sides = { head: path.join(here, '..'), ...(base ? { base: path.resolve(base) } : {}) };

function cg(checkout, cwd, args) {
  const res = spawnSync(process.execPath, [path.join(checkout, 'bin', 'cg.js'), ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (res.status !== 0) throw new Error(`cg ${args.join(' ')} failed (${res.status}) in ${cwd}: ${res.stderr}`);
  return res.stdout;
}

function dumpOf(root) {
  const db = new Database(currentDbPath(root), { readonly: true });
  try {
    return dumpIndex(db);
  } finally {
    db.close();
  }
}

/** Rows only one of two dumps holds, per table. */
function differences(a, b) {
  const out = {};
  for (const t of Object.keys(b)) {
    const A = new Set(a[t].map((r) => JSON.stringify(r)));
    const B = new Set(b[t].map((r) => JSON.stringify(r)));
    const n = [...A].filter((r) => !B.has(r)).length + [...B].filter((r) => !A.has(r)).length;
    if (n) out[t] = n;
  }
  return out;
}

const clones = {};
for (const side of Object.keys(sides)) {
  clones[side] = path.join(scratch, side);
  git(scratch, 'clone', '-q', path.resolve(repo), clones[side]);
  git(clones[side], 'checkout', '-q', list[0]);
  cg(sides[side], clones[side], ['index', '-q']);
}
console.log(`${label}: ${commits} commits from ${list[0].slice(0, 10)} to ${list.at(-1).slice(0, 10)}, sides: ${Object.keys(sides).join(', ')}`);
const updates = Object.fromEntries(Object.keys(sides).map((s) => [s, []]));
for (const [i, sha] of list.slice(1).entries()) {
  for (const side of i % 2 ? Object.keys(sides).reverse() : Object.keys(sides)) {
    git(clones[side], 'checkout', '-q', sha);
    const t0 = performance.now();
    const res = JSON.parse(cg(sides[side], clones[side], ['update', '--json']));
    const ms = Math.round(performance.now() - t0);
    const rounds = res.rounds ?? [];
    updates[side].push({ commit: sha.slice(0, 10), ms, modes: rounds.map((r) => r.mode), resolvedFiles: rounds.map((r) => r.resolvedFiles ?? null),
      resolveMs: rounds.reduce((n, r) => n + (r.phasesMs?.resolve ?? 0), 0) });
  }
  process.stderr.write(`\r${i + 1}/${commits}`);
}
process.stderr.write('\n');
// The full build of the final tree, by this checkout, compared with each side's replay.
const full = path.join(scratch, 'full');
git(scratch, 'clone', '-q', path.resolve(repo), full);
git(full, 'checkout', '-q', list.at(-1));
cg(sides.head, full, ['index', '-q']);
const expected = dumpOf(full);
const result = { date: new Date().toISOString(), repo: path.resolve(repo), commits, from: list[0], to: list.at(-1), sides: {} };
for (const side of Object.keys(sides)) {
  const diff = differences(dumpOf(clones[side]), expected);
  const ms = updates[side].map((u) => u.ms);
  result.sides[side] = { checkout: sides[side], equalsFullBuild: Object.keys(diff).length === 0, differences: diff,
    totalMs: ms.reduce((a, b) => a + b, 0), medianMs: median(ms), updates: updates[side] };
  console.log(`${side}: ${Object.keys(diff).length ? `DIFFERS from the full build (${JSON.stringify(diff)})` : 'equals the full build'}; `
    + `updates: total ${(result.sides[side].totalMs / 1000).toFixed(1)} s, median ${median(ms)} ms`);
}
fs.rmSync(scratch, { recursive: true, force: true });
saveResult(out, label, result);
console.log(`written: ${path.relative(process.cwd(), out)} [${label}]`);
