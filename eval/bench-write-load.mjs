#!/usr/bin/env node
// Readers under write load (issue 22): how long MCP calls wait while the index is being written.
//
// A fresh clone of a real repository is indexed and gets cg's git hooks (`cg hooks install`), so every
// commit records a change and starts the background applier, as in use. R `cg serve` processes (R
// agents) are each driven by the SDK's stdio client, calling codegraph_query, search_symbols and
// get_context back to back. Phases, in one run:
//   quiet   readers alone for --quiet seconds: the baseline latency;
//   burst   N commits in rapid succession (each edits --files files), readers going on, until every
//           change is applied (no pending change-log record, no writer);
//   after   readers alone again for --quiet seconds.
// Reported per phase: p50, p99 and max call latency (round trip over stdio), and the servers' RSS:
// while reading before the burst, at its peak in it (sampled every 100 ms), while reading after it,
// and, to compare what is retained, idle before and after (the readers pause until each server's
// --idle-release of 2 s drops its query path and collects: V8 keeps heap it grew for a while, so RSS
// while reading says little about what a burst leaves behind).
// Appends to eval/results/bench-write-load.json (one list of runs per label).
//
// Usage: node eval/bench-write-load.mjs [--repo GIT_DIR] [--commits 50] [--readers 2] [--files 3] [--quiet 15] [--label NAME]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const CG = path.join(here, '..', 'bin', 'cg.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const source = opt('--repo', '/work/.mirror/honojs+hono/repo');
const commits = Number(opt('--commits', '50'));
const readers = Number(opt('--readers', '2'));
const filesPerCommit = Number(opt('--files', '3'));
const quietSeconds = Number(opt('--quiet', '15'));
const label = opt('--label', path.basename(path.dirname(source)).replace('+', '/'));
const execFileAsync = promisify(execFile);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : null;
};
const round = (x) => (x === null ? null : Math.round(x));
const rssMiB = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return 0;
  }
};

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-load-'));
const dir = path.join(scratch, 'repo');
execFileSync('git', ['clone', '-q', '--shared', source, dir]);
const git = (...a) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...a], { cwd: dir, encoding: 'utf8' });
const cli = (...a) => {
  const r = spawnSync(process.execPath, [CG, ...a], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`cg ${a.join(' ')}: ${r.stderr}`);
  return r.stdout;
};
const indexed = JSON.parse(cli('index', '--json', '-q'));
cli('hooks', 'install');
console.error(`${label}: ${indexed.files} files, ${indexed.symbols} symbols; ${readers} readers, ${commits} commits of ${filesPerCommit} files`);

// Source files to edit: the largest of the indexed language, so each apply has real work.
const candidates = git('ls-files').split('\n').filter((f) => /\.(ts|tsx|py|go|rs|java|js)$/.test(f) && !/test|spec|\.d\.ts$/.test(f))
  .map((f) => ({ f, size: fs.statSync(path.join(dir, f)).size })).sort((a, b) => b.size - a.size).slice(0, 30).map((x) => x.f);
const ext = path.extname(candidates[0]);
const addition = (n, i) => (ext === '.py' ? `\n\ndef bench_added_${n}_${i}(value):\n    return value + ${n}\n`
  : ext === '.go' ? `\n\nfunc BenchAdded${n}x${i}(v int) int {\n\treturn v + ${n}\n}\n`
    : `\n\nexport function benchAdded${n}x${i}(value: number): number {\n  return value + ${n};\n}\n`);

const TASKS = [
  ['codegraph_query', { query: 'route a request through the middleware chain' }],
  ['search_symbols', { query: 'handler' }],
  ['codegraph_query', { query: 'parse the request body as json', include_snippets: true }],
  ['get_context', { query: 'validate the input and return an error response', token_budget: 3000 }],
  ['search_symbols', { query: 'bench_added' }],
];

let phase = 'warmup';
const samples = [];
let stop = false;
let paused = false;
const IDLE = 2;
/** The servers' RSS once they have been idle long enough to release their query path and collect. */
async function retained() {
  paused = true;
  await sleep((IDLE + 2) * 1000);
  const mib = rss();
  paused = false;
  return mib;
}

async function reader(k) {
  const client = new Client({ name: `bench-reader-${k}`, version: '0' });
  // A short idle release: when the readers pause, each server drops its query path and collects, so
  // its RSS then is what it retains, comparable before and after the burst.
  const transport = new StdioClientTransport({ command: process.execPath, args: [CG, 'serve', dir, '--idle-release', String(IDLE)], stderr: 'ignore' });
  await client.connect(transport);
  return {
    pid: transport.pid,
    done: (async () => {
      let firstAfterPause = false;
      for (let i = k; !stop; i++) {
        while (paused && !stop) {
          firstAfterPause = true;
          await sleep(50);
        }
        const [name, a] = TASKS[i % TASKS.length];
        const t = performance.now();
        const r = await client.callTool({ name, arguments: a });
        const ms = performance.now() - t;
        if (r.isError && !['empty_results', 'index_stale'].includes(r.structuredContent?.status)) {
          throw new Error(`${name}: ${JSON.stringify(r.structuredContent).slice(0, 300)}`);
        }
        // The first call after a pause loads the query path again (the server released it): not a reading.
        samples.push({ phase: firstAfterPause || phase === 'reload' ? 'reload' : phase, name, ms, at: Date.now() });
        if (TASKS[i % TASKS.length][0] === 'codegraph_query') firstAfterPause = false;
      }
      await client.close();
    })(),
  };
}

// Everything the benchmark does while readers run is asynchronous: a blocked event loop here would
// show up as reader latency that the server never caused.
const pending = async () => JSON.parse((await execFileAsync(process.execPath, [CG, 'status', '--json'], { cwd: dir, maxBuffer: 1 << 28 })).stdout)
  .freshness.pendingChanges;
const writerBusy = () => fs.existsSync(path.join(dir, '.codegraph', 'writer.lock'));

const started = await Promise.all(Array.from({ length: readers }, (_, k) => reader(k)));
const pids = started.map((r) => r.pid);
const rss = () => pids.reduce((sum, pid) => sum + rssMiB(pid), 0);
await sleep(5000); // warm-up: tokenizer, model, caches
let rssRetainedBefore = 0;
// Retained memory is compared after a release that follows a reload: the first reload leaves the
// allocator holding ~50 MiB more per server than a first load did (measured in-process: heap and
// external memory are back where they were, RSS plateaus from the second cycle on).
for (const _ of [1, 2]) {
  phase = 'reload'; // the first calls after a pause load the query path again: not the baseline
  await sleep(3000);
  phase = 'pause';
  rssRetainedBefore = await retained();
}
phase = 'reload';
await sleep(3000);
phase = 'quiet';
const rssAfterWarmup = rss();
await sleep(quietSeconds * 1000);

phase = 'burst';
let rssPeak = rss();
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss())), 100);
const burstStart = Date.now();
// The commits come from a process of their own, in rapid succession, each running the hooks.
const committer = path.join(scratch, 'commits.mjs');
fs.writeFileSync(committer, `
  import fs from 'node:fs';
  import { execFileSync } from 'node:child_process';
  const files = ${JSON.stringify(candidates)};
  const addition = ${addition.toString()};
  const ext = ${JSON.stringify(ext)};
  for (let n = 1; n <= ${commits}; n++) {
    for (let i = 0; i < ${filesPerCommit}; i++) fs.appendFileSync(files[(n * ${filesPerCommit} + i) % files.length], addition(n, i));
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-qam', 'bench commit ' + n]);
  }`);
const committing = spawn(process.execPath, [committer], { cwd: dir, stdio: 'inherit' });
await new Promise((resolve) => committing.once('exit', resolve));
const committedMs = Date.now() - burstStart;
while ((await pending()) > 0 || writerBusy()) await sleep(250);
const appliedMs = Date.now() - burstStart;
clearInterval(sampler);

phase = 'after';
await sleep(quietSeconds * 1000);
const rssAfter = rss();
phase = 'pause';
const rssRetainedAfter = await retained();
stop = true;
await Promise.all(started.map((r) => r.done));

const logFile = path.join(dir, '.codegraph', 'applier.log');
const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean) : [];
const summary = (phaseName) => {
  const xs = samples.filter((s) => s.phase === phaseName);
  const byTool = {};
  for (const [name] of TASKS) {
    const ms = xs.filter((s) => s.name === name).map((s) => s.ms);
    byTool[name] = { calls: ms.length, p50: round(pct(ms, 50)), p99: round(pct(ms, 99)), max: round(Math.max(...ms)) };
  }
  const ms = xs.map((s) => s.ms);
  return { calls: ms.length, p50: round(pct(ms, 50)), p99: round(pct(ms, 99)), max: round(Math.max(...ms)), over1s: ms.filter((x) => x > 1000).length, byTool };
};
const out = {
  date: new Date().toISOString().slice(0, 10),
  corpus: label,
  files: indexed.files,
  symbols: indexed.symbols,
  readers,
  commits,
  filesPerCommit,
  machine: `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} at the end`,
  burst: { committedMs, appliedMs, applierRuns: log.filter((l) => l.includes(' start')).length, generation: JSON.parse(cli('status', '--json')).freshness.generation },
  latencyMs: { quiet: summary('quiet'), burst: summary('burst'), after: summary('after') },
  rssMiB: { servers: readers, afterWarmup: Math.round(rssAfterWarmup), peakInBurst: Math.round(rssPeak), afterBurst: Math.round(rssAfter),
    retainedBefore: Math.round(rssRetainedBefore), retainedAfter: Math.round(rssRetainedAfter) },
};
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
const file = path.join(here, 'results', 'bench-write-load.json');
const all = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
// Runs of the same label accumulate: the machine is shared, so a single run says little.
all[label] = [...(Array.isArray(all[label]) ? all[label] : all[label] ? [all[label]] : []), out];
fs.writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
for (const p of ['quiet', 'burst', 'after']) {
  const s = out.latencyMs[p];
  console.log(`${p.padEnd(6)} ${String(s.calls).padStart(5)} calls  p50 ${s.p50} ms  p99 ${s.p99} ms  max ${s.max} ms  (>1 s: ${s.over1s})`);
}
console.log(`burst: ${commits} commits in ${committedMs} ms, all applied after ${appliedMs} ms (${out.burst.applierRuns} applier runs)`);
console.log(`RSS of ${readers} servers: ${out.rssMiB.afterWarmup} MiB reading before the burst, ${out.rssMiB.peakInBurst} MiB peak in it, `
  + `${out.rssMiB.afterBurst} MiB reading after it; idle (query path released, collected) ${out.rssMiB.retainedBefore} MiB before, ${out.rssMiB.retainedAfter} MiB after`);
fs.rmSync(scratch, { recursive: true, force: true });
