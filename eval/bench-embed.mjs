#!/usr/bin/env node
// Embeddings benchmark (built-in model unless --model): model build, model load, symbol-text
// throughput, query latency, the cache's second pass, and the USearch index (rebuild, save, open,
// search). Corpus: Django from Debian's python3-django (as bench-index.mjs), indexed structure-only
// into a scratch copy first.
//
// Usage: npm run build && node eval/bench-embed.mjs [--corpus DIR] [--model ID] [--batch 64] [--out FILE]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const corpus = opt('--corpus', '/usr/lib/python3/dist-packages/django');
const modelId = opt('--model', 'cg/glove-100d');
const batchSize = Number(opt('--batch', '64'));
const out = opt('--out', path.join(here, 'results', 'bench-embed.json'));
if (!fs.existsSync(corpus)) {
  console.error(`Corpus not found: ${corpus}\nInstall it with: apt-get install python3-django   (or pass --corpus DIR)`);
  process.exit(2);
}

const { buildIndex } = await import('../dist/indexer/build.js');
const { currentDbPath } = await import('../dist/store/db.js');
const { loadEmbedder } = await import('../dist/vectors/embedder.js');
const { cachesVectors, createEmbeddingTables, embedSymbols, saveEmbeddings, storedVectors } = await import('../dist/vectors/cache.js');
const { VectorStore } = await import('../dist/vectors/store.js');
const { embedText } = await import('../dist/vectors/text.js');

const ms = (t) => Math.round((performance.now() - t) * 10) / 10;
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return Math.round(s[Math.min(s.length - 1, Math.floor(s.length * p))] * 100) / 100; };
const result = { date: new Date().toISOString(), machine: `${os.cpus()[0].model}, ${os.availableParallelism()} cores`, node: process.version,
  corpus, model: modelId, batchSize };

// 1. The model build, forced, into a scratch folder (what a fresh install does).
if (modelId === 'cg/glove-100d') {
  const scratchModel = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-model-'));
  const t = performance.now();
  execFileSync(process.execPath, [path.join(here, '..', 'scripts', 'build-static-model.mjs'), '--out', path.join(scratchModel, 'm'), '--quiet']);
  result.modelBuildMs = ms(t);
  result.modelBytes = fs.readdirSync(path.join(scratchModel, 'm'), { recursive: true })
    .map((f) => path.join(scratchModel, 'm', f)).filter((f) => fs.statSync(f).isFile()).reduce((n, f) => n + fs.statSync(f).size, 0);
  fs.rmSync(scratchModel, { recursive: true, force: true });
}

// 2. Symbols of the corpus.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-embed-'));
fs.cpSync(corpus, path.join(scratch, path.basename(corpus)), { recursive: true });
// Structure only: the index build would otherwise embed every symbol itself, and the cache's first
// pass below would find nothing left to embed.
fs.mkdirSync(path.join(scratch, '.codegraph'));
fs.writeFileSync(path.join(scratch, '.codegraph', 'config.json'), JSON.stringify({ embeddings: { enabled: false } }));
await buildIndex(scratch);
const db = new Database(currentDbPath(scratch));
const symbols = db.prepare(`SELECT id, name, qualified_name AS qualifiedName, signature, doc, mutates FROM symbols WHERE kind != 'module'`).all()
  .map((s) => ({ id: s.id, text: embedText({ ...s, mutates: JSON.parse(s.mutates) }) }));
result.symbols = symbols.length;
result.distinctTexts = new Set(symbols.map((s) => s.text)).size;
result.meanTextChars = Math.round(symbols.reduce((n, s) => n + s.text.length, 0) / symbols.length);

// 3. Load (for a hub model a fresh process pays the transformers.js import too), throughput, query latency.
let t = performance.now();
const embedder = await loadEmbedder({ id: modelId, pooling: 'mean', normalize: true }, { batchSize });
result.modelLoadMs = ms(t);
await embedder.embed(symbols.slice(0, batchSize).map((s) => s.text)); // warm-up
const texts = symbols.map((s) => s.text);
t = performance.now();
await embedder.embed(texts);
result.embedAllMs = ms(t);
result.textsPerSecond = Math.round(texts.length / (result.embedAllMs / 1000));
const queries = ['fix bug with cached templates not using new globals', 'add a timeout to database connections',
  'validate email addresses in forms', 'paginate query results', 'translate error messages'];
const lat = [];
for (let i = 0; i < 200; i++) {
  t = performance.now();
  await embedder.embed([queries[i % queries.length]]);
  lat.push(performance.now() - t);
}
result.queryEmbedMs = { p50: pct(lat, 0.5), p95: pct(lat, 0.95) };

// 4. The cache: first pass embeds every distinct text; a second pass with no change embeds none.
createEmbeddingTables(db);
const embed = (xs) => embedder.embed(xs);
t = performance.now();
const first = await embedSymbols(db, symbols, { model: embedder.key, embed });
db.transaction(() => saveEmbeddings(db, first))();
result.cacheFirstPass = { ms: ms(t), ...first.stats };
t = performance.now();
const second = await embedSymbols(db, symbols, { model: embedder.key, embed });
result.cacheSecondPass = { ms: ms(t), ...second.stats };

// 5. The vector index, from every symbol's vector: read back from SQLite for a model whose vectors
// are stored (a hub model), else the vectors just embedded (the built-in model stores none: see Embeddings).
t = performance.now();
let pairs = [...storedVectors(db, embedder.key)];
result.readVectorsMs = ms(t);
if (!cachesVectors(embedder.key)) {
  const vectors = await embedder.embed(texts);
  pairs = symbols.map((s, i) => [s.id, vectors[i]]);
}
result.indexedVectors = pairs.length;
t = performance.now();
const store = VectorStore.rebuild(pairs, { dims: embedder.dims, quantization: 'i8' });
result.indexRebuildMs = ms(t);
t = performance.now();
const name = store.save(scratch, 1);
result.indexSaveMs = ms(t);
result.indexBytes = fs.statSync(path.join(scratch, name)).size;
t = performance.now();
const opened = VectorStore.open(path.join(scratch, name), { view: true });
result.indexOpenViewMs = ms(t);
const qv = await embedder.embed(queries);
const search = [];
for (let i = 0; i < 500; i++) {
  t = performance.now();
  opened.search(qv[i % qv.length], 20);
  search.push(performance.now() - t);
}
result.searchTop20Ms = { p50: pct(search, 0.5), p95: pct(search, 0.95) };
await embedder.dispose();
db.close();
fs.rmSync(scratch, { recursive: true, force: true });

console.log(JSON.stringify(result, null, 2));
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
