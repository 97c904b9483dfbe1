#!/usr/bin/env node
// Server work of the MCP tools, this checkout against another build (e.g. main's), in one process: both
// builds' createServer on one index, each call of eval/bench-mcp.mjs's warm plan (eval/lib/mcp-plan.mjs)
// sent to both, the order alternating, timed as the process's CPU time (user + system) of the call and
// of serializing its JSON-RPC response. CPU time is what a shared machine leaves least disturbed: a
// round trip also holds the time a process waited for a core (eval/ab-serve.mjs and bench-mcp.mjs
// measure that). Per tool and round: p50 and p95 over the calls; reported: the medians over the rounds,
// the ratio this/other, and the p95 over the calls of each call's median (which one slow round of a
// call, a collection say, does not move). Each call's first time, as bench-mcp.mjs makes it, is
// eval/first-calls.mjs's measure (one build per process: here the two share a heap and its collections). The answers of the two builds are compared too (freshness
// aside): a speed-up that changes an answer is reported as such.
//
// Usage: node eval/ab-inproc.mjs --other DIR [--repo GIT_DIR | --dir INDEXED_CLONE] [--tools 'a;b']
//          [--calls 30] [--rounds 5] [--out FILE]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { option, otherBuild } from './lib/args.mjs';
import { pct, warmPlan } from './lib/mcp-plan.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => option(args, name, dflt);
const other = otherBuild(args);
const calls = Number(opt('--calls', '30'));
const rounds = Number(opt('--rounds', '5'));
const out = opt('--out', null);
const CG = path.join(here, '..', 'bin', 'cg.js');

let dir = opt('--dir', null);
let scratch = null;
if (!dir) {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-ab-inproc-'));
  dir = path.join(scratch, 'repo');
  execFileSync('git', ['clone', '-q', '--shared', opt('--repo', '/work/.mirror/Textualize+rich/repo'), dir]);
  const idx = spawnSync(process.execPath, [CG, 'index', '-q'], { cwd: dir, encoding: 'utf8' });
  if (idx.status !== 0) throw new Error(`cg index: ${idx.stderr}`);
}
const plan = warmPlan(CG, dir);
const tools = opt('--tools', 'search_symbols;get_references;get_blast_radius;references;impact;tests_for').split(';').map((t) => t.trim());
for (const t of tools) if (!plan[t]) throw new Error(`no tool "${t}" in the plan: ${Object.keys(plan).join('; ')}`);

const servers = {
  this: (await import(path.join(here, '..', 'dist', 'mcp', 'server.js'))).createServer(dir, { toolsets: ['all'] }),
  other: (await import(path.join(other, 'dist', 'mcp', 'server.js'))).createServer(dir, { toolsets: ['all'] }),
};
const cpuMs = (t) => (t.user + t.system) / 1000;
async function timed(which, name, a) {
  const t = process.cpuUsage();
  const result = await servers[which].call(name, a);
  const wire = JSON.stringify({ jsonrpc: '2.0', id: 1, result });
  return { ms: cpuMs(process.cpuUsage(t)), wire };
}
// Freshness (its age in seconds) differs between two calls a moment apart; nothing else may.
const comparable = (wire) => wire.replace(/\\?"freshness\\?":\{[^}]*\}/g, '').replace(/index: [0-9a-f]{12}, generation \d+, \d+ (s|min|h) old/g, '');

const loadAtStart = os.loadavg();
const result = {};
for (const tool of tools) {
  const name = tool.split(' ')[0];
  const argsOf = (i) => plan[tool](i);
  for (const w of ['this', 'other']) await timed(w, name, argsOf(1000)); // statement preparation, not counted
  const perRound = { this: [], other: [] };
  const perCall = { this: Array.from({ length: calls }, () => []), other: Array.from({ length: calls }, () => []) };
  let differing = 0;
  for (let r = 0; r < rounds; r++) {
    const xs = { this: [], other: [] };
    for (let i = 0; i < calls; i++) {
      const order = (i + r) % 2 ? ['this', 'other'] : ['other', 'this'];
      const got = {};
      for (const w of order) {
        got[w] = await timed(w, name, argsOf(i));
        xs[w].push(got[w].ms);
        perCall[w][i].push(got[w].ms);
      }
      if (r === 0 && comparable(got.this.wire) !== comparable(got.other.wire)) differing++;
    }
    for (const w of ['this', 'other']) perRound[w].push({ p50: pct(xs[w], 50), p95: pct(xs[w], 95) });
  }
  const med = (w, f) => Math.round(pct(perRound[w].map((x) => x[f]), 50) * 100) / 100;
  const callP95 = (w) => Math.round(pct(perCall[w].map((xs) => pct(xs, 50)), 95) * 100) / 100;
  result[tool] = {
    this: { p50: med('this', 'p50'), p95: med('this', 'p95'), p95OfCallMedians: callP95('this') },
    other: { p50: med('other', 'p50'), p95: med('other', 'p95'), p95OfCallMedians: callP95('other') },
    ratio: { p50: Math.round((med('this', 'p50') / med('other', 'p50')) * 100) / 100, p95: Math.round((med('this', 'p95') / med('other', 'p95')) * 100) / 100 },
    answersDiffering: differing,
  };
  const r = result[tool];
  console.error(`${tool.padEnd(18)} p50 ${r.this.p50} vs ${r.other.p50} ms (x${r.ratio.p50})  p95 ${r.this.p95} vs ${r.other.p95} ms (x${r.ratio.p95})`
    + `  p95 of call medians ${r.this.p95OfCallMedians} vs ${r.other.p95OfCallMedians}`
    + `${differing ? `  ${differing} ANSWERS DIFFER` : ''}`);
}
const summary = {
  date: new Date().toISOString(),
  machine: `${os.cpus()[0]?.model} x${os.cpus().length}, Node ${process.version}`,
  what: 'in-process CPU time per call (the call and its JSON-RPC serialization), this checkout vs --other, calls alternating; medians over rounds',
  this: execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: path.join(here, '..'), encoding: 'utf8' }).trim(),
  other: { dir: path.basename(other), commit: execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: other, encoding: 'utf8' }).trim() },
  corpus: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim(),
  calls, rounds,
  loadAverage: { atStart: loadAtStart.map((x) => Math.round(x * 100) / 100), atEnd: os.loadavg().map((x) => Math.round(x * 100) / 100) },
  tools: result,
};
if (out) fs.writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary, null, 2));
if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
process.exit(0);
