#!/usr/bin/env node
// MCP latency on a large repository: `cg serve` (working-tree watch off) answers the same tasks twice
// through the SDK's stdio client, per tool: codegraph_query and get_context (the task), search_symbols
// (its first word) and get_references (its first word as a symbol name). bench-mcp.mjs measures the
// spec's targets on rich; this one shows what a repository of 10-100× rich's size costs, where
// whatever a query reads per call grows with the index.
//
// With --other CHECKOUT both builds are measured in the same run, servers alternating by round.
//
// Usage: node eval/bench-mcp-large.mjs --repo INDEXED_DIR --tasks "task one;task two;..." [--other CHECKOUT]
//          [--rounds 2] [--label NAME] [--out eval/results/bench-mcp-large.json]
// The repository must be indexed by both builds' schema (`cg index` in it first).
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { option, otherBuild } from './lib/args.mjs';
import { pct } from './lib/mcp-plan.mjs';
import { saveResult } from './lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const repo = option(argv, '--repo');
const tasks = (option(argv, '--tasks', '') ?? '').split(';').map((t) => t.trim()).filter(Boolean);
if (!repo || !tasks.length) {
  console.error('usage: node eval/bench-mcp-large.mjs --repo INDEXED_DIR --tasks "task one;task two" [--other CHECKOUT] [--rounds 2]');
  process.exit(2);
}
const rounds = Number(option(argv, '--rounds', '2'));
const label = option(argv, '--label', path.basename(path.resolve(repo)));
const out = option(argv, '--out', path.join(here, 'results', 'bench-mcp-large.json'));
const builds = [['head', path.join(here, '..')], ...(argv.includes('--other') ? [['other', otherBuild(argv)]] : [])];
const TOOLS = {
  codegraph_query: (t) => ({ query: t }),
  get_context: (t) => ({ query: t }),
  search_symbols: (t) => ({ query: t.split(' ')[0] }),
  get_references: (t) => ({ symbol_name: t.split(' ')[0] }),
};

/** One server's answers to every task, `rounds` times, per tool (ms of each round trip). */
async function measure(checkout) {
  const client = new Client({ name: 'bench', version: '0' });
  const transport = new StdioClientTransport({ command: process.execPath,
    args: [path.join(checkout, 'bin', 'cg.js'), 'serve', path.resolve(repo), '--toolsets', 'all', '--no-watch'], stderr: 'pipe' });
  let err = '';
  transport.stderr.on('data', (d) => (err += String(d)));
  await client.connect(transport);
  // Timed once the warm-up is done, as an agent's first question usually comes after reading the tool list.
  for (let i = 0; i < 400 && !err.includes('query path warm'); i++) await new Promise((r) => setTimeout(r, 50));
  const times = {};
  for (const [tool, argsOf] of Object.entries(TOOLS)) {
    times[tool] = [];
    for (let r = 0; r < rounds; r++) {
      for (const t of tasks) {
        const s = performance.now();
        await client.callTool({ name: tool, arguments: argsOf(t) });
        times[tool].push(performance.now() - s);
      }
    }
  }
  await client.close();
  return times;
}

const samples = Object.fromEntries(builds.map(([name]) => [name, Object.fromEntries(Object.keys(TOOLS).map((t) => [t, []]))]));
// Builds alternate: each measures its servers in turn, so a drift of the machine falls on both.
for (let k = 0; k < 2; k++) {
  for (const [name, dir] of k % 2 ? [...builds].reverse() : builds) {
    const times = await measure(dir);
    for (const [tool, xs] of Object.entries(times)) samples[name][tool].push(...xs);
    console.error(`${name} pass ${k + 1}: ${Object.entries(times).map(([t, xs]) => `${t} p50 ${pct(xs, 50).toFixed(1)}`).join(', ')}`);
  }
}
const ms = (x) => Math.round(x * 10) / 10;
const result = {
  label, date: new Date().toISOString(), repo: path.resolve(repo), tasks: tasks.length, rounds, node: process.version,
  cpus: os.cpus().length, loadavg: os.loadavg().map((x) => +x.toFixed(2)),
  note: 'ms per call through cg serve (--no-watch), two servers per build, builds alternating; p50/p95 over every call',
  builds: Object.fromEntries(builds.map(([name, dir]) => [name, path.basename(dir)])),
  latencyMs: Object.fromEntries(Object.entries(samples).map(([name, byTool]) => [name, Object.fromEntries(Object.entries(byTool)
    .map(([tool, xs]) => [tool, { p50: ms(pct(xs, 50)), p95: ms(pct(xs, 95)), calls: xs.length }]))])),
};
saveResult(out, label, result);
console.log(JSON.stringify(result.latencyMs, null, 2));
