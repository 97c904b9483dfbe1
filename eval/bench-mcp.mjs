#!/usr/bin/env node
// MCP server benchmark (issue 6): `cg serve` as an agent sees it, through the SDK's stdio client.
//
//   cold start       spawn `cg serve` -> initialize -> first answer (search_symbols), and to the first
//                    codegraph_query (which also loads the tokenizer and the embedding model); median of N
//   warm latency     p50/p95 per tool over --calls calls with varied arguments, round trip over stdio
//   idle RSS         of the server process after the warm calls (query path loaded), of a server that
//                    gave its query path back after --idle-release 2 (and its next codegraph_query), and
//                    of a server started with --no-warm after one search_symbols
//   baseline         the same question as a fresh `cg` CLI process (what an agent pays without a server),
//                    measured in the same run: the ratio is server p50 / CLI p50
//   tools/list       tokens (cl100k) of each toolset's tools/list answer, as the client receives it
//   answer size      get_references / get_blast_radius (and CodeMem's references / impact) for the most
//                    called symbol of the corpus at the default budget, with the totals the answer gives
//                    and the size of the whole answer (a budget that cuts nothing)
//
// Usage: node eval/bench-mcp.mjs [--repo GIT_DIR] [--calls 30] [--cold 5] [--label NAME] [--note "how busy the machine was"]
//          [--other DIR] [--out FILE]
//   --other DIR   measure another checkout's build (e.g. main's, for runs alternating with this one's)
//   --out FILE    where the result goes (default eval/results/bench-mcp.json)
// Default corpus: the Textualize/rich mirror (51.8k lines of Python, tests included).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Database from 'better-sqlite3';
import { tokenCounter } from '../dist/retrieve/tokens.js';
import { currentDbPath } from '../dist/store/db.js';
import { pct, TASKS, warmPlan } from './lib/mcp-plan.mjs';
import { otherBuild } from './lib/args.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const build = args.includes('--other') ? otherBuild(args) : path.join(here, '..');
const CG = path.join(build, 'bin', 'cg.js');
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const repo = opt('--repo', '/work/.mirror/Textualize+rich/repo');
const calls = Number(opt('--calls', '30'));
const coldRuns = Number(opt('--cold', '5'));
const label = opt('--label', path.basename(path.dirname(repo)));
// Say how loaded the machine was: the 2-core machines here are often shared with other work.
const note = opt('--note', 'no note given on how busy the machine was; compare with the load average');
const out = opt('--out', path.join(here, 'results', 'bench-mcp.json'));
const load = () => os.loadavg().map((x) => Math.round(x * 100) / 100);
const loadAtStart = load();

const median = (xs) => pct(xs, 50);
const ms = (x) => Math.round(x * 100) / 100;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-mcp-'));
const dir = path.join(scratch, 'repo');
execFileSync('git', ['clone', '-q', '--shared', repo, dir]);
const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
const cli = (a) => spawnSync(process.execPath, [CG, ...a], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
const idx = JSON.parse(cli(['index', '--json', '-q']).stdout);
const loc = Object.values(idx.languages).reduce((a, v) => a + v.loc, 0);
console.error(`corpus ${label} @${commit.slice(0, 8)}: ${idx.files} files, ${loc} lines, ${idx.symbols} symbols, ${idx.edges} edges`);

async function start(extra = ['--toolsets', 'all']) {
  const client = new Client({ name: 'bench', version: '0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [CG, 'serve', dir, ...extra], stderr: 'pipe' });
  let err = '';
  transport.stderr.on('data', (d) => (err += String(d)));
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

async function timed(client, name, a) {
  const t = performance.now();
  const r = await client.callTool({ name, arguments: a });
  const dt = performance.now() - t;
  if (r.isError && r.structuredContent?.status !== 'empty_results') throw new Error(`${name} failed: ${r.content[0].text.slice(0, 300)}`);
  return dt;
}

const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

// Cold start.
const coldFirst = [];
const coldQuery = [];
for (let i = 0; i < coldRuns; i++) {
  let t = performance.now();
  let s = await start();
  await timed(s.client, 'search_symbols', { query: 'Console' });
  coldFirst.push(performance.now() - t);
  await s.client.close();
  t = performance.now();
  s = await start();
  await timed(s.client, 'codegraph_query', { query: 'render a table with a border style' });
  coldQuery.push(performance.now() - t);
  await s.client.close();
}

// Varied arguments, taken from the index itself (eval/lib/mcp-plan.mjs).
const plan = warmPlan(CG, dir);
const tasks = TASKS;

const s = await start();
const pid = s.transport.pid;
// Let the background work of a server's start finish before timing (as it would while an agent reads the
// tool list): the query path's warm-up and the working tree watch's first scan (since 2026-11-29; on rich its
// ~150 ms of directory reads had the first ~10 timed calls wait 5-30 ms). Warm latency is the steady state;
// the start is what the cold figures measure.
const startedAt = performance.now();
const settled = () => s.stderr().includes('query path warm') && /watching \d+ directories|--no-watch|not applying/.test(s.stderr());
for (let i = 0; i < 200 && !settled(); i++) await new Promise((r) => setTimeout(r, 50));
const settleMs = Math.round(performance.now() - startedAt);
console.error(`server settled (warm-up and the watch's first scan) ${settleMs} ms after the client connected`);
const loadBeforeWarm = load();
const warm = {};
for (const [name, argsOf] of Object.entries(plan)) {
  const tool = name.split(' ')[0];
  await timed(s.client, tool, argsOf(1000)); // first call of each tool not counted (statement preparation)
  const xs = [];
  for (let i = 0; i < calls; i++) xs.push(await timed(s.client, tool, argsOf(i)));
  warm[name] = { p50: ms(median(xs)), p95: ms(pct(xs, 95)), max: ms(Math.max(...xs)), calls };
  console.error(`${name.padEnd(17)} p50 ${warm[name].p50} ms  p95 ${warm[name].p95} ms`);
}
await new Promise((r) => setTimeout(r, 2000));
const idleRss = rssMiB(pid);
await s.client.close();

// A server that released its query path after --idle-release seconds without a request, and what the
// next codegraph_query then costs (it loads the token encoding and the model again).
const idler = await start(['--idle-release', '2']);
await timed(idler.client, 'codegraph_query', { query: tasks[0] });
for (let i = 0; i < 200 && !idler.stderr().includes('released the token encoding'); i++) await new Promise((r) => setTimeout(r, 50));
await new Promise((r) => setTimeout(r, 500));
const idleRssReleased = rssMiB(idler.transport.pid);
const afterRelease = await timed(idler.client, 'codegraph_query', { query: tasks[1] });
await idler.client.close();

const lazy = await start(['--no-warm']);
await timed(lazy.client, 'search_symbols', { query: 'Console' });
await new Promise((r) => setTimeout(r, 1000));
const idleRssNoWarm = rssMiB(lazy.transport.pid);
await lazy.client.close();

// Baseline: a fresh CLI process per question.
const baseline = {};
const cliPlan = {
  search_symbols: (i) => ['symbols', plan.search_symbols(i).query, '--limit', '20', '--json'],
  get_references: (i) => ['refs', plan.get_references(i).symbol_name, '--depth', '2', '--json'],
  codegraph_query: (i) => ['query', tasks[i % tasks.length], '--snippets', '--json'],
};
for (const [name, argv] of Object.entries(cliPlan)) {
  const xs = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const r = cli(argv(i));
    xs.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`cg ${argv(i).join(' ')}: ${r.stderr}`);
  }
  baseline[name] = { p50: ms(median(xs)), runs: xs.length, ratio: ms(warm[name].p50 / median(xs)) };
}

// Tokens of each toolset's tools/list, as the client receives it.
const count = await tokenCounter();
const toolsets = {};
for (const set of ['default', 'codegrapher', 'bombe', 'codemem', 'analysis', 'all']) {
  const c = await start(['--toolsets', set, '--no-warm']);
  const { tools } = await c.client.listTools();
  toolsets[set] = { tools: tools.length, tokens: count(JSON.stringify({ tools })), names: tools.map((t) => t.name) };
  await c.client.close();
  console.error(`tools/list ${set.padEnd(12)} ${tools.length} tools, ${toolsets[set].tokens} tokens`);
}

// Answer size for the most called symbol, at the default budget and whole.
const db = new Database(currentDbPath(dir), { readonly: true });
const [hub] = db.prepare(`SELECT f.path || ':' || s.qualified_name AS ref, COUNT(DISTINCT e.src_id) AS callers FROM edges e
  JOIN symbols s ON s.id = e.dst_id JOIN files f ON f.id = s.file_id WHERE e.kind = 'calls' GROUP BY e.dst_id ORDER BY callers DESC LIMIT 1`).all();
db.close();
const sizer = await start();
const sizes = { symbol: hub.ref, callers: hub.callers };
for (const [tool, a] of [['get_references', { symbol_name: hub.ref }], ['get_blast_radius', { symbol_name: hub.ref }],
  ['references', { symbol_name: hub.ref }], ['impact', { symbol_name: hub.ref }]]) {
  const size = async (args) => {
    const r = await sizer.client.callTool({ name: tool, arguments: args });
    if (r.isError) throw new Error(`${tool}: ${r.content[0].text.slice(0, 300)}`);
    return { tokens: Math.max(count(r.content.map((c) => c.text).join('\n')), count(JSON.stringify(r.structuredContent))), body: r.structuredContent };
  };
  const dflt = await size(a);
  const whole = await size({ ...a, token_budget: 50_000 });
  sizes[tool] = { defaultBudgetTokens: dflt.tokens, wholeAnswerTokens: whole.tokens,
    totals: dflt.body.totals ?? (dflt.body.impact ? { direct_callers: dflt.body.impact.total_affected_symbols, affected_files: dflt.body.impact.total_affected_files } : { results: dflt.body.total }),
    omitted: dflt.body.omitted ?? null };
  console.error(`${tool.padEnd(17)} ${hub.ref}: ${dflt.tokens} tokens at the default budget (whole answer ${whole.tokens}); omitted ${JSON.stringify(dflt.body.omitted ?? {})}`);
}
await sizer.client.close();

const result = {
  date: new Date().toISOString(),
  build: { dir: path.basename(build), commit: execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: build, encoding: 'utf8' }).trim() },
  machine: `${os.cpus()[0]?.model} x${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  note,
  loadAverage: { atStart: loadAtStart, beforeWarmCalls: loadBeforeWarm, atEnd: load() },
  corpus: { label, commit, files: idx.files, lines: loc, symbols: idx.symbols, edges: idx.edges, vectors: idx.vectors ?? null },
  coldStartMs: { firstAnswer: { median: ms(median(coldFirst)), runs: coldFirst.map(ms) }, firstQuery: { median: ms(median(coldQuery)), runs: coldQuery.map(ms) } },
  settledAfterConnectMs: settleMs, // warm-up and the working tree watch's first scan done; warm calls are timed after
  warmMs: warm,
  idleRssMiB: { warm: ms(idleRss), afterIdleRelease: ms(idleRssReleased), noWarm: ms(idleRssNoWarm) },
  firstQueryAfterIdleReleaseMs: ms(afterRelease),
  cliBaselineMs: baseline,
  toolsListTokens: toolsets,
  answerSizeForMostCalledSymbol: sizes,
  targets: { coldStartMs: 1000, symbolSearchAndRefsP95Ms: 5, contextAndQueryP95Ms: 50, idleRssMiB: 150, heavySymbolAnswerTokens: 2000 },
};
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
fs.rmSync(scratch, { recursive: true, force: true });
