#!/usr/bin/env node
// For every task of the training corpus (train/mine-corpus.mjs), cg's own candidate generation and the
// learned ranker's features of each candidate file (src/retrieve/features.ts, the very code a query
// runs), with the task's gold as labels.
//
// One checkout and one index per repository, at the corpus's index commit, kept under --work so a
// second run (new features, same corpus) only re-queries. Output: one JSONL file per repository under
// <corpus>/features/. Run it under `nice`: indexing 190 repositories takes about an hour on 2 cores.
//
// Usage: npm run build && node train/dump-features.mjs [--corpus $TMPDIR/cg-train] [--work DIR] [--mirrors /work/.mirror]
//                                                      [--repos owner/name,...] [--force] [--reindex] [--reverse]
//   Repositories whose features were dumped already are skipped unless --force (or named in --repos).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { buildIndex } from '../dist/indexer/build.js';
import { openReader, readMeta } from '../dist/store/db.js';
import { rankCandidates } from '../dist/retrieve/query.js';
import { FEATURES } from '../dist/retrieve/features.js';
import { gitDirOf, readRepoList } from './mine-corpus.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const corpus = opt('--corpus', path.join(os.tmpdir(), 'cg-train'));
const work = opt('--work', path.join(corpus, 'checkouts'));
const mirrors = opt('--mirrors', '/work/.mirror');
const only = opt('--repos', '') ? new Set(opt('--repos', '').split(',')) : null;
// The ranker is not needed to compute its features; a stale one must not change what is recorded.
process.env.CG_RANKER_FILE = path.join(corpus, 'no-ranker.json');

const git = (...a) => execFileSync('git', a, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** A working tree of the repository at `commit`, borrowing the mirror's objects. */
function checkout(repo, commit) {
  const dir = path.join(work, repo.replace('/', '+'));
  if (fs.existsSync(path.join(dir, '.git'))) {
    if (git('-C', dir, 'rev-parse', 'HEAD').trim() === commit) return dir;
    fs.rmSync(dir, { recursive: true, force: true });
  }
  fs.mkdirSync(work, { recursive: true });
  git('clone', '--quiet', '--shared', '--no-checkout', gitDirOf(mirrors, repo), dir);
  git('-C', dir, 'checkout', '--quiet', '--detach', commit);
  return dir;
}

/** An index of the checkout at its HEAD: reused when one exists (unless --reindex), else built. */
async function indexOf(dir, commit) {
  if (!args.includes('--reindex')) {
    try {
      const db = openReader(dir);
      if (readMeta(db).indexed_commit === commit) return { db, ms: 0 };
      db.close();
    } catch { /* none yet, or of another schema */ }
  }
  fs.rmSync(path.join(dir, '.codegraph'), { recursive: true, force: true });
  const t = performance.now();
  await buildIndex(dir);
  return { db: openReader(dir), ms: performance.now() - t };
}

async function main() {
  // The repositories mined so far, in the list's order (this can run beside a mining still under way).
  const manifest = readRepoList().filter((r) => fs.existsSync(path.join(corpus, 'tasks', `${r.repo.replace('/', '+')}.jsonl`)));
  if (args.includes('--reverse')) manifest.reverse();
  const outDir = path.join(corpus, 'features');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'features.json'), `${JSON.stringify(FEATURES)}\n`);
  for (const [i, m] of manifest.entries()) {
    if (only && !only.has(m.repo)) continue;
    const name = m.repo.replace('/', '+');
    const outFile = path.join(outDir, `${name}.jsonl`);
    if (!only && !args.includes('--force') && fs.existsSync(outFile)) continue;
    const tasks = fs.readFileSync(path.join(corpus, 'tasks', `${name}.jsonl`), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    if (!tasks.length) continue;
    // Several dumps may run at once (--reverse takes the list from its end): one repository, one claimant.
    let claim;
    try {
      claim = fs.openSync(`${outFile}.lock`, 'wx');
    } catch {
      continue;
    }
    m.index_commit = tasks[0].index_commit;
    const t0 = performance.now();
    let db;
    let indexMs;
    try {
      const dir = checkout(m.repo, m.index_commit);
      ({ db, ms: indexMs } = await indexOf(dir, m.index_commit));
      const lines = [];
      for (const task of tasks) {
        const { ranked, candidates } = await rankCandidates(db, dir, { text: task.description, preset: 'learned' });
        const gold = new Set(task.source_files_edited);
        const goldRanks = ranked.flatMap((r, k) => (gold.has(r.path) ? [k] : []));
        lines.push(JSON.stringify({
          task_id: task.task_id, repo: task.repo, language: task.language, gold: task.source_files_edited, ranked: ranked.length,
          gold_ranks: goldRanks,
          cands: candidates.map((c) => ({ path: c.file.path, label: gold.has(c.file.path) ? 1 : 0, x: [...c.features].map((v) => Math.round(v * 1e6) / 1e6) })),
        }));
      }
      fs.writeFileSync(outFile, lines.map((l) => `${l}\n`).join(''));
      console.error(`[${i + 1}/${manifest.length}] ${m.repo}: ${tasks.length} tasks; index ${(indexMs / 1000).toFixed(1)} s, total ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } catch (err) {
      console.error(`[${i + 1}/${manifest.length}] ${m.repo}: failed: ${String(err?.message ?? err).split('\n')[0]}`);
    } finally {
      db?.close();
      fs.closeSync(claim);
      fs.rmSync(`${outFile}.lock`, { force: true });
    }
  }
}

await main();
