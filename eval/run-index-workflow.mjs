#!/usr/bin/env node
// Runs the `index` job of .github/workflows/index.yml locally, twice, in a temporary clone of this
// repository (its committed HEAD): the first push finds an empty cache and builds from scratch; then a
// commit is made in the clone and the second push restores the first push's snapshot from the cache,
// catches up and snapshots again. Every `run:` step runs as written (bash -e, the job's env, in the
// clone); the `uses:` steps are played by local stand-ins:
//   actions/checkout         the clone itself (full history, as fetch-depth: 0 asks)
//   actions/setup-node       this Node (printed)
//   actions/cache/restore    <tmp>/cache/<key>/, exact key first, else the newest key with a restore-keys prefix
//   actions/cache/save       copies `path` to <tmp>/cache/<key>/
//   actions/upload-artifact  copies the matched files to <tmp>/artifacts/<name>/
// `npm ci` is replaced by links to this worktree's node_modules and models (a real install takes
// minutes, and this machine is offline); pass --install to run it as written.
//
// Usage: node eval/run-index-workflow.mjs [--install] [--keep]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const args = process.argv.slice(2);
const install = args.includes('--install');
const workflow = parse(fs.readFileSync(path.join(repo, '.github', 'workflows', 'index.yml'), 'utf8'));
const job = workflow.jobs.index;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-index-workflow-'));
const clone = path.join(tmp, 'checkout');
const cacheDir = path.join(tmp, 'cache');
const artifacts = path.join(tmp, 'artifacts');
const git = (...a) => execFileSync('git', ['-c', 'user.name=cg workflow', '-c', 'user.email=cg@example.invalid', ...a],
  { cwd: clone, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

execFileSync('git', ['clone', '-q', '--no-hardlinks', repo, clone]);
if (!install) {
  for (const name of ['node_modules', 'models']) fs.symlinkSync(path.join(repo, name), path.join(clone, name));
  // The links are not source: keep them out of `git status`, as a real install's folders are (.gitignore).
  fs.appendFileSync(path.join(clone, '.git', 'info', 'exclude'), '/node_modules\n/models\n');
}

/** `${{ github.sha }}` and friends, as the runner expands them. */
function expand(text, ctx) {
  return String(text).replace(/\$\{\{\s*github\.(\w+)\s*\}\}/g, (_, k) => {
    if (!(k in ctx)) throw new Error(`index.yml uses github.${k}, which this stand-in runner does not provide`);
    return ctx[k];
  });
}

function copyPath(from, to) {
  fs.rmSync(to, { recursive: true, force: true });
  fs.cpSync(from, to, { recursive: true });
}

const stand = {
  'actions/checkout': () => `checked out ${git('rev-parse', 'HEAD').slice(0, 10)} with full history`,
  'actions/setup-node': (w) => `using Node ${process.version} (the workflow asks for ${w['node-version']})`,
  'actions/cache/restore': (w) => {
    const keys = fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : [];
    const prefixes = String(w['restore-keys'] ?? '').split('\n').map((s) => s.trim()).filter(Boolean);
    let hit = keys.includes(w.key) ? w.key : null;
    for (const p of prefixes) {
      if (hit) break;
      hit = keys.filter((k) => k.startsWith(p)).sort((a, b) => fs.statSync(path.join(cacheDir, b)).mtimeMs - fs.statSync(path.join(cacheDir, a)).mtimeMs)[0] ?? null;
    }
    if (!hit) return `cache miss for ${w.key}`;
    copyPath(path.join(cacheDir, hit, w.path), path.join(clone, w.path));
    return `restored ${w.path} from cache key ${hit}`;
  },
  'actions/cache/save': (w) => {
    if (fs.existsSync(path.join(cacheDir, w.key))) return `cache key ${w.key} exists already (caches are immutable)`;
    copyPath(path.join(clone, w.path), path.join(cacheDir, w.key, w.path));
    return `saved ${w.path} as cache key ${w.key}`;
  },
  'actions/upload-artifact': (w) => {
    const dest = path.join(artifacts, w.name);
    fs.mkdirSync(dest, { recursive: true });
    const [dir, glob] = [path.dirname(w.path), path.basename(w.path)];
    const re = new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    const files = fs.readdirSync(path.join(clone, dir)).filter((n) => re.test(n));
    if (!files.length && w['if-no-files-found'] === 'error') throw new Error(`upload-artifact: no files match ${w.path}`);
    for (const f of files) fs.copyFileSync(path.join(clone, dir, f), path.join(dest, f));
    return `uploaded ${files.join(', ')} as artifact ${w.name}`;
  },
};

function runJob(push) {
  const sha = git('rev-parse', 'HEAD');
  const ctx = { sha, ref: 'refs/heads/main' };
  const env = { ...process.env, ...Object.fromEntries(Object.entries(job.env ?? {}).map(([k, v]) => [k, expand(v, ctx)])), GITHUB_SHA: sha, CI: 'true' };
  console.log(`\n=== push ${push}: ${sha.slice(0, 10)} ===`);
  const steps = [];
  for (const step of job.steps) {
    const name = step.name ?? step.uses ?? step.run;
    const t0 = performance.now();
    let note;
    if (step.uses) {
      const action = step.uses.split('@')[0];
      if (!stand[action]) throw new Error(`no local stand-in for ${step.uses}`);
      const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(v, ctx)]));
      note = stand[action](w);
    } else if (!install && /^\s*npm ci\b/.test(step.run)) {
      note = 'skipped: node_modules and models are linked from the worktree (pass --install to run npm ci)';
    } else {
      const res = spawnSync('bash', ['-e', '-c', expand(step.run, ctx)], { cwd: clone, env, encoding: 'utf8', maxBuffer: 1 << 28 });
      const out = `${res.stdout}${res.stderr}`.trim();
      if (res.status !== 0) throw new Error(`step "${name}" failed (${res.status}):\n${out}`);
      note = out.split('\n').filter(Boolean).slice(-3).join('\n    ');
    }
    const ms = Math.round(performance.now() - t0);
    steps.push({ name, ms, note });
    console.log(`- ${name} (${ms} ms)\n    ${note}`);
  }
  return { sha, steps };
}

const first = runJob(1);
// A second push: one source file changes.
fs.appendFileSync(path.join(clone, 'src', 'errors.ts'), '\n/** Added by eval/run-index-workflow.mjs to emulate a second push. */\nexport const WORKFLOW_PROBE = 1;\n');
git('commit', '-qam', 'second push (eval/run-index-workflow.mjs)');
const second = runJob(2);

const restoreStep = (run) => run.steps.find((s) => /snapshot restore/.test(s.name) || /Restore and catch up/.test(s.name));
const restoredOnSecond = /Restored .* as generation/.test(restoreStep(second)?.note ?? '');
const builtOnFirst = !/Restored/.test(restoreStep(first)?.note ?? '');
const uploaded = fs.readdirSync(artifacts).map((d) => [d, fs.readdirSync(path.join(artifacts, d))]);
console.log(`\nfirst push built from scratch: ${builtOnFirst}; second push restored the first push's snapshot and caught up: ${restoredOnSecond}`);
console.log(`artifacts: ${uploaded.map(([d, f]) => `${d}: ${f.join(', ')}`).join('; ')}`);
if (!args.includes('--keep')) fs.rmSync(tmp, { recursive: true, force: true });
else console.log(`kept ${tmp}`);
if (!builtOnFirst || !restoredOnSecond) process.exitCode = 1;
