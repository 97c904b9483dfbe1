#!/usr/bin/env node
// Held-out retrieval tasks: mines tasks in the format of ../shared/eval/dev-tasks.jsonl from repositories
// that are NOT in the dev set, following the dev set README's rules (§2.2 roots and test files, §3.1
// commit selection, §3.2 description cleaning, §3.3 choosing up to 10 per repository, §3.4
// functions_edited), so cg's ranking can be checked on code it was never tuned on.
//
// Differences from the dev set's miner, which is not published:
//   - the per-commit jitter of §3.3 is a hash of "7:<sha>" (FNV-1a, scaled to [0, 0.8)), not Python's
//     random.Random("7:<sha>"), so the choice within a bucket can differ from what that miner would take;
//   - functions_edited maps each changed line of the parent's file to its enclosing definitions by
//     indentation and per-language regexes (§3.4), a best effort like the original's;
//   - roots, windows and excluded folders per repository are ours (the table below).
// The output holds third-party commit messages: it is written outside the project (default under
// $TMPDIR) and never committed; only this script and the evaluation reports are.
//
// Usage: node eval/mine-tasks.mjs [--mirrors DIR] [--out FILE] [--repos owner/name,...] [--per-repo 10]
//   then: node eval/run.mjs --tasks FILE --out eval/results/heldout
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const mirrors = opt('--mirrors', '/work/.mirror');
const out = opt('--out', path.join(os.tmpdir(), 'cg-heldout', 'heldout-tasks.jsonl'));
const perRepo = Number(opt('--per-repo', '10'));

const JS_TS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.jsx'];
/** Held-out repositories: none is in the dev set. roots/exclude are path prefixes; since is the window start. */
export const REPOS = {
  'Seldaek/monolog': { language: 'php', roots: ['src/', 'tests/'], exts: ['.php'], since: '2019-01-01' },
  'google/gson': { language: 'java', roots: ['gson/src/main/java/', 'gson/src/test/java/'], exts: ['.java'], since: '2019-01-01' },
  'square/javapoet': { language: 'java', roots: ['src/main/java/', 'src/test/java/'], exts: ['.java'], since: '2017-01-01' },
  'honojs/hono': { language: 'typescript', roots: ['src/'], exts: JS_TS, since: '2022-06-01' },
  'trpc/trpc': { language: 'typescript', roots: ['packages/'], exclude: ['packages/tests/'], exts: JS_TS, since: '2022-06-01' },
  'pallets/click': { language: 'python', roots: ['src/click/', 'tests/'], exts: ['.py'], since: '2021-01-01' },
  'sqlalchemy/sqlalchemy': { language: 'python', roots: ['lib/sqlalchemy/', 'test/'], exts: ['.py'], since: '2023-01-01' },
  'kean/Nuke': { language: 'swift', roots: ['Sources/', 'Tests/'], exts: ['.swift'], since: '2020-01-01' },
  'apple/swift-argument-parser': { language: 'swift', roots: ['Sources/', 'Tests/'], exts: ['.swift'], since: '2020-01-01' },
  'tokio-rs/tokio': {
    language: 'rust', exts: ['.rs'], since: '2022-01-01',
    roots: ['tokio/src/', 'tokio/tests/', 'tokio-util/src/', 'tokio-util/tests/', 'tokio-stream/src/', 'tokio-stream/tests/'],
  },
};

const IGNORED_SEGMENTS = new Set(['docs', 'doc', 'examples', 'example', 'benchmarks', 'benchmark', 'node_modules', 'vendor', 'dist',
  'deno_dist', '__snapshots__', 'fixtures', 'testdata']);
const IGNORED_NAMES = new Set(['setup.py', 'noxfile.py', 'conf.py', 'play.ts', 'playground.ts']);
const TEST_SEGMENTS = new Set(['test', 'tests', '__tests__', 'testing', 'spec', '__mocks__', 'runtime-tests', 'runtime_tests', 'testenv']);

const git = (dir, ...a) => execFileSync('git', ['-C', dir, ...a], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });

/** §2.2: a path under the roots with one of the extensions, outside ignored folders and names. */
export function counted(cfg, p) {
  if (!cfg.roots.some((r) => p.startsWith(r)) || cfg.exclude?.some((r) => p.startsWith(r))) return false;
  if (!cfg.exts.some((e) => p.endsWith(e)) || p.endsWith('.d.ts')) return false;
  const parts = p.split('/');
  return !parts.slice(0, -1).some((s) => IGNORED_SEGMENTS.has(s)) && !IGNORED_NAMES.has(parts.at(-1));
}

/** §2.2: test files by folder or name, per language. */
export function isTest(language, p) {
  const parts = p.split('/');
  const name = parts.at(-1);
  const dirs = parts.slice(0, -1);
  if (dirs.some((s) => TEST_SEGMENTS.has(s))) return true;
  switch (language) {
    case 'python': return /^test_.*\.py$|_test\.py$|^conftest\.py$/.test(name);
    case 'typescript': case 'javascript': return /\.(test|spec|test-d|bench)\.[^.]+$/.test(name);
    case 'go': return name.endsWith('_test.go');
    case 'java': return /Tests?\.java$/.test(name);
    case 'php': return name.endsWith('Test.php');
    case 'rust': return name === 'tests.rs' || dirs.includes('benches');
    case 'swift': return dirs.some((s) => /^tests?$/i.test(s)) || /Tests?\.swift$/.test(name);
    default: return false;
  }
}

const BOT = /dependabot|renovate|pre-commit-ci|github-actions|\[bot\]|greenkeeper|allcontributors/i;
const CHORE_START = /^(revert|release|bump|prepare|version|v?\d+\.\d+|chore|ci\b|build\(deps|build:|docs?:|doc\(|style:|tests?:|tests?\(|lint|format|typo|prettier|merge|update (dependencies|deps|copyright|changelog)|pre-commit|deps:|publish|add (a |more )?tests?\b)/i;
const CHORE_ANY = /typos?\b|spelling|formatting|reformat|bumped version|changelog|dependabot|pre-commit|gofmt|cargo fmt|clippy|documentation|javadoc|phpdoc|docblocks?|docstrings?|doc comments?|\bcomments?\b|\bdocs\b|flaky|error prone|proguard|integration tests?|update \S+ (to|from) v?\d|upgrade \S+ to v?\d/i;

/** §3.1: a chore subject is dropped. */
export function isChore(subject) {
  return CHORE_START.test(subject.trim()) || CHORE_ANY.test(subject);
}

const TRAILER = /^\s*([A-Z][\w-]*-by|Change-Id|Cc|See-also|PR-URL|Part-of|Thanks-to|Generated-by|Assisted-by|Bug|Issue|Refs?):/i;
const ISSUE_ONLY = /^\s*((fix(es|ed)?|close[sd]?|resolve[sd]?|see|ref(s)?|related( to)?)\s*:?\s*)?((\S+\/\S+)?#\d+|https?:\/\/\S+)[\s,.]*$/i;
const NOISE_BULLET = /^\s*[*-]\s*(update \S+|apply suggestions?.*|fix lint.*|lint|typo|wip|review.*|add tests?|cleanup|clean up|format.*|merge .*)\s*$/i;

/**
 * §3.2: subject and body without trailers, issue-only lines, rules, noise bullets, cherry-pick and
 * revert lines and HTML comments; URLs -> [url], PR/issue references removed, file names -> [file].
 */
export function cleanDescription(message, fileWords) {
  const text = message.replace(/\r\n?/g, '\n').replace(/<!--[\s\S]*?-->/g, '');
  const lines = text.split('\n');
  const kept = [lines[0]];
  for (const l of lines.slice(1)) {
    if (TRAILER.test(l) || ISSUE_ONLY.test(l) || /^\s*(-{3,}|={3,})\s*$/.test(l) || NOISE_BULLET.test(l) || /^\s*\*\s*$/.test(l)) continue;
    if (/cherry picked from|This reverts commit/i.test(l)) continue;
    kept.push(l);
  }
  let d = kept.join('\n').replace(/\n{3,}/g, '\n\n').trim();
  d = d.replace(/https?:\/\/[^\s)\]>]+/g, '[url]');
  d = d.replace(/\s*\((?:[\w.-]+\/[\w.-]+)?#\d+\)/g, '').replace(/(?:[\w.-]+\/[\w.-]+)?#\d+\b/g, '');
  // Paths, path suffixes, directories and file names of the tree, relative specifiers, names with a source or config extension.
  d = d.replace(/(?<![\w@])(?:\.{1,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\/?/g, (tok) => {
    const bare = tok.replace(/[.,:;!?)]+$/, '');
    const tail = tok.slice(bare.length);
    if (/^\.{1,2}\//.test(bare)) return `[file]${tail}`;
    if (/\.(py|ts|tsx|js|mjs|cjs|jsx|go|rs|java|php|swift|kt|c|h|cc|cpp|md|rst|toml|lock|ya?ml|cfg|ini|json)$/i.test(bare)) return `[file]${tail}`;
    if (bare.includes('/') && fileWords.has(bare.replace(/\/$/, ''))) return `[file]${tail}`;
    if (fileWords.has(bare) && /\.\w+$/.test(bare)) return `[file]${tail}`;
    return tok;
  });
  return d.trim();
}

export const words = (s) => (s.replace(/\[(file|url)\]/g, ' ').match(/[A-Za-z][A-Za-z'_-]*/g) ?? []);

/** Every path of the parent tree and every run of its segments (directories, suffixes, file names): what becomes [file]. */
export function treeWords(dir, commit) {
  const out = new Set();
  for (const p of git(dir, 'ls-tree', '-r', '--name-only', commit).split('\n').filter(Boolean)) {
    // Every contiguous run of segments: the path, its suffixes, its directories and theirs (`helper/css`).
    const parts = p.split('/');
    for (let i = 0; i < parts.length; i++) for (let j = i + 1; j <= parts.length; j++) out.add(parts.slice(i, j).join('/'));
  }
  return out;
}

/** FNV-1a of "7:<sha>" scaled to [0, 0.8): the deterministic jitter of §3.3 (see the header). */
function jitter(sha) {
  let h = 0x811c9dc5;
  for (const c of `7:${sha}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return ((h >>> 0) / 2 ** 32) * 0.8;
}

const SCORE_WORDS = /\b(fix|bug|crash|error|exception|handle|support|add|allow|feat|implement|option|regression|incorrect|wrong|broken|should|when|missing|respect|preserve|ensure|prevent|avoid)/i;

/** §3.3's score. */
function score(c) {
  let s = 0;
  if (SCORE_WORDS.test(c.subject)) s += 2;
  if (/^(fix|feat|bug)/i.test(c.subject)) s += 1;
  if (/^refactor/i.test(c.subject)) s -= 1.5;
  s += Math.min(words(c.description).length, 60) / 30;
  if (c.testsChanged) s += 0.5;
  if (c.sourceLines > 200) s -= 0.5;
  return s + jitter(c.sha);
}

// §3.4: definitions per language (name in group 1); a changed line's name is the chain of enclosing
// types plus the outermost enclosing function.
const TYPE_DEF = {
  python: /^\s*class\s+(\w+)/,
  go: /^\s*type\s+(\w+)/,
  java: /^\s*(?:[\w@<>,\s]*\s)?(?:class|interface|enum|record)\s+(\w+)/,
  php: /^\s*(?:abstract\s+|final\s+)*(?:class|interface|trait|enum)\s+(\w+)/,
  rust: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:impl(?:<[^>]*>)?\s+(?:[\w:<>, ]+\s+for\s+)?(\w+)|(?:struct|enum|trait|mod)\s+(\w+))/,
  typescript: /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(?:class|interface|namespace)\s+(\w+)/,
  swift: /^\s*(?:(?:public|private|internal|open|fileprivate|final)\s+)*(?:class|struct|enum|protocol|extension|actor)\s+(\w+)/,
};
const FUNC_DEF = {
  python: /^\s*(?:async\s+)?def\s+(\w+)/,
  go: /^\s*func\s+(?:\(\s*\w*\s*\*?(\w+)[^)]*\)\s*)?(\w+)/,
  java: /^\s*(?:(?:public|private|protected|static|final|abstract|synchronized|default|native)\s+)*(?:<[^>]+>\s+)?[\w<>[\],.?\s]+\s+(\w+)\s*\([^;]*$/,
  php: /^\s*(?:(?:public|private|protected|static|final|abstract)\s+)*function\s+&?(\w+)/,
  rust: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"\w+"\s+)?fn\s+(\w+)/,
  typescript: /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\s*\*?\s*(\w+)|(?:const|let|var)\s+(\w+)\s*=\s*(?:async\s+)?(?:function|\([^)]*\)\s*(?::[^=]+)?=>|\w+\s*=>)|(?:(?:public|private|protected|static|async|readonly|get|set|override)\s+)*(\w+)\s*(?:<[^>]*>)?\s*\([^)]*\)?\s*(?::[^{]*)?\{\s*$)/,
  swift: /^\s*(?:(?:public|private|internal|open|fileprivate|final|static|class|override|mutating|@\w+)\s+)*(?:func\s+(\w+)|(init|deinit|subscript)\b|var\s+(\w+)\s*:[^=]*\{\s*$)/,
};
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'else', 'do', 'try', 'new', 'function', 'constructor']);

function enclosing(language, lines, lineNo) {
  const lang = language === 'javascript' ? 'typescript' : language;
  const indent = (l) => l.match(/^\s*/)[0].replace(/\t/g, '    ').length;
  const line = lines[lineNo - 1] ?? '';
  if (!line.trim() || /^\s*(import|from|package|use|require|#include)\b/.test(line)) return null;
  let level = line.trim() ? indent(line) + 1 : Infinity;
  const chain = [];
  for (let i = lineNo - 1; i >= 0; i--) {
    const l = lines[i];
    // Blank lines, lines deeper than the current level, and lines of braces alone (a `{` under its
    // declaration) say nothing about nesting.
    if (!l.trim() || indent(l) >= level || /^\s*[{}()[\];,]+\s*$/.test(l)) continue;
    const t = TYPE_DEF[lang]?.exec(l);
    const f = t ? null : FUNC_DEF[lang]?.exec(l);
    if (t) chain.unshift({ kind: 'type', name: t.slice(1).find(Boolean) });
    else if (f) {
      const groups = f.slice(1).filter(Boolean);
      const name = lang === 'go' && groups.length === 2 ? `${groups[0]}.${groups[1]}` : groups.at(-1);
      if (name && !KEYWORDS.has(name)) chain.unshift({ kind: 'func', name });
    }
    level = indent(l);
    if (level === 0) break;
  }
  const types = chain.filter((c) => c.kind === 'type').map((c) => c.name);
  const firstFunc = chain.find((c) => c.kind === 'func');
  // The chain of enclosing types, then the outermost function inside them.
  const names = firstFunc ? [...chain.slice(0, chain.indexOf(firstFunc)).filter((c) => c.kind === 'type').map((c) => c.name), firstFunc.name] : types;
  return names.length ? names.join('.') : null;
}

function functionsEdited(dir, parent, sha, language, file, status, newPath) {
  const out = new Set();
  const sides = [];
  if (status !== 'A') sides.push({ rev: parent, path: file, side: '-' });
  if (status !== 'D') sides.push({ rev: sha, path: newPath ?? file, side: '+' });
  let diff;
  try {
    diff = git(dir, 'diff', '-U0', '-M', parent, sha, '--', ...new Set([file, newPath ?? file]));
  } catch {
    return [];
  }
  const hunks = [...diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)];
  for (const s of sides) {
    let text;
    try {
      text = git(dir, 'show', `${s.rev}:${s.path}`);
    } catch {
      continue;
    }
    const lines = text.split('\n');
    for (const h of hunks) {
      const start = Number(s.side === '-' ? h[1] : h[3]);
      const count = Number((s.side === '-' ? h[2] : h[4]) ?? 1);
      for (let n = start; n < start + count; n++) {
        const name = enclosing(language, lines, n);
        if (name) out.add(name);
      }
    }
  }
  return [...out].sort();
}

/**
 * Every non-merge commit's changed files in a range, as the per-commit diff-tree calls of candidatesOf
 * give them (rename detection on): sha -> { entries: [{ add, del, old, path }], status: Map(path -> A/M/D/R...) }.
 */
export function changesOf(dir, range) {
  const out = new Map();
  const log = git(dir, 'log', '--no-merges', '-z', '-M', '--raw', '--numstat', '--format=%x01%H', range);
  for (const chunk of log.split('\x01')) {
    if (!chunk) continue;
    const tokens = chunk.split('\0').map((t) => t.replace(/^\n/, ''));
    const entries = [];
    const status = new Map();
    for (let i = 1; i < tokens.length; i++) {
      const t = tokens[i];
      if (!t) continue;
      if (t.startsWith(':')) {
        // ":mode mode oid oid STATUS" then the path, or for renames and copies the old and the new path.
        const st = t.split(' ').at(-1);
        if (/^[RC]/.test(st)) {
          status.set(tokens[i + 2], st[0]);
          i += 2;
        } else {
          status.set(tokens[i + 1], st[0]);
          i += 1;
        }
        continue;
      }
      const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(t);
      if (!m) continue;
      const [add, del] = [Number(m[1]) || 0, Number(m[2]) || 0];
      if (m[3] === '') {
        entries.push({ add, del, old: tokens[i + 1], path: tokens[i + 2] });
        i += 2;
      } else entries.push({ add, del, old: m[3], path: m[3] });
    }
    out.set(tokens[0], { entries, status });
  }
  return out;
}

/**
 * The commits of one repository that qualify (§3.1), with everything a task needs: those since
 * cfg.since on HEAD, or those of cfg.range (`A..B`, for the training corpus's windows).
 */
export function candidatesOf(dir, cfg) {
  const which = cfg.range ? [cfg.range] : [`--since=${cfg.since}`, 'HEAD'];
  const log = git(dir, 'log', '--no-merges', '--format=%H%x00%P%x00%an%x00%ae%x00%cI%x00%B%x1e', ...which);
  // A range's changes are read in one `git log` rather than two `git diff-tree` a commit (the training corpus reads hundreds of repositories).
  const bulk = cfg.range ? changesOf(dir, cfg.range) : null;
  const out = [];
  for (const rec of log.split('\x1e')) {
    const [sha, parents, author, email, date, body] = rec.replace(/^\n/, '').split('\0');
    if (!sha || !parents || parents.split(' ').length !== 1) continue;
    if (BOT.test(author) || BOT.test(email)) continue;
    const message = (body ?? '').trim();
    const subject = message.split('\n')[0];
    if (isChore(subject)) continue;
    const parent = parents;
    let entries;
    let status;
    if (bulk) {
      if (!bulk.has(sha)) continue;
      ({ entries, status } = bulk.get(sha));
    } else {
      let files;
      try {
        files = git(dir, 'diff-tree', '--no-commit-id', '-r', '-M', '--numstat', '-z', parent, sha);
      } catch {
        continue; // an object the mirror does not hold (its largest files may be absent): skip the commit
      }
      // numstat -z: "add\tdel\tpath\0" or, for renames, "add\tdel\t\0old\0new\0".
      entries = [];
      const parts = files.split('\0');
      for (let i = 0; i < parts.length; i++) {
        if (!parts[i]) continue;
        const [add, del, p] = parts[i].split('\t');
        if (p === '') {
          entries.push({ add: Number(add) || 0, del: Number(del) || 0, old: parts[i + 1], path: parts[i + 2] });
          i += 2;
        } else entries.push({ add: Number(add) || 0, del: Number(del) || 0, old: p, path: p });
      }
      status = new Map(git(dir, 'diff-tree', '--no-commit-id', '-r', '-M', '--name-status', parent, sha).split('\n').filter(Boolean)
        .map((l) => l.split('\t')).map((f) => [f.at(-1), f[0][0]]));
    }
    const set = entries.filter((e) => counted(cfg, e.path) || counted(cfg, e.old));
    if (set.length < 1 || set.length > 6) continue;
    const kindOf = (e) => status.get(e.path) ?? 'M';
    const source = set.filter((e) => !isTest(cfg.language, e.old));
    const existingSource = source.filter((e) => kindOf(e) !== 'A');
    if (!existingSource.length) continue;
    const sourceLines = source.reduce((n, e) => n + e.add + e.del, 0);
    const allLines = set.reduce((n, e) => n + e.add + e.del, 0);
    if (sourceLines < 1 || sourceLines > 400 || allLines > 800) continue;
    const addedSourceLines = source.filter((e) => kindOf(e) === 'A').reduce((n, e) => n + e.add, 0);
    if (addedSourceLines > 0.7 * sourceLines) continue;
    out.push({ dir, sha, parent, date, message, subject, set, source, existingSource, sourceLines, kindOf,
      testsChanged: set.some((e) => isTest(cfg.language, e.old)) });
  }
  return out;
}

export function taskOf(repo, cfg, c) {
  const filesEdited = c.set.filter((e) => c.kindOf(e) !== 'A').map((e) => e.old).sort();
  const sourceEdited = c.existingSource.map((e) => e.old).sort();
  const added = c.set.filter((e) => c.kindOf(e) === 'A').map((e) => e.path).sort();
  const byFile = {};
  for (const e of c.set) byFile[c.kindOf(e) === 'A' ? e.path : e.old] = functionsEdited(c.dir, c.parent, c.sha, cfg.language, e.old, c.kindOf(e), e.path);
  const functions = [...new Set(sourceEdited.flatMap((f) => byFile[f] ?? []))].sort();
  const mentions = functions.some((f) => {
    const last = f.split('.').pop();
    return last.length > 2 && new RegExp(`\\b${last.replace(/[$]/g, '\\$')}\\b`).test(c.description);
  });
  return {
    task_id: `${repo.replace('/', '__')}@${c.sha.slice(0, 10)}`,
    repo,
    language: cfg.language,
    commit_before: c.parent,
    commit_after: c.sha,
    description: c.description,
    files_edited: filesEdited,
    source_files_edited: sourceEdited,
    files_added: added,
    functions_edited: functions,
    functions_edited_by_file: byFile,
    date: c.date,
    subject: c.description.split('\n')[0],
    source_lines_changed: c.sourceLines,
    description_mentions_edited_symbol: mentions,
  };
}

/** §3.2: the candidate's cleaned description, its file names and paths as [file] (those of its parent's tree and of its change set). */
export function describe(c) {
  const fileWords = treeWords(c.dir, c.parent);
  for (const e of c.set) fileWords.add(e.path).add(e.old).add(path.posix.basename(e.path));
  c.description = cleanDescription(c.message, fileWords);
  return c;
}

/** §3.3: candidates by date in 10 equal-count buckets, the best-scoring of each. */
function choose(cands, n) {
  const sorted = [...cands].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.sha < b.sha ? -1 : 1));
  const picked = [];
  for (let b = 0; b < n; b++) {
    const bucket = sorted.slice(Math.floor((b * sorted.length) / n), Math.floor(((b + 1) * sorted.length) / n));
    if (!bucket.length) continue;
    picked.push(bucket.reduce((best, c) => (c.score > best.score || (c.score === best.score && c.sha < best.sha) ? c : best)));
  }
  return picked;
}

/** The tasks of one repository (a git directory), by the rules above, oldest first. */
export function mineRepo(repo, dir, cfg, n = 10) {
  const cands = candidatesOf(dir, cfg);
  for (const c of cands) {
    describe(c);
    c.score = score(c);
  }
  const usable = cands.filter((c) => words(c.description).length >= 8);
  const picked = choose(usable, n).sort((a, b) => (a.date < b.date ? -1 : 1));
  return { candidates: cands.length, usable: usable.length, tasks: picked.map((c) => taskOf(repo, cfg, c)) };
}

function main() {
  const only = opt('--repos', '') ? opt('--repos', '').split(',') : Object.keys(REPOS);
  const lines = [];
  for (const repo of only) {
    const cfg = REPOS[repo];
    if (!cfg) throw new Error(`${repo} is not in the held-out table (eval/mine-tasks.mjs REPOS)`);
    const mined = mineRepo(repo, path.join(mirrors, repo.replace('/', '+'), 'repo'), cfg, perRepo);
    console.error(`${repo}: ${mined.candidates} commits pass the change-set rules, ${mined.usable} with a description of 8+ words; ${mined.tasks.length} tasks`);
    for (const t of mined.tasks) lines.push(JSON.stringify(t));
  }
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${lines.join('\n')}\n`);
  console.error(`wrote ${lines.length} tasks to ${out}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
