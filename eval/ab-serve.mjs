#!/usr/bin/env node
// Warm latency of `cg serve`, this checkout against another build (e.g. main's), in the same run: both
// servers run at once on one index, over the SDK's stdio client as an agent calls them, and each call of
// eval/bench-mcp.mjs's warm plan (eval/lib/mcp-plan.mjs) goes to both, the order alternating, so a busy
// machine slows both alike. Each round gives a p50 and p95 per tool and server; the figures are the
// medians over the rounds, and the ratio this/other of those medians. The load average is recorded.
// Besides the round trip (wall clock), each call's time on the CPU of the server's main thread
// (/proc/PID/schedstat, nanoseconds) and the client's CPU time (this process: reading the answer, the
// SDK's validation of it): on a busy machine the round trip also holds the time both waited for a core,
// which their CPU times do not.
//
// Usage: node eval/ab-serve.mjs --other /path/to/other/checkout [--repo GIT_DIR] [--tools 'a;b'] [--calls 30]
//          [--rounds 3] [--label NAME] [--out eval/results/FILE.json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { option, otherBuild } from './lib/args.mjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { saveResult } from './lib/results.mjs';
import { pct, warmPlan } from './lib/mcp-plan.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => option(args, name, dflt);
const other = otherBuild(args);
const repo = opt('--repo', '/work/.mirror/Textualize+rich/repo');
const calls = Number(opt('--calls', '30'));
const rounds = Number(opt('--rounds', '3'));
const label = opt('--label', `vs ${path.basename(other)}`);
const out = opt('--out', null);
const CG = { this: path.join(here, '..', 'bin', 'cg.js'), other: path.join(other, 'bin', 'cg.js') };

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-ab-serve-'));
const dir = path.join(scratch, 'repo');
execFileSync('git', ['clone', '-q', '--shared', repo, dir]);
const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
// One index, built by this checkout; both servers read it (the schema must match: compare builds of one schema).
const idx = spawnSync(process.execPath, [CG.this, 'index', '-q'], { cwd: dir, encoding: 'utf8' });
if (idx.status !== 0) throw new Error(`cg index: ${idx.stderr}`);
const plan = warmPlan(CG.this, dir);
// Names as in the plan, separated by semicolons (a name may hold a comma).
const tools = opt('--tools', null)?.split(';').map((t) => t.trim()) ?? Object.keys(plan);
for (const t of tools) if (!plan[t]) throw new Error(`no tool "${t}" in the plan: ${Object.keys(plan).join('; ')}`);

async function start(cg) {
  const client = new Client({ name: 'ab-serve', version: '0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [cg, 'serve', dir, '--toolsets', 'all'], stderr: 'pipe' });
  let err = '';
  transport.stderr.on('data', (d) => (err += String(d)));
  await client.connect(transport);
  for (let i = 0; i < 200 && !err.includes('query path warm'); i++) await new Promise((r) => setTimeout(r, 50));
  return { client, pid: transport.pid };
}

/** Nanoseconds the process's main thread has run on a CPU. */
const onCpu = (pid) => Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);

async function timed(server, name, a) {
  const cpu = onCpu(server.pid);
  const client = process.cpuUsage();
  const t = performance.now();
  const r = await server.client.callTool({ name, arguments: a });
  const wall = performance.now() - t;
  const used = process.cpuUsage(client);
  if (r.isError && r.structuredContent?.status !== 'empty_results') throw new Error(`${name} failed: ${r.content[0].text.slice(0, 300)}`);
  return { wall, cpu: (onCpu(server.pid) - cpu) / 1e6, client: (used.user + used.system) / 1000 };
}

const servers = { this: await start(CG.this), other: await start(CG.other) };
const ms = (x) => Math.round(x * 100) / 100;
const perRound = Object.fromEntries(tools.map((t) => [t, Object.fromEntries(['this', 'other'].map((side) => [side,
  { p50: [], p95: [], cpuP50: [], cpuP95: [], clientP95: [] }]))]));
const loads = [];
for (let r = 0; r < rounds; r++) {
  for (const name of tools) {
    const tool = name.split(' ')[0];
    for (const s of Object.values(servers)) await timed(s, tool, plan[name](1000)); // not counted (statement preparation)
    const xs = { this: [], other: [] };
    for (let i = 0; i < calls; i++) {
      for (const side of (i + r) % 2 ? ['this', 'other'] : ['other', 'this']) xs[side].push(await timed(servers[side], tool, plan[name](i)));
    }
    for (const side of ['this', 'other']) {
      const wall = xs[side].map((x) => x.wall);
      const cpu = xs[side].map((x) => x.cpu);
      const client = xs[side].map((x) => x.client);
      Object.entries({ p50: pct(wall, 50), p95: pct(wall, 95), cpuP50: pct(cpu, 50), cpuP95: pct(cpu, 95), clientP95: pct(client, 95) })
        .forEach(([k, v]) => perRound[name][side][k].push(ms(v)));
    }
  }
  loads.push(os.loadavg().map((x) => Math.round(x * 100) / 100));
  console.error(`round ${r + 1}/${rounds}, load average ${loads.at(-1).join(' ')}`);
}
for (const s of Object.values(servers)) await s.client.close();
fs.rmSync(scratch, { recursive: true, force: true });

const median = (xs) => pct(xs, 50);
const warm = {};
for (const name of tools) {
  const m = (side, k) => median(perRound[name][side][k]);
  const sideOf = (side) => ({ p50: m(side, 'p50'), p95: m(side, 'p95'), cpuP50: m(side, 'cpuP50'), cpuP95: m(side, 'cpuP95'),
    clientP95: m(side, 'clientP95') });
  warm[name] = { this: sideOf('this'), other: sideOf('other'), ratioP50: ms(m('this', 'p50') / m('other', 'p50')),
    ratioP95: ms(m('this', 'p95') / m('other', 'p95')), ratioCpuP95: ms(m('this', 'cpuP95') / m('other', 'cpuP95')), rounds: perRound[name] };
  const w = warm[name];
  console.error(`${name.padEnd(44)} p95 ${w.this.p95} vs ${w.other.p95} ms (x${w.ratioP95}), p50 ${w.this.p50} vs ${w.other.p50}; `
    + `server on CPU p95 ${w.this.cpuP95} vs ${w.other.cpuP95} ms (x${w.ratioCpuP95}), client CPU p95 ${w.this.clientP95} vs ${w.other.clientP95}`);
}
const commitOf = (d) => spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: d, encoding: 'utf8' }).stdout.trim();
const result = {
  date: new Date().toISOString(),
  machine: `${os.cpus()[0]?.model} x${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  command: `node eval/ab-serve.mjs ${args.join(' ')}`,
  builds: { this: commitOf(path.join(here, '..')), other: commitOf(other) },
  corpus: { repo: path.basename(path.dirname(repo)), commit },
  calls, rounds, loadAverageAfterEachRound: loads, warmMs: warm,
};
if (out) saveResult(out, label, result);
console.log(JSON.stringify(result, null, 2));
