#!/usr/bin/env node
// The training corpus of cg's ranker: retrieval tasks mined from the history of the public repositories
// in train/repos.txt (none of them in ../shared/train/EXCLUDED.txt), by the evaluation's own rules
// (eval/mine-tasks.mjs: commit selection, chore filters, change-set limits, description cleaning), with
// three differences made for training:
//   - every qualifying commit of a window counts (at most MAX_TASKS a repository, spread evenly over the
//     window), not the best of ten date buckets;
//   - all tasks of a repository share one index: the window is the last WINDOW first-parent commits of
//     the mirror's HEAD (the newer half of a shorter history), the index is taken at the commit before the window (`index_commit`), and a task's
//     gold is the edited source files that exist there. The index never holds a task's answer (it is
//     older than every task); it can lag a task's own parent by up to WINDOW commits. File names become
//     [file] by that commit's tree and the task's own files;
//   - no functions_edited (the ranker learns files).
// The tasks hold third-party commit messages: they are written outside the project (default under
// $TMPDIR/cg-train); only this script, the repository list and train/corpus.json (each repository's
// HEAD, index commit and task count, and the corpus's sha256) are committed.
//
// Usage: node train/mine-corpus.mjs [--mirrors /work/.mirror] [--out DIR] [--repos owner/name,...]
//   then: node train/dump-features.mjs   (see train/README.md)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { candidatesOf, cleanDescription, treeWords, words } from '../eval/mine-tasks.mjs';

export const SCRIPT_VERSION = 2;
/** First-parent commits of a repository's recent history that its tasks come from. */
export const WINDOW = 250;
/** Tasks a repository gives at most, so a few busy repositories do not make the corpus. */
export const MAX_TASKS = 40;

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);

const JS_TS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.jsx'];
export const EXTENSIONS = {
  python: ['.py'], typescript: JS_TS, javascript: JS_TS, go: ['.go'], java: ['.java'], php: ['.php'], rust: ['.rs'], swift: ['.swift'],
};

/** The repository list: `owner/name language` a line, `#` comments. */
export function readRepoList(file = path.join(here, 'repos.txt')) {
  return fs.readFileSync(file, 'utf8').split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean).map((l) => {
    const [repo, language] = l.split(/\s+/);
    if (!EXTENSIONS[language]) throw new Error(`${file}: ${repo} has no known language (${language})`);
    return { repo, language };
  });
}

/** owner/name of every repository reserved for evaluation. */
export function excludedRepos(file = path.join(here, '..', '..', 'shared', 'train', 'EXCLUDED.txt')) {
  const fallback = '/work/shared/train/EXCLUDED.txt';
  const text = fs.readFileSync(fs.existsSync(file) ? file : fallback, 'utf8');
  return new Set(text.split('\n').map((l) => l.replace(/#.*/, '').trim().toLowerCase()).filter(Boolean));
}

export function gitDirOf(mirrors, repo) {
  const base = path.join(mirrors, repo.replace('/', '+'), 'repo');
  return fs.existsSync(path.join(base, '.git')) ? path.join(base, '.git') : base;
}

const git = (dir, ...a) => execFileSync('git', ['--git-dir', dir, ...a], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * A task in the evaluation's format (eval/mine-tasks.mjs taskOf) without functions_edited, which costs
 * three git calls a file and which the file ranker does not learn from.
 */
function taskOf(repo, c, atIndex, indexCommit) {
  const source = c.existingSource.map((e) => e.old).sort();
  return {
    task_id: `${repo.replace('/', '__')}@${c.sha.slice(0, 10)}`, repo, language: c.language, commit_before: c.parent, commit_after: c.sha,
    description: c.description,
    files_edited: c.set.filter((e) => c.kindOf(e) !== 'A').map((e) => e.old).sort(),
    source_files_edited: source.filter((f) => atIndex.has(f)),
    files_added: c.set.filter((e) => c.kindOf(e) === 'A').map((e) => e.path).sort(),
    date: c.date, subject: c.description.split('\n')[0], source_lines_changed: c.sourceLines, index_commit: indexCommit,
  };
}

/** At most n of the items, evenly spread, in order. */
function spread(items, n) {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]);
}

/** The tasks of one repository and the commit its index is taken at. */
export function mineTraining(repo, language, dir) {
  const head = git(dir, 'rev-parse', 'HEAD').trim();
  const firstParents = git(dir, 'rev-list', '--first-parent', 'HEAD').split('\n').filter(Boolean);
  if (firstParents.length < 4) return { head, indexCommit: null, candidates: 0, tasks: [] };
  // A short history gives its newer half: an index of the first commits would hold little of the code.
  const indexCommit = firstParents[Math.min(WINDOW, Math.floor(firstParents.length / 2))];
  const cfg = { language, roots: [''], exts: EXTENSIONS[language], range: `${indexCommit}..${head}` };
  const atIndex = new Set(git(dir, 'ls-tree', '-r', '--name-only', indexCommit).split('\n').filter(Boolean));
  const cands = candidatesOf(dir, cfg)
    .map((c) => Object.assign(c, { language }))
    .filter((c) => c.existingSource.some((e) => atIndex.has(e.old)))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.sha < b.sha ? -1 : 1));
  // Cleaning a description reads its parent's whole tree: only twice as many as are needed are cleaned,
  // evenly spread over the window, among those whose raw message has the words a cleaned one must keep.
  const wordy = cands.filter((c) => words(c.message).length >= 8);
  // File names become [file] by the index commit's tree (one read for the whole window) and the commit's own files.
  const tree = treeWords(dir, indexCommit);
  const usable = spread(wordy, 2 * MAX_TASKS).filter((c) => {
    const own = new Set(c.set.flatMap((e) => [e.path, e.old, path.posix.basename(e.path)]));
    c.description = cleanDescription(c.message, { has: (w) => tree.has(w) || own.has(w) });
    return words(c.description).length >= 8;
  });
  const picked = spread(usable, MAX_TASKS);
  const tasks = picked.map((c) => taskOf(repo, c, atIndex, indexCommit)).filter((t) => t.source_files_edited.length);
  return { head, indexCommit, candidates: cands.length, tasks };
}

function main() {
  const mirrors = opt('--mirrors', '/work/.mirror');
  const out = opt('--out', path.join(os.tmpdir(), 'cg-train'));
  const only = opt('--repos', '') ? new Set(opt('--repos', '').split(',')) : null;
  const excluded = excludedRepos();
  const list = readRepoList().filter((r) => !only || only.has(r.repo));
  for (const r of list) {
    if (excluded.has(r.repo.toLowerCase())) throw new Error(`${r.repo} is reserved for evaluation (EXCLUDED.txt): remove it from train/repos.txt`);
  }
  fs.mkdirSync(path.join(out, 'tasks'), { recursive: true });
  const manifest = [];
  for (const [i, { repo, language }] of list.entries()) {
    const dir = gitDirOf(mirrors, repo);
    if (!fs.existsSync(dir)) {
      console.error(`${repo}: no mirror at ${dir} (bring it with fetch): skipped`);
      manifest.push({ repo, language, error: 'no mirror' });
      continue;
    }
    const t = Date.now();
    let mined;
    try {
      mined = mineTraining(repo, language, dir);
    } catch (err) {
      console.error(`${repo}: ${String(err.message ?? err).split('\n')[0]}: skipped`);
      manifest.push({ repo, language, error: String(err.message ?? err).split('\n')[0] });
      continue;
    }
    const file = path.join(out, 'tasks', `${repo.replace('/', '+')}.jsonl`);
    fs.writeFileSync(file, mined.tasks.map((x) => `${JSON.stringify(x)}\n`).join(''));
    manifest.push({ repo, language, head: mined.head, index_commit: mined.indexCommit, tasks: mined.tasks.length });
    console.error(`[${i + 1}/${list.length}] ${repo}: ${mined.candidates} qualifying commits, ${mined.tasks.length} tasks (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  }
  // The corpus's hash: every task file, in the list's order.
  const hash = crypto.createHash('sha256');
  for (const m of manifest) {
    if (m.error) continue;
    hash.update(fs.readFileSync(path.join(out, 'tasks', `${m.repo.replace('/', '+')}.jsonl`)));
  }
  const corpus = {
    script_version: SCRIPT_VERSION, window: WINDOW, max_tasks: MAX_TASKS, sha256: hash.digest('hex'),
    repositories: manifest.filter((m) => !m.error).length, tasks: manifest.reduce((n, m) => n + (m.tasks ?? 0), 0), manifest,
  };
  fs.writeFileSync(path.join(out, 'corpus.json'), `${JSON.stringify(corpus, null, 1)}\n`);
  if (!only) fs.writeFileSync(path.join(here, 'corpus.json'), `${JSON.stringify(corpus, null, 1)}\n`);
  console.error(`${corpus.repositories} repositories, ${corpus.tasks} tasks; sha256 ${corpus.sha256}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
