#!/usr/bin/env node
// Git object access, the git CLI as cg spawns it against isomorphic-git in-process (issue 20): for each
// operation cg runs on its hot paths, the same question answered both ways on real repositories, with
// the answers compared (a faster wrong answer does not count).
// The CLI side calls cg's own functions (src/repo/git.ts) where cg has one.
//
//   diff1, diff20  paths changed between two commits 1 and 20 apart (`git diff --name-only -z --no-renames`;
//                  isomorphic-git: `walk` over two TREEs, pruning subtrees with equal ids)
//   blobs          100 files read at HEAD~20 without a checkout (`git cat-file --batch`, one process;
//                  isomorphic-git: `readBlob` per file, one shared cache)
//   head           HEAD's commit and branch (headState: `git rev-parse --git-dir`, `symbolic-ref`, `rev-parse`; isomorphic-git
//                  `resolveRef` + `currentBranch`; and `fs`: cg's own readHead, which reads .git's files)
//   resolve        a full sha to its commit, as snapshot restore checks it (`git rev-parse --verify X^{commit}`)
//   config         core.excludesFile (`git config --path --get`; isomorphic-git `getConfig`), with a global
//                  config that sets it, as on a developer's machine (GIT_CONFIG_GLOBAL, a file of this run)
//   status         HEAD, branch and the dirty paths of the working tree (`git status --porcelain=v2 ...`, one
//                  process; isomorphic-git `statusMatrix` + `resolveRef` + `currentBranch`), with one tracked
//                  file modified and one untracked file added
//   tracked        the files in git's index (`git ls-files -z --cached`, as the build-output rule reads them;
//                  isomorphic-git `listFiles`)
//   messages       the newest 1,000 non-merge commit messages (`git log --no-merges --format=%B -n 1000`;
//                  isomorphic-git: a date-ordered walk of `readCommit`)
//   roots          the parentless commits (`git rev-list --max-parents=0 HEAD`; isomorphic-git: a walk of the
//                  whole history with `readCommit`)
//   update         what one commit-driven `cg update` asks git, in order: status, config, diff1, messages
//
// cold: each sample is a fresh Node process doing that one operation, timed inside it from before the
// import of isomorphic-git (its import time is reported too) to the answer: what a hook-started update
// pays. warm: one process per repository that has done every operation once, then alternates the tools
// (isomorphic-git keeps one cache object per repository, its best case). Tools alternate in every round
// (rotating which goes first); figures are medians (the upper middle of an even count).
//
// Each repository is cloned into a temporary folder first (its checkout is never touched; a local clone
// hard-links the objects, so packed stays packed and loose stays loose). A history shorter than 21
// commits (the Debian python3-django tree made into a one-commit repository) is packed with `git gc`
// and given 21 small commits (two files each, loose objects) so the diffs have something to span.
// `--edges` also checks isomorphic-git's answers on repositories made by this script: a linked worktree,
// a `clone --shared` (alternates), a shallow clone, a submodule, packed refs, and sha256 (when git makes one).
//
// isomorphic-git comes from this checkout's node_modules, else from --iso-dir DIR (a folder where
// `npm install isomorphic-git@1.44.11` was run).
//
// Usage: node eval/bench-git-access.mjs --repo DIR [--repo DIR ...] [--runs 5] [--iso-dir DIR] [--edges]
//          [--out eval/results/bench-git-access.json] [--label NAME]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './lib/metrics.mjs';
import { saveResult } from './lib/results.mjs';
// cg's own git questions (built into dist/: `npm run build`), so the CLI side is exactly what cg runs.
import * as cg from '../dist/repo/git.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const GIT = ['--no-optional-locks'];
const sh = (dir, args, opts = {}) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28, ...opts });
const gitZ = (dir, args) => sh(dir, [...GIT, ...args]).split('\0').filter(Boolean);
const digest = (x) => createHash('sha256').update(JSON.stringify(x)).digest('hex').slice(0, 16);

/** Where isomorphic-git's entry point is: this checkout's dependency, else the folder given. */
function isoEntry(isoDir) {
  const bases = [path.join(here, '..', 'package.json'), ...(isoDir ? [path.join(path.resolve(isoDir), 'package.json')] : [])];
  for (const b of bases) {
    try {
      return createRequire(b).resolve('isomorphic-git');
    } catch {
      /* not there */
    }
  }
  return null;
}

// ---------- the operations, each as the CLI (as cg runs it) and as isomorphic-git ----------

async function isoDiff(g, dir, cache, a, b) {
  const out = [];
  await g.git.walk({
    fs, dir, cache, trees: [g.git.TREE({ ref: a }), g.git.TREE({ ref: b })],
    map: async (p, [A, B]) => {
      const [oa, ob, ma, mb] = await Promise.all([A?.oid(), B?.oid(), A?.mode(), B?.mode()]);
      if (oa === ob && ma === mb) return null; // equal subtree (or file): not walked further
      const [ta, tb] = await Promise.all([A?.type(), B?.type()]);
      if (p !== '.' && ((ta && ta !== 'tree') || (tb && tb !== 'tree'))) out.push(p); // a blob or gitlink on either side
      return ta === 'tree' || tb === 'tree' ? true : null;
    },
  });
  return out.sort();
}

/** cg's own status (src/repo/git.ts), as the answer isomorphic-git is compared with. */
function cliStatus(dir) {
  const { head, dirty } = cg.workingTreeState(dir);
  return { oid: head.kind === 'commit' ? head.commit : '', branch: head.kind === 'commit' ? head.branch : null, dirty: [...(dirty ?? [])].sort() };
}

/** Commits newest first by committer time, each once (what `git log` walks, without its commit-graph). */
async function* isoCommits(g, dir, cache, from) {
  const seen = new Set([from]);
  const queue = [await g.git.readCommit({ fs, dir, cache, oid: from })];
  while (queue.length) {
    queue.sort((x, y) => x.commit.committer.timestamp - y.commit.committer.timestamp);
    const c = queue.pop();
    yield c;
    for (const p of c.commit.parent) {
      if (seen.has(p)) continue;
      seen.add(p);
      try {
        queue.push(await g.git.readCommit({ fs, dir, cache, oid: p }));
      } catch (err) {
        if (err.code !== 'NotFoundError') throw err; // beyond a shallow clone's boundary
      }
    }
  }
}

// Messages compared as cg reads them (boilerplateLines, src/retrieve/boilerplate.ts: lines trimmed, case and runs
// of white space folded): isomorphic-git drops carriage returns from messages, which that reading does not see.
const lf = (m) => m.replace(/\r\n/g, '\n').split('\n').map((l) => l.trim().toLowerCase().replace(/\s+/g, ' ')).join('\n').trim();
const cliMessages = (dir, head) => cg.commitMessages(dir, { rev: head, max: 1000 }).map(lf).filter(Boolean).sort();

async function isoMessages(g, dir, cache, head) {
  const out = [];
  for await (const c of isoCommits(g, dir, cache, head)) {
    if (c.commit.parent.length > 1) continue;
    out.push(lf(c.commit.message));
    if (out.length === 1000) break;
  }
  return out.filter(Boolean).sort();
}

function cliExcludes(dir) {
  try {
    return sh(dir, ['config', '--path', '--get', 'core.excludesFile']).trim() || null;
  } catch {
    return null; // unset
  }
}
const isoExcludes = async (g, dir) => (await g.git.getConfig({ fs, dir, path: 'core.excludesFile' })) ?? null;

async function isoStatus(g, dir, cache) {
  const rows = await g.git.statusMatrix({ fs, dir, cache });
  const dirty = rows.filter(([, h, w, s]) => !(h === 1 && w === 1 && s === 1)).map((r) => r[0]).sort();
  const oid = await g.git.resolveRef({ fs, dir, ref: 'HEAD' });
  const branch = (await g.git.currentBranch({ fs, dir, fullname: false })) ?? null;
  return { oid, branch, dirty };
}

const OPS = {
  diff1: {
    cli: (c) => cg.changedBetween(c.dir, c.a1, c.head).sort(),
    iso: (c, g, cache) => isoDiff(g, c.dir, cache, c.a1, c.head),
  },
  diff20: {
    cli: (c) => cg.changedBetween(c.dir, c.a20, c.head).sort(),
    iso: (c, g, cache) => isoDiff(g, c.dir, cache, c.a20, c.head),
  },
  blobs: {
    cli: (c) => {
      const out = execFileSync('git', [...GIT, 'cat-file', '--batch'], { cwd: c.dir, input: c.blobPaths.map((p) => `${c.a20}:${p}\n`).join(''), maxBuffer: 1 << 30 });
      const sums = [];
      let i = 0;
      while (i < out.length) {
        const nl = out.indexOf(10, i);
        const size = Number(out.subarray(i, nl).toString().split(' ')[2]);
        sums.push(createHash('sha256').update(out.subarray(nl + 1, nl + 1 + size)).digest('hex'));
        i = nl + 1 + size + 1;
      }
      return sums;
    },
    iso: async (c, g, cache) => {
      const sums = [];
      for (const filepath of c.blobPaths) {
        const { blob } = await g.git.readBlob({ fs, dir: c.dir, cache, oid: c.a20, filepath });
        sums.push(createHash('sha256').update(blob).digest('hex'));
      }
      return sums;
    },
  },
  head: {
    cli: (c) => {
      const h = cg.headState(c.dir);
      return { oid: h.commit, branch: h.branch };
    },
    iso: async (c, g) => ({ oid: await g.git.resolveRef({ fs, dir: c.dir, ref: 'HEAD' }), branch: (await g.git.currentBranch({ fs, dir: c.dir, fullname: false })) ?? null }),
    fs: (c, g) => {
      const h = g.readHead(c.dir);
      return { oid: h.commit, branch: h.branch };
    },
  },
  resolve: {
    cli: (c) => cg.resolveCommit(c.dir, c.a20),
    iso: async (c, g, cache) => (await g.git.readCommit({ fs, dir: c.dir, cache, oid: c.a20 })).oid,
  },
  config: { cli: (c) => cliExcludes(c.dir), iso: (c, g) => isoExcludes(g, c.dir) },
  status: {
    cli: (c) => cliStatus(c.dir),
    iso: (c, g, cache) => isoStatus(g, c.dir, cache),
  },
  tracked: {
    cli: (c) => gitZ(c.dir, ['-c', 'core.quotePath=false', 'ls-files', '-z', '--cached']).sort(),
    iso: async (c, g, cache) => (await g.git.listFiles({ fs, dir: c.dir, cache })).sort(),
  },
  messages: { cli: (c) => cliMessages(c.dir, c.head), iso: (c, g, cache) => isoMessages(g, c.dir, cache, c.head) },
  roots: {
    cli: (c) => cg.rootCommits(c.dir),
    iso: async (c, g, cache) => {
      const out = [];
      for await (const x of isoCommits(g, c.dir, cache, await g.git.resolveRef({ fs, dir: c.dir, ref: 'HEAD' }))) if (!x.commit.parent.length) out.push(x.oid);
      return out.sort();
    },
  },
  update: {
    cli: (c) => {
      const st = cliStatus(c.dir);
      return [st, cliExcludes(c.dir), cg.changedBetween(c.dir, c.a1, st.oid).sort(), cliMessages(c.dir, st.oid)];
    },
    iso: async (c, g, cache) => {
      const st = await isoStatus(g, c.dir, cache);
      return [st, await isoExcludes(g, c.dir), await isoDiff(g, c.dir, cache, c.a1, st.oid), await isoMessages(g, c.dir, cache, st.oid)];
    },
  },
};

/** What a tool needs loaded: isomorphic-git, or cg's readHead (built into dist/). */
async function load(tool, entry) {
  if (tool === 'iso') return { git: (await import(pathToFileURL(entry).href)).default };
  if (tool === 'fs') return { readHead: (await import(pathToFileURL(path.join(here, '..', 'dist', 'repo', 'head.js')).href)).readHead };
  return {};
}

// ---------- a cold sample: this file run again as a child, one operation ----------

if (process.env.CG_BENCH_GIT_CHILD) {
  const { op, tool, ctx, entry } = JSON.parse(process.env.CG_BENCH_GIT_CHILD);
  const t0 = performance.now();
  const g = await load(tool, entry);
  const t1 = performance.now();
  const answer = await OPS[op][tool](ctx, g, {});
  const t2 = performance.now();
  process.stdout.write(JSON.stringify({ importMs: t1 - t0, opMs: t2 - t1, totalMs: t2 - t0, answer: digest(answer) }));
  process.exit(0);
}

// ---------- the run ----------

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const repos = args.flatMap((a, i) => (a === '--repo' ? [args[i + 1]] : []));
if (!repos.length) {
  console.error('usage: node eval/bench-git-access.mjs --repo DIR [--repo DIR ...] [--runs 5] [--iso-dir DIR] [--edges] [--out FILE]');
  process.exit(2);
}
const runs = Number(opt('--runs', '5'));
const out = opt('--out', path.join(here, 'results', 'bench-git-access.json'));
const entry = isoEntry(opt('--iso-dir'));
if (!entry) {
  console.error('isomorphic-git is not installed here: run `npm install isomorphic-git@1.44.11` in a folder and pass it as --iso-dir');
  process.exit(2);
}
const isoVersion = JSON.parse(fs.readFileSync(path.join(path.dirname(entry), 'package.json'), 'utf8')).version;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-git-'));
// A developer's global config names their excludes file; isomorphic-git reads only the repository's config.
const globalConfig = path.join(tmp, 'global.gitconfig');
fs.writeFileSync(globalConfig, '[core]\n\texcludesFile = ~/.config/git/bench-ignore\n[user]\n\tname = bench\n\temail = bench@example.invalid\n');
process.env.GIT_CONFIG_GLOBAL = globalConfig;
const rounds = (n, f) => { for (let r = 0; r < n; r++) f(r); };
const rotate = (xs, r) => xs.map((_, i) => xs[(i + r) % xs.length]);
const ms = (x) => (x === null ? null : Math.round(x * 10) / 10);

/** A clone of the repository to measure, dirty as the status operation needs it; the context for every operation. */
function prepare(src) {
  const dir = path.join(tmp, path.basename(path.resolve(src)));
  sh(tmp, ['clone', '-q', path.resolve(src), dir]);
  if (Number(sh(dir, ['rev-list', '--count', 'HEAD'])) < 21) {
    sh(dir, ['gc', '-q']);
    const py = sh(dir, ['ls-files', '-z']).split('\0').filter((p) => /\.(py|ts|js|go|rs)$/.test(p));
    for (let i = 1; i <= 21; i++) {
      for (const p of [py[(i * 37) % py.length], py[(i * 53 + 11) % py.length]]) fs.appendFileSync(path.join(dir, p), `\n# bench edit ${i}\n`);
      sh(dir, ['commit', '-qam', `bench edit ${i}`]);
    }
  }
  const rev = (r) => sh(dir, ['rev-parse', '--verify', `${r}^{commit}`]).trim();
  const files = sh(dir, ['ls-tree', '-r', '-z', '--full-tree', 'HEAD~20']).split('\0').filter((l) => / blob /.test(l)).map((l) => l.slice(l.indexOf('\t') + 1));
  const step = Math.max(1, Math.floor(files.length / 100));
  const blobPaths = files.filter((_, i) => i % step === 0).slice(0, 100);
  const tracked = files.find((p) => fs.existsSync(path.join(dir, p)));
  fs.appendFileSync(path.join(dir, tracked), '\n');
  fs.writeFileSync(path.join(dir, 'bench-untracked.txt'), 'new\n');
  const count = sh(dir, ['count-objects', '-v']);
  return {
    dir, head: rev('HEAD'), a1: rev('HEAD~1'), a20: rev('HEAD~20'), blobPaths,
    shape: {
      commits: Number(sh(dir, ['rev-list', '--count', 'HEAD'])), trackedFiles: sh(dir, ['ls-files', '-z']).split('\0').filter(Boolean).length,
      looseObjects: Number(/^count: (\d+)/m.exec(count)[1]), packKiB: Number(/^size-pack: (\d+)/m.exec(count)[1]),
    },
  };
}

function cold(op, tool, ctx) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
    env: { ...process.env, CG_BENCH_GIT_CHILD: JSON.stringify({ op, tool, ctx, entry }) }, encoding: 'utf8', maxBuffer: 1 << 26,
  });
  if (r.status !== 0) return { error: (r.stderr || '').trim().split('\n').slice(-3).join(' ') };
  return JSON.parse(r.stdout);
}

const toolsOf = (op) => Object.keys(OPS[op]);
const results = {};
for (const src of repos) {
  const ctx = prepare(src);
  const name = path.basename(path.resolve(src));
  console.error(`${name}: ${JSON.stringify(ctx.shape)}`);
  const res = { shape: ctx.shape, cold: {}, warm: {} };
  for (const op of Object.keys(OPS)) res.cold[op] = Object.fromEntries(toolsOf(op).map((t) => [t, { totalMs: [], importMs: [], opMs: [], answers: new Set(), errors: [] }]));
  rounds(runs, (r) => {
    for (const op of Object.keys(OPS)) {
      for (const tool of rotate(toolsOf(op), r)) {
        const s = cold(op, tool, ctx);
        const slot = res.cold[op][tool];
        if (s.error) slot.errors.push(s.error);
        else {
          slot.totalMs.push(s.totalMs);
          slot.importMs.push(s.importMs);
          slot.opMs.push(s.opMs);
          slot.answers.add(s.answer);
        }
      }
    }
    console.error(`${name} cold round ${r + 1}/${runs}: ${Object.keys(OPS).map((op) => `${op} ${toolsOf(op).map((t) => `${t} ${ms(res.cold[op][t].totalMs.at(-1) ?? null)}`).join('/')}`).join(', ')}`);
  });
  // warm: one process, every tool loaded and every operation done once, then alternated
  const rssBefore = process.memoryUsage().rss;
  const loaded = { cli: {}, iso: await load('iso', entry), fs: await load('fs', entry) };
  const caches = { cli: {}, iso: {}, fs: {} };
  const warmAnswers = {};
  for (const op of Object.keys(OPS)) {
    res.warm[op] = Object.fromEntries(toolsOf(op).map((t) => [t, []]));
    for (const t of toolsOf(op)) {
      try {
        warmAnswers[`${op}/${t}`] = digest(await OPS[op][t](ctx, loaded[t], caches[t]));
      } catch (err) {
        warmAnswers[`${op}/${t}`] = `error: ${err.message}`;
      }
    }
  }
  for (let r = 0; r < runs; r++) {
    for (const op of Object.keys(OPS)) {
      for (const t of rotate(toolsOf(op), r)) {
        if (warmAnswers[`${op}/${t}`].startsWith('error')) continue;
        const t0 = performance.now();
        await OPS[op][t](ctx, loaded[t], caches[t]);
        res.warm[op][t].push(performance.now() - t0);
      }
    }
  }
  // summaries
  const summary = {};
  for (const op of Object.keys(OPS)) {
    const cliAnswer = [...res.cold[op].cli.answers][0];
    summary[op] = {};
    for (const t of toolsOf(op)) {
      const c = res.cold[op][t];
      summary[op][t] = {
        coldMs: ms(median(c.totalMs)), coldImportMs: ms(median(c.importMs)), coldOpMs: ms(median(c.opMs)), warmMs: ms(median(res.warm[op][t])),
        sameAnswerAsCli: c.errors.length ? false : c.answers.size === 1 && [...c.answers][0] === cliAnswer && warmAnswers[`${op}/${t}`] === cliAnswer,
        ...(c.errors.length ? { error: c.errors[0] } : {}),
        samples: { cold: c.totalMs.map(ms), warm: res.warm[op][t].map(ms) },
      };
    }
  }
  // What the warm process holds after isomorphic-git read the repository (it keeps whole packfiles in memory).
  const warmRssMiB = { before: Math.round(rssBefore / 2 ** 20), after: Math.round(process.memoryUsage().rss / 2 ** 20) };
  results[name] = { shape: ctx.shape, warmRssMiB, ops: summary };
  console.error(`${name}:\n${Object.entries(summary).map(([op, s]) => `  ${op.padEnd(9)} ${Object.entries(s).map(([t, v]) => `${t} cold ${v.coldMs} (import ${v.coldImportMs}) warm ${v.warmMs}${v.sameAnswerAsCli ? '' : ' DIFFERENT'}`).join(' | ')}`).join('\n')}`);
}

// ---------- isomorphic-git on the repository shapes cg meets, against the CLI's answers ----------

async function edgeCases() {
  const g = await load('iso', entry);
  const root = path.join(tmp, 'edges');
  fs.mkdirSync(root);
  const make = (name, init = []) => {
    const d = path.join(root, name);
    sh(root, ['init', '-q', ...init, d]);
    for (let i = 0; i < 3; i++) {
      fs.mkdirSync(path.join(d, 'src'), { recursive: true });
      fs.writeFileSync(path.join(d, 'src', `f${i}.py`), `x = ${i}\n`);
      fs.appendFileSync(path.join(d, 'README'), `${i}\n`);
      sh(d, ['add', '-A']);
      sh(d, ['commit', '-qm', `c${i}`]);
    }
    return d;
  };
  const check = async (dir) => {
    const c = { dir, head: sh(dir, ['rev-parse', 'HEAD']).trim(), a1: sh(dir, ['rev-parse', 'HEAD~1']).trim() };
    const out = {};
    for (const [op, f] of [
      ['head', async () => [await OPS.head.cli(c), await OPS.head.iso(c, g)]],
      ['diff1', async () => [OPS.diff1.cli(c), await OPS.diff1.iso(c, g, {})]],
      ['blob', async () => [sh(dir, ['show', `${c.a1}:README`]), Buffer.from((await g.git.readBlob({ fs, dir, oid: c.a1, filepath: 'README' })).blob).toString()]],
    ]) {
      try {
        const [a, b] = await f();
        out[op] = digest(a) === digest(b) ? 'same' : `different: cli ${JSON.stringify(a).slice(0, 80)} iso ${JSON.stringify(b).slice(0, 80)}`;
      } catch (err) {
        out[op] = `error: ${err.code ?? ''} ${err.message.split('\n')[0].slice(0, 120)}`;
      }
    }
    return out;
  };
  const cases = {};
  const base = make('base');
  cases.plain = await check(base);
  sh(base, ['gc', '-q']);
  sh(base, ['pack-refs', '--all']);
  cases.packedObjectsAndRefs = await check(base);
  sh(base, ['worktree', 'add', '-q', path.join(root, 'wt'), '-b', 'wt']);
  cases.linkedWorktree = await check(path.join(root, 'wt'));
  sh(root, ['clone', '-q', '--shared', base, path.join(root, 'shared')]);
  cases.sharedCloneAlternates = await check(path.join(root, 'shared'));
  sh(root, ['clone', '-q', '--depth', '2', `file://${base}`, path.join(root, 'shallow')]);
  cases.shallowClone = await check(path.join(root, 'shallow'));
  const sup = make('super');
  sh(sup, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', base, 'sub']);
  sh(sup, ['commit', '-qm', 'sub']);
  sh(path.join(sup, 'sub'), ['commit', '-q', '--allow-empty', '-m', 'moved']);
  sh(sup, ['commit', '-qam', 'sub moved']);
  cases.submoduleMoved = await check(sup);
  try {
    cases.sha256 = await check(make('sha256', ['--object-format=sha256']));
  } catch (err) {
    cases.sha256 = { skipped: `git here cannot make one: ${err.message.split('\n')[0]}` };
  }
  return cases;
}

const edges = args.includes('--edges') ? await edgeCases() : undefined;
if (edges) console.error(`edge cases: ${JSON.stringify(edges, null, 1)}`);
fs.rmSync(tmp, { recursive: true, force: true });
saveResult(out, opt('--label', 'default'), {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`,
  git: sh(here, ['--version']).trim(),
  isomorphicGit: isoVersion,
  node: process.version,
  runs,
  note: 'Milliseconds, medians. cold = a fresh Node process doing one operation, timed from before importing isomorphic-git to the ' +
    'answer (coldImportMs of it is the import); warm = the same process after one call of each, isomorphic-git with one cache per ' +
    'repository. sameAnswerAsCli compares the answers (sorted path lists, sha256 of blob bytes, messages).',
  repositories: results,
  ...(edges ? { edgeCases: edges } : {}),
});
console.error(`wrote ${out}`);
