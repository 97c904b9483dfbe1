import { createHash } from 'node:crypto';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { CgError } from '../src/errors.js';
import { copyEmbeddingCache, createEmbeddingTables, deleteSymbolEmbeddings, embedSymbols, pruneEmbeddingCache, saveEmbeddings,
  storedVectors, type EmbedItem } from '../src/vectors/cache.js';
import { loadEmbedder, loadPipelineEmbedder, type Embedder } from '../src/vectors/embedder.js';
import { BUILTIN_MODEL, builtinModelDir, modelKey, modelStatus } from '../src/vectors/model.js';
import { applyToDelta, decodeDelta, deltaLimit, emptyDelta, encodeDelta, LayeredVectors, readDelta, writeDelta } from '../src/vectors/delta.js';
import { fromHalf, pruneVectorFiles, toHalf, VectorStore } from '../src/vectors/store.js';
import { embedText, textHash } from '../src/vectors/text.js';
import { lineIndex, recordedLineIndex } from '../src/vectors/static.js';
import { CG, ROOT, makeRepo, runCg, tempDir } from './helpers.js';

const BUILD = path.join(ROOT, 'scripts', 'build-static-model.mjs');
const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

/** Runs the model build script; a no-op when the model is current (as after `npm run build`). */
function buildModel(args: string[] = []): string {
  return execFileSync(process.execPath, [BUILD, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function filesOf(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
}

/** A port nothing listens on: connections are refused at once, so nothing here can reach a real hub. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The real cg, without blocking this process's event loop (a test serves HTTP to it meanwhile). */
function runCgAsync(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [CG, ...args], { env: { ...process.env, CG_DEBUG: '', ...env }, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr, ms: performance.now() - t0 });
    });
  });
}

let embedder: Embedder;
beforeAll(async () => {
  buildModel(['--quiet']);
  embedder = await loadEmbedder();
});
afterAll(async () => {
  await embedder?.dispose();
});

describe('built-in model (GloVe, built by scripts/build-static-model.mjs)', () => {
  it('is a 100-dimensional, normalised, offline model', async () => {
    expect(modelStatus(BUILTIN_MODEL)).toMatchObject({ available: true, builtin: true, dims: 100, missing: [] });
    expect(embedder.dims).toBe(100);
    const [v] = await embedder.embed(['parse the configuration file']);
    expect(Math.hypot(...v)).toBeCloseTo(1, 4);
  });

  it('ranks each code symbol first for the task that describes it', async () => {
    const docs: Record<string, [string, string]> = {
      config: ['parse the json configuration file', 'def load_config(path): Read settings from a JSON file.'],
      mail: ['send an email notification to the user', 'function sendMail(recipient, subject, body) Deliver a message through SMTP.'],
      password: ['hash the password before storing it', 'def hash_password(raw): Return a salted digest of a password.'],
      thumbnail: ['resize an image to a thumbnail', 'func MakeThumbnail(img image.Image, width int) image.Image Scale a picture down.'],
      scheduler: ['schedule a background job with a timer', 'class TaskScheduler: Run work later on a timer.'],
      retry: ['retry failed http requests', 'async function fetchWithRetry(url, attempts) Fetch a URL again after a network error.'],
      zip: ['compress files into a zip archive', 'func ZipDirectory(dir string, out io.Writer) error Pack a folder into an archive.'],
    };
    const keys = Object.keys(docs);
    const queries = await embedder.embed(keys.map((k) => docs[k][0]));
    const symbols = await embedder.embed(keys.map((k) => docs[k][1]));
    keys.forEach((k, i) => {
      const scores = symbols.map((s) => cos(queries[i], s));
      const best = keys[scores.indexOf(Math.max(...scores))];
      expect(best, `${k}: ${keys.map((x, j) => `${x} ${scores[j].toFixed(3)}`).join(', ')}`).toBe(k);
    });
  });

  it('puts a related phrase closer than an unrelated one', async () => {
    const [q, near, far] = await embedder.embed(['open a database connection', 'connect to the SQL server', 'draw a bar chart of sales']);
    expect(cos(q, near)).toBeGreaterThan(cos(q, far) + 0.1);
  });

  it('splits camelCase, PascalCase and snake_case identifiers into words', async () => {
    const [a, b, c, d, e, f] = await embedder.embed(['getUserName', 'get user name', 'HTTPServerError', 'http server error',
      'parse_json_config', 'parse json config']);
    expect(cos(a, b)).toBeGreaterThan(0.999);
    expect(cos(c, d)).toBeGreaterThan(0.999);
    expect(cos(e, f)).toBeGreaterThan(0.999);
  });

  it('gives a zero vector, not NaN, to text without a known word', async () => {
    const out = await embedder.embed(['', '(){};', 'zzqxv', 'load config']);
    for (const v of out.slice(0, 3)) expect([...v].every((x) => x === 0)).toBe(true);
    expect(out[3].some((x) => x !== 0)).toBe(true);
  });

  it('returns vectors in input order across batches', async () => {
    const texts = Array.from({ length: 150 }, (_, i) => (i % 3 ? `parse file number ${'x'.repeat(i % 7)}` : `send mail ${i}`));
    const batched = await embedder.embed(texts);
    const single = await Promise.all([0, 1, 2, 149].map(async (i) => (await embedder.embed([texts[i]]))[0]));
    [0, 1, 2, 149].forEach((i, k) => expect(cos(batched[i], single[k])).toBeCloseTo(1, 5));
  });

  it('reads the built-in model directly with the same vectors as the transformers.js pipeline', async () => {
    // Texts from this repository's own sources (signature-like lines), plus the tokenizer's edge cases:
    // accents and ligatures (NFKD), non-Latin scripts, acronyms, only unknown words, and more than 512 words.
    const lines = fs.readdirSync(path.join(ROOT, 'src', 'retrieve')).filter((f) => f.endsWith('.ts')).sort()
      .flatMap((f) => fs.readFileSync(path.join(ROOT, 'src', 'retrieve', f), 'utf8').split('\n'))
      .map((l) => l.trim()).filter((l) => /^(export |function |const |class |interface )/.test(l)).slice(0, 300);
    const long = Array.from({ length: 700 }, (_, i) => ['alpha', 'parseValue', 'render', 'zzqxv', 'HTTPServer'][i % 5]).join(' ');
    const texts = [...lines, long, '', '(){};', 'zzqxv qqzx', 'café résumé naïve', 'İstanbul straße', 'ﬁle ① ²', '日本語 mixed text',
      'XMLHttpRequest v2Api getHTTPResponseCode', 'snake_case_name kebab-case-name', 'fn main() -> Result<(), Box<dyn Error>>'];
    expect(texts.length).toBeGreaterThan(100);
    const pipeline = await loadPipelineEmbedder(BUILTIN_MODEL);
    try {
      const direct = await embedder.embed(texts);
      const reference = await pipeline.embed(texts);
      let worst = 0;
      texts.forEach((_, i) => direct[i].forEach((x, k) => { worst = Math.max(worst, Math.abs(x - reference[i][k])); }));
      expect(worst).toBeLessThan(1e-6);
      // Zero vectors (no known word) agree exactly: they must never be stored as matches.
      texts.forEach((t, i) => expect(direct[i].every((x) => x === 0), t).toBe(reference[i].every((x) => x === 0)));
    } finally {
      await pipeline.dispose();
    }
  });

  it('finds the same words and rows whether a process embeds a few texts or many', async () => {
    // A fresh embedder looks a small batch's words up in one pass over vocab.txt and reads their rows by
    // position; a batch of more distinct words builds the hash table and reads table.bin whole.
    const words = fs.readFileSync(path.join(builtinModelDir(), 'static', 'vocab.txt'), 'utf8').split('\n').filter(Boolean);
    const many = Array.from({ length: 300 }, (_, i) => `${words.slice(i * 10, i * 10 + 10).join(' ')} zzqxv ${words[words.length - 1 - i]}`);
    // Words on either side of the line index's 64 KiB chunk boundaries (src/vectors/static.ts, lineIndex).
    const boundary: string[] = [];
    for (let i = 0, at = 0; i < words.length; at += words[i].length + 1, i++) {
      const next = at + words[i].length + 1;
      if (Math.floor(at / 65536) !== Math.floor(next / 65536) && boundary.length < 12) boundary.push(words[i], words[i + 1] ?? words[i]);
    }
    expect(boundary.length).toBeGreaterThan(6);
    const few = [many[0], many[299], 'parse the configuration file', 'getUserName zzqxv', '', boundary.slice(0, 6).join(' '), boundary.slice(6).join(' ')];
    const fewVectors = await (await loadEmbedder()).embed(few);
    const manyVectors = await (await loadEmbedder()).embed([...many, ...few.slice(2)]);
    expect(fewVectors.map((v) => [...v])).toEqual([manyVectors[0], manyVectors[299], ...manyVectors.slice(300)].map((v) => [...v]));
    // At most SEARCH_MAX_WORDS distinct words: each is searched for and its line found from the line index.
    const searched = await (await loadEmbedder()).embed(few.slice(5));
    expect(searched.map((v) => [...v])).toEqual(manyVectors.slice(-2).map((v) => [...v]));
    expect(searched.every((v) => v.some((x) => x !== 0))).toBe(true);
    expect(fewVectors[1].some((x) => x !== 0)).toBe(true); // the vocabulary's last words were found
  });

  it('reads the line index the build recorded, and counts it when the record does not fit the file', () => {
    const dir = builtinModelDir();
    const text = fs.readFileSync(path.join(dir, 'static', 'vocab.txt'));
    const counted = lineIndex(text);
    expect(recordedLineIndex(dir, text.length)).toEqual(counted);
    // Another vocab.txt (another size), a record that does not count, or none: not used.
    expect(recordedLineIndex(dir, text.length + 1)).toBeNull();
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'cg-model.json'), 'utf8'));
    const other = tempDir('cg-model-lines-');
    const variants = [
      { ...meta, vocab_lines: undefined },
      { ...meta, vocab_lines: { ...meta.vocab_lines, chunk: 4096 } },
      { ...meta, vocab_lines: { ...meta.vocab_lines, before: [...meta.vocab_lines.before].reverse() } },
      { ...meta, vocab_lines: { ...meta.vocab_lines, before: meta.vocab_lines.before.slice(1) } },
    ];
    for (const v of variants) {
      fs.writeFileSync(path.join(other, 'cg-model.json'), JSON.stringify(v));
      expect(recordedLineIndex(other, text.length)).toBeNull();
    }
    fs.writeFileSync(path.join(other, 'cg-model.json'), '{not json');
    expect(recordedLineIndex(other, text.length)).toBeNull();
  });

  it('is built deterministically, and the build is skipped when current', () => {
    const a = path.join(tempDir('cg-model-a-'), 'm');
    expect(buildModel(['--out', a])).toMatch(/wrote .* in \d+ ms/);
    const files = filesOf(a);
    expect(files).toEqual(['cg-model.json', 'config.json', 'onnx/model.onnx', 'static/table.bin', 'static/vocab.txt', 'tokenizer.json',
      'tokenizer_config.json']);
    // The installed model was built by another run of the same script from the same package (npm run
    // build, in its own process): the same bytes are the determinism check, without a third build.
    expect(filesOf(builtinModelDir())).toEqual(files);
    for (const f of files) expect(sha256(path.join(builtinModelDir(), f)), f).toBe(sha256(path.join(a, f)));
    expect(buildModel(['--out', a])).toMatch(/is up to date/);
  });
});

describe('model availability (offline)', () => {
  const missing = { id: 'nobody/no-such-model', pooling: 'mean' as const, normalize: true };
  let modelsDir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    modelsDir = tempDir('cg-models-');
    process.env.CG_MODELS_DIR = modelsDir;
    env = { CG_MODELS_DIR: modelsDir, HF_ENDPOINT: `http://127.0.0.1:${await closedPort()}` };
  });
  afterAll(() => {
    delete process.env.CG_MODELS_DIR;
  });

  it('fails at once with exit code 5 when a hub model is not on this machine', async () => {
    const t0 = performance.now();
    const err = await loadEmbedder(missing).catch((e: unknown) => e);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(err).toBeInstanceOf(CgError);
    expect((err as CgError).code).toBe('model_unavailable');
    expect((err as CgError).exitCode).toBe(5);
    expect((err as CgError).hint).toContain('cg model pull nobody/no-such-model');
  });

  it('reports damaged model files as unavailable, with the remedy', async () => {
    const dir = path.join(modelsDir, 'broken', 'model');
    fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
    for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) fs.copyFileSync(path.join(builtinModelDir(), f), path.join(dir, f));
    fs.writeFileSync(path.join(dir, 'onnx', 'model.onnx'), 'not a protobuf');
    const err = await loadEmbedder({ id: 'broken/model', pooling: 'mean', normalize: true }).catch((e: unknown) => e) as CgError;
    expect(err.code).toBe('model_unavailable');
    expect(err.message).toContain('could not be loaded');
    expect(err.hint).toContain('cg model pull broken/model');
  });

  it('`cg model status` says where the model lives and exits 5 when it is missing', () => {
    const repo = makeRepo({ 'a.py': 'x = 1\n' });
    const ok = runCg(['model', 'status', '--json'], repo, { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({ id: 'cg/glove-100d', builtin: true, available: true, dims: 100, dir: builtinModelDir() });
    const res = runCg(['model', 'status', missing.id, '--json'], repo, { env });
    expect(res.code).toBe(5);
    expect(res.json).toMatchObject({ id: missing.id, available: false, dims: null,
      dir: path.join(modelsDir, 'nobody', 'no-such-model'), missing: ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'] });
    expect(res.json.hint).toContain('cg model pull');
    const text = runCg(['model', 'status', missing.id], repo, { env });
    expect(text.code).toBe(5);
    expect(text.stdout).toMatch(/Available: no/);
  });

  it('`cg model status` follows the repository configuration', () => {
    const repo = makeRepo({ '.codegraph/config.json': JSON.stringify({ embeddings: { model: missing.id, quantization: 'f16' } }) });
    const res = runCg(['model', 'status', '--json'], repo, { env });
    expect(res.code).toBe(5);
    expect(res.json).toMatchObject({ id: missing.id, available: false });
  });

  it('`cg model pull` fails with exit 5 and says what to do when the hub is unreachable', async () => {
    const repo = makeRepo({ 'a.py': 'x = 1\n' });
    const t0 = performance.now();
    const json = runCg(['model', 'pull', missing.id, '--json'], repo, { env });
    expect(performance.now() - t0).toBeLessThan(30_000);
    expect(json.code).toBe(5);
    expect(json.json.error).toMatchObject({ code: 'model_unavailable' });
    expect(json.json.error.message).toMatch(/unreachable \(ECONNREFUSED\)/);
    const text = runCg(['model', 'pull', missing.id], repo, { env });
    expect(text.code).toBe(5);
    expect(text.stderr).toMatch(/^cg: Cannot download nobody\/no-such-model: the model hub at .* is unreachable/);
    expect(text.stderr).toMatch(/\nhint: `cg model pull` needs internet access/);
    expect(fs.existsSync(path.join(modelsDir, 'nobody'))).toBe(false);
  });

  it('`cg model pull` downloads a hub model that then loads offline (from a local stand-in for the hub)', async () => {
    // Serves the built-in model's files under a hub-style URL: /<owner>/<name>/resolve/main/<file>.
    const requests: string[] = [];
    const server = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      const m = /^\/test-org\/glove\/resolve\/main\/(.+)$/.exec(req.url ?? '');
      const file = m ? path.join(builtinModelDir(), m[1]) : '';
      if (!m || m[1].includes('..') || !fs.existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-length': fs.statSync(file).size });
      if (req.method === 'HEAD') res.end();
      else fs.createReadStream(file).pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const hub = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const repo = makeRepo({ 'a.py': 'x = 1\n' });
      const notThere = await runCgAsync(['model', 'pull', 'test-org/absent', '--json', '--repo', repo], { ...env, HF_ENDPOINT: hub });
      expect(notThere.code).toBe(5);
      expect(JSON.parse(notThere.stdout).error.message).toMatch(/has no model test-org\/absent .*HTTP 404/);

      const pulled = await runCgAsync(['model', 'pull', 'test-org/glove', '--json', '--repo', repo], { ...env, HF_ENDPOINT: hub });
      expect(pulled.code, pulled.stdout + pulled.stderr).toBe(0);
      expect(JSON.parse(pulled.stdout)).toMatchObject({ id: 'test-org/glove', dims: 100, alreadyPresent: false,
        dir: path.join(modelsDir, 'test-org', 'glove') });
      for (const f of ['config.json', 'tokenizer.json', 'onnx/model.onnx']) {
        expect(sha256(path.join(modelsDir, 'test-org', 'glove', f))).toBe(sha256(path.join(builtinModelDir(), f)));
      }
      const again = await runCgAsync(['model', 'pull', 'test-org/glove', '--json', '--repo', repo], { ...env, HF_ENDPOINT: hub });
      expect(JSON.parse(again.stdout)).toMatchObject({ alreadyPresent: true });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(requests.some((r) => r.startsWith('GET /test-org/glove/resolve/main/onnx/model.onnx'))).toBe(true);
    // Offline again: the pulled model loads from the models folder alone and embeds like the original.
    const hubModel = await loadEmbedder({ id: 'test-org/glove', pooling: 'mean', normalize: true });
    const [a] = await hubModel.embed(['read the configuration']);
    const [b] = await embedder.embed(['read the configuration']);
    expect(cos(a, b)).toBeCloseTo(1, 5);
    expect(hubModel.key).not.toBe(embedder.key);
    await hubModel.dispose();
  });
});

describe('embedding cache', () => {
  function db(): Database.Database {
    const d = new Database(':memory:');
    createEmbeddingTables(d);
    return d;
  }

  /** A stand-in embedder that counts what it is asked to embed. */
  function counting(): { calls: string[][]; embed: (t: string[]) => Promise<Float32Array[]> } {
    const calls: string[][] = [];
    return {
      calls,
      embed: async (texts) => {
        calls.push(texts);
        return texts.map((t) => Float32Array.from([t.length, 1, 0]));
      },
    };
  }

  const items = (texts: string[]): EmbedItem[] => texts.map((text, i) => ({ id: i + 1, text }));

  it('embeds only texts it has not embedded before', async () => {
    const d = db();
    const c = counting();
    const first = await embedSymbols(d, items(['def a()', 'def b()', 'def a()']), { model: 'm1', embed: c.embed });
    expect(c.calls).toEqual([['def a()', 'def b()']]); // the repeated text is embedded once
    expect(first.stats).toEqual({ items: 3, unchanged: 0, fromCache: 0, embedded: 3 });
    expect([...first.changed.keys()]).toEqual([1, 3, 2]);
    saveEmbeddings(d, first);

    const same = await embedSymbols(d, items(['def a()', 'def b()', 'def a()']), { model: 'm1', embed: c.embed });
    expect(c.calls.length).toBe(1);
    expect(same.stats).toMatchObject({ unchanged: 3, embedded: 0 });
    expect(same.changed.size).toBe(0);

    // Symbol 2 now has symbol 1's text: its vector changes, but comes from the cache.
    const moved = await embedSymbols(d, items(['def a()', 'def a()', 'def c()']), { model: 'm1', embed: c.embed });
    expect(c.calls).toEqual([['def a()', 'def b()'], ['def c()']]);
    expect(moved.stats).toEqual({ items: 3, unchanged: 1, fromCache: 1, embedded: 1 });
    expect([...moved.changed.keys()].sort()).toEqual([2, 3]);
    saveEmbeddings(d, moved);

    const rows = [...storedVectors(d, 'm1')].map(([id, v]) => [id, [...v]]);
    expect(rows).toEqual([[1, [7, 1, 0]], [2, [7, 1, 0]], [3, [7, 1, 0]]]);
  });

  it('never mixes models: another model embeds everything once', async () => {
    const d = db();
    const c = counting();
    saveEmbeddings(d, await embedSymbols(d, items(['x', 'y']), { model: 'm1', embed: c.embed }));
    const other = await embedSymbols(d, items(['x', 'y']), { model: 'm2', embed: c.embed });
    expect(other.stats.embedded).toBe(2);
    saveEmbeddings(d, other);
    expect([...storedVectors(d, 'm2')].length).toBe(2);
    expect(pruneEmbeddingCache(d, 'm2')).toBe(2); // m1's rows
    expect(d.prepare('SELECT count(*) AS n FROM embeddings').get()).toEqual({ n: 2 });
  });

  it('forgets deleted symbols, and carries the cache into a new database', async () => {
    const dir = tempDir('cg-emb-');
    const oldFile = path.join(dir, 'old.db');
    const old = new Database(oldFile);
    createEmbeddingTables(old);
    const c = counting();
    saveEmbeddings(old, await embedSymbols(old, items(['p', 'q', 'r']), { model: 'm', embed: c.embed }));
    deleteSymbolEmbeddings(old, [2]);
    expect([...storedVectors(old, 'm')].map(([id]) => id)).toEqual([1, 3]);
    expect(pruneEmbeddingCache(old, 'm')).toBe(1);
    old.close();

    const fresh = new Database(path.join(dir, 'new.db'));
    expect(copyEmbeddingCache(fresh, oldFile, 'm')).toBe(2);
    const u = await embedSymbols(fresh, items(['p', 'r', 's']), { model: 'm', embed: c.embed });
    expect(c.calls.at(-1)).toEqual(['s']);
    expect(u.stats).toMatchObject({ fromCache: 2, embedded: 1 });
    fresh.close();
  });

  it('keys texts by sha256, built from signature, first doc sentence and mutates', () => {
    const text = embedText({ name: 'run', qualifiedName: 'Service.run', signature: 'def run(self,\n    name)',
      doc: 'Run the service.', mutates: ['self.count'] });
    expect(text).toBe('Service.def run(self, name)\nRun the service.\nmutates self.count');
    expect(embedText({ name: 'f', qualifiedName: 'f', signature: '', doc: null, mutates: [] })).toBe('f');
    // The first 16 bytes of sha256('abc') (ba7816bf…5dae2223), base64url.
    expect(textHash('abc')).toBe('ungWv48Bz-pBQUDeXa4iIw');
  });

  it('works end to end with the built-in model', async () => {
    const d = db();
    const key = modelKey(BUILTIN_MODEL);
    expect(key).toBe(embedder.key);
    const u = await embedSymbols(d, items(['def load_config(path)', 'class Mailer']), { model: key, embed: (t) => embedder.embed(t) });
    saveEmbeddings(d, u);
    // The built-in model's vectors are not kept (cachesVectors): the index embeds its texts again when it needs them back.
    expect([...storedVectors(d, key)]).toEqual([]);
    const store = VectorStore.rebuild(u.changed, { dims: embedder.dims });
    const [q] = await embedder.embed(['read the configuration']);
    expect(store.search(q, 1)[0].id).toBe(1);
  });
});

describe('vector store (rows, exact search)', () => {
  const dims = 16;
  /** Deterministic pseudo-random unit vectors. */
  function vectors(n: number, seed = 1): Float32Array[] {
    let s = seed;
    const rnd = () => ((s = (s * 16807) % 2147483647) / 2147483647) - 0.5;
    return Array.from({ length: n }, () => {
      const v = Float32Array.from({ length: dims }, rnd);
      const norm = Math.hypot(...v);
      return v.map((x) => x / norm);
    });
  }
  const ids = (n: number) => Array.from({ length: n }, (_, i) => (i + 1) * 1000 + 7);

  it('finds nearest neighbours with cosine scores, and replaces and removes by id', () => {
    const vs = vectors(200);
    // f32: the exact order below; i8 moves close scores by its rounding (the next tests).
    const store = VectorStore.create({ dims, quantization: 'f32' });
    store.upsert(ids(200), vs);
    expect(store.size).toBe(200);
    const hits = store.search(vs[42], 5);
    expect(hits[0].id).toBe(ids(200)[42]);
    expect(hits[0].score).toBeGreaterThan(0.99);
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    // Exact ranking check: the top 5 by brute force.
    const exact = vs.map((v, i) => [cos(vs[42], v), ids(200)[i]] as const).sort((a, b) => b[0] - a[0]).slice(0, 5).map(([, id]) => id);
    expect(hits.map((h) => h.id)).toEqual(exact);

    store.upsert([ids(200)[42]], [vs[7]]);
    expect(store.size).toBe(200);
    expect(store.search(vs[7], 2).map((h) => h.id).sort()).toEqual([ids(200)[7], ids(200)[42]].sort());
    expect(store.remove([ids(200)[42], 999_999])).toBe(1);
    expect(store.has(ids(200)[42])).toBe(false);
    expect(store.size).toBe(199);
  });

  it('takes large symbol ids (up to 2^53 - 1) and refuses others', () => {
    const store = VectorStore.create({ dims, quantization: 'f32' });
    const big = Number.MAX_SAFE_INTEGER;
    store.upsert([big, 1], vectors(2));
    expect(store.search(vectors(2)[0], 1)[0].id).toBe(big);
    expect(() => store.upsert([0], vectors(1))).toThrow(/positive integers/);
    expect(() => store.upsert([2 ** 53], vectors(1))).toThrow(/positive integers/);
  });

  it('finds every vector by exact search, ids shaped like symbol ids (file · 2^20 + n), after removals move rows', () => {
    const store = VectorStore.create({ dims, quantization: 'f32' });
    const ids = Array.from({ length: 60 }, (_, i) => Math.floor(i / 6 + 1) * 2 ** 20 + (i % 6));
    const vs = vectors(60);
    store.upsert(ids, vs);
    ids.forEach((id, i) => expect(store.search(vs[i], 1)[0].id).toBe(id));
    expect(store.remove([ids[0], ids[59]])).toBe(2);
    expect(store.has(ids[0])).toBe(false);
    expect(store.has(ids[1])).toBe(true);
  });

  it('searches exactly: the same neighbours, in the same order, as cosine over the stored vectors', () => {
    const vs = vectors(400, 9);
    for (const quantization of ['i8', 'f16', 'f32'] as const) {
      const store = VectorStore.create({ dims, quantization });
      const all = ids(400);
      const gone = [all[4], all[16], all[299]];
      store.upsert(all, vs);
      store.remove(gone); // rows move into the holes
      const cos = (a: Float32Array, b: Float32Array) => {
        let s = 0, na = 0, nb = 0;
        for (let i = 0; i < a.length; i++) { s += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
        return s / Math.sqrt(na * nb);
      };
      for (const q of vectors(20, 31)) {
        const got = store.search(q, 10);
        const want = all.map((id, i) => ({ id, score: cos(q, vs[i]) })).filter((h) => !gone.includes(h.id))
          .sort((a, b) => b.score - a.score).slice(0, 10);
        // Quantized rows move a score by a little; the neighbours are the exact ones wherever the gap allows.
        const tolerance = quantization === 'i8' ? 0.03 : 0.002;
        got.forEach((h, i) => expect(Math.abs(h.score - want[i].score)).toBeLessThan(tolerance));
        if (quantization === 'f32') expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
      }
    }
  });

  it('writes half floats rounded to nearest even, and reads them back', () => {
    for (const x of [0, 1, -2.5, 0.1, 65504, 1e-7, 6.1e-5, 3.14159]) expect(Math.abs(fromHalf(toHalf(x)) - x)).toBeLessThanOrEqual(Math.abs(x) * 2 ** -11 + 2 ** -25);
    expect(toHalf(1)).toBe(0x3c00);
    expect(toHalf(-2)).toBe(0xc000);
    expect(toHalf(65520)).toBe(0x7c00); // rounds up past the largest half: infinity
    expect(toHalf(1 + 2 ** -11)).toBe(0x3c00); // a tie goes to the even mantissa
    expect(toHalf(1 + 3 * 2 ** -11)).toBe(0x3c02);
  });

  it('does not store zero vectors, and an empty query finds nothing', () => {
    const store = VectorStore.create({ dims });
    store.upsert([1, 2], [vectors(1)[0], new Float32Array(dims)]);
    expect(store.size).toBe(1);
    expect(store.has(2)).toBe(false);
    expect(store.search(new Float32Array(dims), 3)).toEqual([]);
  });

  it('round-trips through save and open (load and view), one file per generation', () => {
    const dir = tempDir('cg-vec-');
    const vs = vectors(300, 5);
    for (const quantization of ['i8', 'f16', 'f32'] as const) {
      const store = VectorStore.create({ dims, quantization });
      store.upsert(ids(300), vs);
      const name = store.save(dir, 3);
      expect(name).toBe('vectors-3.usearch');
      const expected = store.search(vs[10], 10);
      for (const view of [false, true]) {
        const opened = VectorStore.open(path.join(dir, name), { view });
        expect(opened.quantization).toBe(quantization);
        expect(opened.dims).toBe(dims);
        expect(opened.size).toBe(300);
        expect(opened.search(vs[10], 10)).toEqual(expected);
        // Looked up by binary search in the file's id order, before anything changes.
        expect(ids(300).every((id) => opened.has(id))).toBe(true);
        expect([1, 1006, 1008, 300_008, 10 ** 9].some((id) => opened.has(id))).toBe(false);
        expect(opened.countPresent([...ids(300).slice(0, 7), 5, 6])).toBe(7);
      }
    }
    // A loaded index is updated and saved as the next generation; the view of the old one is read-only.
    const loaded = VectorStore.open(path.join(dir, 'vectors-3.usearch'));
    loaded.remove([ids(300)[0]]);
    expect(loaded.save(dir, 4)).toBe('vectors-4.usearch');
    expect(VectorStore.open(path.join(dir, 'vectors-4.usearch')).size).toBe(299);
    expect(VectorStore.open(path.join(dir, 'vectors-3.usearch')).size).toBe(300);
    expect(() => VectorStore.open(path.join(dir, 'vectors-3.usearch'), { view: true }).remove([1])).toThrow(/read-only/);
    expect(fs.readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);

    expect(pruneVectorFiles(dir, ['vectors-4.usearch']).sort()).toEqual(['vectors-3.usearch', 'vectors-3.usearch.json']);
    expect(fs.readdirSync(dir).sort()).toEqual(['vectors-4.usearch', 'vectors-4.usearch.json']);
  });

  it('rebuilds reproducibly from (id, vector) pairs in any order', () => {
    const dir1 = tempDir('cg-vec-a-');
    const dir2 = tempDir('cg-vec-b-');
    const vs = vectors(500, 9);
    const pairs = ids(500).map((id, i) => [id, vs[i]] as const);
    VectorStore.rebuild(pairs, { dims }).save(dir1, 1);
    VectorStore.rebuild([...pairs].reverse(), { dims }).save(dir2, 1);
    expect(sha256(path.join(dir1, 'vectors-1.usearch'))).toBe(sha256(path.join(dir2, 'vectors-1.usearch')));
  });

  it('refuses a damaged or missing file with exit 3 instead of crashing', () => {
    const dir = tempDir('cg-vec-bad-');
    const store = VectorStore.create({ dims });
    store.upsert(ids(50), vectors(50));
    const file = path.join(dir, store.save(dir, 1));
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 100)); // truncated: USearch itself would abort the process
    expect(() => VectorStore.open(file)).toThrow(expect.objectContaining({ code: 'index_corrupt', exitCode: 3 }));
    const flipped = Buffer.from(bytes);
    flipped[bytes.length - 10] ^= 0xff;
    fs.writeFileSync(file, flipped);
    expect(() => VectorStore.open(file, { view: true })).toThrow(/checksum/);
    expect(() => VectorStore.open(path.join(dir, 'vectors-9.usearch'))).toThrow(expect.objectContaining({ code: 'index_corrupt' }));
  });
  it('a delta over a base searches what one index of the same vectors would hold: hidden ids never, added ones exactly', () => {
    const dir = tempDir('cg-vec-delta-');
    const vs = vectors(400, 11);
    const base = VectorStore.create({ dims, quantization: 'f32' });
    base.upsert(ids(400), vs);
    const baseFile = path.join(dir, base.save(dir, 1));
    const view = VectorStore.open(baseFile, { view: true });
    // 30 removed, 20 replaced by other vectors, 25 new ids, one new id with a zero vector (stored nowhere).
    const fresh = vectors(46, 12);
    const replaced = ids(400).slice(100, 120);
    const added = Array.from({ length: 25 }, (_, i) => 900_000 + i);
    const delta = emptyDelta(dims);
    applyToDelta(delta, (id) => view.has(id), ids(400).slice(0, 30),
      [...replaced.map((id, i) => [id, fresh[i]] as [number, Float32Array]), ...added.map((id, i) => [id, fresh[20 + i]] as [number, Float32Array]),
        [999_999, new Float32Array(dims)]]);
    expect(delta.hidden.size).toBe(50);
    expect(delta.added.size).toBe(45);
    // The same bytes for the same delta, and back.
    const bytes = encodeDelta(delta);
    expect(encodeDelta(decodeDelta(bytes)).equals(bytes)).toBe(true);
    const written = writeDelta(dir, 2, delta);
    expect(written.name).toBe('vectors-2.delta');
    const layered = new LayeredVectors(view, readDelta(path.join(dir, written.name)).delta);

    const expected = new Map<number, Float32Array>(ids(400).map((id, i) => [id, vs[i]]));
    for (const id of ids(400).slice(0, 30)) expected.delete(id);
    for (const [id, v] of delta.added) expected.set(id, v);
    expect(layered.size).toBe(expected.size);
    expect(layered.has(ids(400)[0])).toBe(false);
    expect(layered.has(replaced[0])).toBe(true);
    expect(layered.has(999_999)).toBe(false);
    expect(layered.countPresent([...ids(400), ...added, 999_999])).toBe(expected.size);
    let agree = 0;
    const queries = vectors(20, 13);
    for (const q of queries) {
      const hits = layered.search(q, 10);
      expect(hits).toHaveLength(10);
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
      for (const h of hits) {
        expect(expected.has(h.id)).toBe(true); // never a removed id
        if (delta.added.has(h.id)) expect(h.score).toBeCloseTo(cos(q, expected.get(h.id)!), 5); // the replacement, not the old vector
      }
      const truth = [...expected].map(([id, v]) => ({ id, score: cos(q, v) })).sort((a, b) => b.score - a.score).slice(0, 10);
      agree += truth.filter((t) => hits.some((h) => h.id === t.id)).length;
    }
    // HNSW is approximate; on 395 vectors it finds (nearly) all of the true ten.
    expect(agree / (queries.length * 10)).toBeGreaterThan(0.95);
    // A replaced id's old vector is gone: the query equal to it scores the id by its new vector.
    const all = layered.search(vs[100], 1000);
    expect(all).toHaveLength(expected.size);
    expect(all.find((h) => h.id === replaced[0])!.score).toBeCloseTo(cos(vs[100], fresh[0]), 5);

    expect(deltaLimit(1000)).toBe(256);
    expect(deltaLimit(82_000)).toBe(1640);
    const damaged = fs.readFileSync(path.join(dir, written.name));
    damaged[damaged.length - 3] ^= 0xff;
    fs.writeFileSync(path.join(dir, written.name), damaged);
    expect(() => readDelta(path.join(dir, written.name))).toThrow(expect.objectContaining({ code: 'index_corrupt' }));
    expect(() => readDelta(path.join(dir, 'vectors-7.delta'))).toThrow(/missing/);
    expect(pruneVectorFiles(dir, ['vectors-1.usearch']).sort()).toEqual(['vectors-2.delta']);
  });
});

describe('embeddings configuration', () => {
  it('defaults to the built-in model with an i8 index, and validates the section', () => {
    expect(loadConfig(makeRepo({})).embeddings).toEqual({ enabled: true, model: 'cg/glove-100d', pooling: 'mean', normalize: true, quantization: 'i8' });
    const custom = makeRepo({ '.codegraph/config.json': JSON.stringify({ embeddings: {
      model: 'jinaai/jina-embeddings-v2-base-code', dims: 768, quantization: 'f16', dtype: 'q8' } }) });
    expect(loadConfig(custom).embeddings).toEqual({ enabled: true, model: 'jinaai/jina-embeddings-v2-base-code', pooling: 'mean', normalize: true,
      dims: 768, quantization: 'f16', dtype: 'q8' });
    for (const [embeddings, msg] of [
      [{ quantization: 'i4' }, /"embeddings.quantization" must be one of "i8", "f16", "f32"/],
      [{ pooling: 'max' }, /"embeddings.pooling"/],
      [{ dims: -3 }, /"embeddings.dims" must be a positive whole number/],
      [{ model: '../etc' }, /"embeddings.model" must be a model id/],
      ['glove', /"embeddings" must be an object/],
      [{ enabled: 'no' }, /"embeddings.enabled" must be true or false/],
    ] as const) {
      const repo = makeRepo({ '.codegraph/config.json': JSON.stringify({ embeddings }) });
      expect(() => loadConfig(repo)).toThrow(msg);
    }
  });

  it('takes a ranking preset, learned by default', () => {
    expect(loadConfig(makeRepo({})).retrieval).toEqual({ preset: 'learned' });
    const rrf = makeRepo({ '.codegraph/config.json': JSON.stringify({ retrieval: { preset: 'rrf' } }) });
    expect(loadConfig(rrf).retrieval.preset).toBe('rrf');
    const bad = makeRepo({ '.codegraph/config.json': JSON.stringify({ retrieval: { preset: 'magic' } }) });
    expect(() => loadConfig(bad)).toThrow(/"retrieval.preset" must be one of "hybrid", "lexical", "prd", "spec004", "rrf"/);
  });
});
