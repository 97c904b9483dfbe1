#!/usr/bin/env node
// get_references (depth 2) on each of the repository's methods once, as bench-mcp.mjs calls each of its
// plan's symbols once: this checkout's build and another's, each in a process of its own (the query path
// warmed first, as `cg serve` warms it), alternating builds over --runs runs; CPU time per call (the call
// and its JSON-RPC serialization). A name's first answer pays what later ones do not (the tokenizer's
// first count of its pieces, statements, caches): this is the figure a benchmark of varied calls sees.
//
// Usage: node eval/first-calls.mjs --other DIR --dir INDEXED_CLONE [--calls 768] [--runs 3] [--out FILE]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { option, otherBuild } from './lib/args.mjs';
import { pct } from './lib/mcp-plan.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const ms = (x) => Math.round(x * 100) / 100;

if (args[0] === '--child') {
  // One build, one process: every name once.
  const [, build, dir, list] = args;
  const { createServer } = await import(path.join(build, 'dist', 'mcp', 'server.js'));
  const { warmQueryPath } = await import(path.join(build, 'dist', 'mcp', 'warm.js'));
  await warmQueryPath(dir);
  const server = createServer(dir, { toolsets: ['all'] });
  const names = JSON.parse(fs.readFileSync(list, 'utf8'));
  await server.call('get_references', { symbol_name: names[0], depth: 2 }); // statement preparation, not counted
  const xs = [];
  for (const name of names.slice(1)) {
    const t = process.cpuUsage();
    JSON.stringify({ jsonrpc: '2.0', id: 1, result: await server.call('get_references', { symbol_name: name, depth: 2 }) });
    const d = process.cpuUsage(t);
    xs.push((d.user + d.system) / 1000);
  }
  process.stdout.write(JSON.stringify({ calls: xs.length, totalMs: ms(xs.reduce((a, b) => a + b, 0)), p50: ms(pct(xs, 50)), p95: ms(pct(xs, 95)), p99: ms(pct(xs, 99)), max: ms(Math.max(...xs)) }));
  process.exit(0);
}

const other = otherBuild(args);
const dir = option(args, '--dir');
if (!dir) throw new Error('usage: --dir INDEXED_CLONE (a repository indexed by this checkout)');
const calls = Number(option(args, '--calls', '768'));
const runs = Number(option(args, '--runs', '3'));
const out = option(args, '--out', null);
// Methods outside the tests whose file:name picks one symbol, in a fixed shuffled order.
const listed = JSON.parse(execFileSync(process.execPath, [path.join(here, '..', 'bin', 'cg.js'), 'symbols', '*', '--kind', 'method', '--limit', '1000', '--json'],
  { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 })).symbols.map((s) => `${s.file}:${s.qualifiedName}`);
const counts = new Map();
for (const r of listed) counts.set(r, (counts.get(r) ?? 0) + 1);
let seed = 14;
const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const names = [...counts].filter(([r, n]) => n === 1 && !r.startsWith('tests/')).map(([r]) => r)
  .map((r) => [next(), r]).sort((a, b) => a[0] - b[0]).map(([, r]) => r).slice(0, calls + 1);
const list = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cg-first-calls-')), 'names.json');
fs.writeFileSync(list, JSON.stringify(names));
const builds = { this: path.join(here, '..'), other };
const results = { this: [], other: [] };
for (let r = 0; r < runs; r++) {
  for (const w of r % 2 ? ['other', 'this'] : ['this', 'other']) {
    const res = JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', builds[w], dir, list], { encoding: 'utf8' }));
    results[w].push({ ...res, loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100) });
    console.error(`run ${r + 1} ${w.padEnd(5)} ${res.calls} calls: p50 ${res.p50} ms, p95 ${res.p95} ms, p99 ${res.p99} ms, total ${res.totalMs} ms`);
  }
}
const med = (w, f) => ms(pct(results[w].map((x) => x[f]), 50));
const summary = {
  date: new Date().toISOString(), machine: `${os.cpus()[0]?.model} x${os.cpus().length}, Node ${process.version}`,
  what: 'get_references (depth 2) on each method once, CPU per call, one build per process, builds alternating; medians over runs',
  this: execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: builds.this, encoding: 'utf8' }).trim(),
  other: { dir: path.basename(other), commit: execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: other, encoding: 'utf8' }).trim() },
  corpus: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim(),
  median: Object.fromEntries(['this', 'other'].map((w) => [w, { p50: med(w, 'p50'), p95: med(w, 'p95'), p99: med(w, 'p99'), totalMs: med(w, 'totalMs') }])),
  runs: results,
};
if (out) fs.writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary.median));
fs.rmSync(path.dirname(list), { recursive: true, force: true });
