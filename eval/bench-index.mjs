#!/usr/bin/env node
// Full-index benchmark: structure only (issue 2: embeddings switched off in the corpus's config) and
// with the built-in embeddings (issue 4), against a parse-only floor. Default corpus: Django from Debian's python3-django
// (`apt-get install python3-django`, ~130k lines of Python in ~900 files).
//
// For each of N runs (default 3) on a fresh copy of the corpus:
//   - floor (1 thread): read + tree-sitter parse of every file, nothing else, in this process;
//   - floor (pool): the same split over worker threads, one per core, as cg's build does;
//   - cg index: the real CLI as a child process (Node start-up included), wall time and peak RSS,
//     structure only (`"embeddings": {"enabled": false}`) and with embeddings (the default config).
// Prints medians, LOC/s and the ratio to the floors, and writes eval/results/bench-index.json.
//
// Usage: node eval/bench-index.mjs [--corpus DIR] [--runs N] [--label NAME]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

const here = path.dirname(fileURLToPath(import.meta.url));
const cg = path.join(here, '..', 'bin', 'cg.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const corpus = opt('--corpus', '/usr/lib/python3/dist-packages/django');
const runs = Number(opt('--runs', '3'));
const label = opt('--label', 'django (Debian python3-django)');
if (!fs.existsSync(corpus)) {
  console.error(`Corpus not found: ${corpus}\nInstall it with: apt-get install python3-django   (or pass --corpus DIR)`);
  process.exit(2);
}
const { languageForFile } = await import('../dist/lang/registry.js');
const { grammarPath } = await import('../dist/lang/loader.js');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The files cg would index (same walk, same ignore and vendor rules), so the floor parses the same set.
const { walkRepo } = await import('../dist/repo/walk.js');
const { walkOptions } = await import('../dist/indexer/build.js');
const { DEFAULT_CONFIG } = await import('../dist/config/config.js');
const listFiles = (root) => walkRepo(root, walkOptions(DEFAULT_CONFIG)).files.map((f) => f.path);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-'));
// The corpus directory is copied whole (django/ stays django/), so that imports of the package resolve.
const copy = path.join(scratch, 'corpus');
fs.cpSync(corpus, path.join(copy, path.basename(corpus)), { recursive: true });
const files = listFiles(copy);
const byGrammar = new Map();
for (const f of files) {
  const g = grammarPath(languageForFile(f));
  if (!byGrammar.has(g)) byGrammar.set(g, []);
  byGrammar.get(g).push(f);
}
let loc = 0;
let bytes = 0;
for (const f of files) {
  const t = fs.readFileSync(path.join(copy, f), 'utf8');
  bytes += Buffer.byteLength(t);
  loc += t.split('\n').length - (t.endsWith('\n') ? 1 : 0);
}

const workerFile = path.join(here, 'parse-floor-worker.mjs');
const { default: parseAll } = await import(workerFile);
const threads = os.availableParallelism();
const pool = new Piscina({ filename: workerFile, minThreads: threads, maxThreads: threads });

/** One `cg index` from scratch as a child process; `config` (when given) is written to .codegraph/config.json first. */
function runIndex(config) {
  fs.rmSync(path.join(copy, '.codegraph'), { recursive: true, force: true });
  if (config) {
    fs.mkdirSync(path.join(copy, '.codegraph'));
    fs.writeFileSync(path.join(copy, '.codegraph', 'config.json'), JSON.stringify(config));
  }
  const t = performance.now();
  // GNU time reports the peak RSS (KiB) of the whole cg process, worker threads included.
  const res = spawnSync('/usr/bin/time', ['-f', 'CG_PEAK_RSS_KIB %M', process.execPath, cg, 'index', copy, '--json', '--quiet'],
    { encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - t;
  if (res.status !== 0) throw new Error(`cg index failed: ${res.stderr}`);
  return { ms, summary: JSON.parse(res.stdout), rss: Number(/CG_PEAK_RSS_KIB (\d+)/.exec(res.stderr)[1]) / 1024 };
}

const floor1 = [];
const floorPool = [];
const index = [];
const rss = [];
const indexEmbed = [];
const rssEmbed = [];
let summary = null;
let summaryEmbed = null;
for (let i = 0; i < runs; i++) {
  let t = performance.now();
  for (const [grammar, list] of byGrammar) await parseAll({ root: copy, files: list, grammar });
  floor1.push(performance.now() - t);

  t = performance.now();
  const tasks = [];
  for (const [grammar, list] of byGrammar) {
    const chunk = Math.ceil(list.length / (threads * 4));
    for (let j = 0; j < list.length; j += chunk) tasks.push(pool.run({ root: copy, files: list.slice(j, j + chunk), grammar }));
  }
  await Promise.all(tasks);
  floorPool.push(performance.now() - t);

  const structure = runIndex({ embeddings: { enabled: false } });
  index.push(structure.ms);
  rss.push(structure.rss);
  summary = structure.summary;
  const embedded = runIndex(null);
  indexEmbed.push(embedded.ms);
  rssEmbed.push(embedded.rss);
  summaryEmbed = embedded.summary;
}
await pool.destroy();
fs.rmSync(scratch, { recursive: true, force: true });

const m = { floor1: median(floor1), floorPool: median(floorPool), index: median(index), rss: median(rss),
  indexEmbed: median(indexEmbed), rssEmbed: median(rssEmbed) };
const result = {
  label,
  corpus,
  date: new Date().toISOString().slice(0, 10),
  machine: `${os.cpus()[0].model}, ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  node: process.version,
  files: files.length,
  loc,
  megabytes: +(bytes / 1e6).toFixed(2),
  runs,
  indexed: { files: summary.files, symbols: summary.symbols, edges: summary.edges, skipped: summary.skipped },
  medianMs: { parseFloor1Thread: Math.round(m.floor1), parseFloorPool: Math.round(m.floorPool), cgIndex: Math.round(m.index),
    cgIndexWithEmbeddings: Math.round(m.indexEmbed) },
  allMs: { parseFloor1Thread: floor1.map(Math.round), parseFloorPool: floorPool.map(Math.round), cgIndex: index.map(Math.round),
    cgIndexWithEmbeddings: indexEmbed.map(Math.round) },
  vectors: summaryEmbed.vectors ?? null,
  peakRssWithEmbeddingsMiB: Math.round(m.rssEmbed),
  locPerSecond: Math.round(loc / (m.index / 1000)),
  ratioToPoolFloor: +(m.index / m.floorPool).toFixed(2),
  ratioTo1ThreadFloor: +(m.index / m.floor1).toFixed(2),
  peakRssMiB: Math.round(m.rss),
};
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'bench-index.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(`| corpus | files | LOC | parse floor, 1 thread | parse floor, ${threads} threads | cg index (CLI) | LOC/s | vs ${threads}-thread floor | peak RSS |`);
console.log('|---|---|---|---|---|---|---|---|---|');
console.log(`| ${label} | ${files.length} | ${loc} | ${(m.floor1 / 1000).toFixed(2)} s | ${(m.floorPool / 1000).toFixed(2)} s | **${(m.index / 1000).toFixed(2)} s** | ${result.locPerSecond} | ${result.ratioToPoolFloor}x | ${result.peakRssMiB} MiB |`);
console.log(`with embeddings (default config): **${(m.indexEmbed / 1000).toFixed(2)} s**, peak RSS ${result.peakRssWithEmbeddingsMiB} MiB`);
