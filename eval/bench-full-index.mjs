#!/usr/bin/env node
// Full-index benchmark against the native peer (issue 20): a whole `cg index` (structure, search and
// the built-in embeddings) against `@optave/codegraph build --no-incremental` (its structure; it has
// no built-in embeddings: its `embed` downloads a model), measured side by side in one run on the same
// repositories.
//
// Each tool gets its own clone of each repository (both keep their index in .codegraph/, removed before
// every sample, so every sample is a cold build of the tree). Rounds alternate the tools, rotating which
// goes first; wall and CPU seconds (user + system of the process tree, from /usr/bin/time) per sample;
// the figures are medians (the upper middle of an even count) and the ratios come from this run only:
// the machine's speed drifts between runs.
//
// Usage: node eval/bench-full-index.mjs --repo LABEL=GIT_REPO [--repo LABEL=GIT_REPO ...] [--head CG_CHECKOUT]
//          [--base CG_CHECKOUT] [--optave CODEGRAPH_BIN] [--runs 3] [--out eval/results/bench-full-index.json]
// e.g.  node eval/bench-full-index.mjs --repo gin=/work/.mirror/gin-gonic+gin/repo --repo django=/tmp/django \
//         --optave /tmp/optave/node_modules/.bin/codegraph --runs 3
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
const repos = args.flatMap((a, i) => (a === '--repo' ? [args[i + 1]] : [])).map((spec) => {
  const eq = spec.indexOf('=');
  return eq > 0 ? { label: spec.slice(0, eq), dir: path.resolve(spec.slice(eq + 1)) } : { label: path.basename(spec), dir: path.resolve(spec) };
});
if (!repos.length || !fs.existsSync('/usr/bin/time')) {
  console.error('usage: node eval/bench-full-index.mjs --repo LABEL=GIT_REPO [...] [--head CG] [--base CG] [--optave BIN] [--runs 3]   (needs /usr/bin/time)');
  process.exit(2);
}
const runs = Number(opt('--runs', '3'));
const out = opt('--out', path.join(here, 'results', 'bench-full-index.json'));

const git = (dir, ...a) => execFileSync('git', a, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).trim();
const cg = (checkout) => ({ cmd: [process.execPath, path.join(checkout, 'bin', 'cg.js'), 'index', '-q'] });
const tools = [['head', cg(path.resolve(opt('--head', path.join(here, '..'))))]];
if (opt('--base')) tools.push(['base', cg(path.resolve(opt('--base')))]);
if (opt('--optave')) tools.push(['optave', { cmd: [path.resolve(opt('--optave')), 'build', '--no-incremental'] }]);

/** One cold build: wall and CPU seconds of the whole process tree. */
function sample(tool, dir) {
  fs.rmSync(path.join(dir, '.codegraph'), { recursive: true, force: true });
  const timing = path.join(dir, '..', `${path.basename(dir)}.time`);
  const res = spawnSync('/usr/bin/time', ['-f', '%e %U %S', '-o', timing, ...tool.cmd], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (res.status !== 0) throw new Error(`${tool.cmd.join(' ')} in ${dir} exited ${res.status}: ${res.stderr}`);
  const [wall, user, sys] = fs.readFileSync(timing, 'utf8').trim().split('\n').at(-1).split(/\s+/).map(Number);
  return { wall, cpu: user + sys };
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-full-'));
try {
  for (const { label, dir: repo } of repos) {
    const dirs = new Map();
    for (const [name] of tools) {
      const dir = path.join(scratch, `${label}-${name}`);
      git(scratch, 'clone', '-q', '--shared', repo, dir);
      dirs.set(name, dir);
    }
    const files = git(dirs.get('head'), 'ls-files').split('\n').filter(Boolean).length;
    const samples = Object.fromEntries(tools.map(([name]) => [name, { wall: [], cpu: [] }]));
    for (let r = 0; r < runs; r++) {
      const order = tools.map((_, i) => tools[(i + r) % tools.length]);
      for (const [name, tool] of order) {
        const s = sample(tool, dirs.get(name));
        samples[name].wall.push(s.wall);
        samples[name].cpu.push(s.cpu);
      }
      console.error(`${label} round ${r + 1}/${runs}: ${tools.map(([n]) => `${n} ${samples[n].wall.at(-1).toFixed(1)} s (${samples[n].cpu.at(-1).toFixed(1)} CPU-s)`).join(', ')}`);
    }
    const medians = Object.fromEntries(tools.map(([n]) => [n, { wallS: median(samples[n].wall), cpuS: +median(samples[n].cpu).toFixed(2) }]));
    const ratios = {};
    for (const [other] of tools.filter(([n]) => n !== 'head')) {
      ratios[`head/${other}`] = { wall: +(medians.head.wallS / medians[other].wallS).toFixed(2), cpu: +(medians.head.cpuS / medians[other].cpuS).toFixed(2) };
    }
    const result = {
      label, commit: git(dirs.get('head'), 'rev-parse', 'HEAD'), trackedFiles: files, runs, date: new Date().toISOString(),
      node: process.version, cpus: os.cpus().length, loadavg: os.loadavg().map((x) => +x.toFixed(1)),
      note: 'Cold full builds, whole processes: `cg index -q` (with built-in embeddings) against `codegraph build --no-incremental` ' +
        '(no embeddings); wall and CPU seconds (user + system), medians; tools alternated, rotating which goes first.',
      medians, ratios, samples,
    };
    saveResult(out, label, result);
    console.log(JSON.stringify({ label, medians, ratios }));
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
