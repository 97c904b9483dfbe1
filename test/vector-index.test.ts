import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../src/indexer/build.js';
import { updateIndex } from '../src/indexer/update.js';
import { indexVectors } from '../src/indexer/vectors.js';
import { runQuery } from '../src/retrieve/query.js';
import { currentDbPath, openReader, readMeta } from '../src/store/db.js';
import { builtinModelDir } from '../src/vectors/model.js';
import { openLayered, readDelta } from '../src/vectors/delta.js';
import { VectorStore } from '../src/vectors/store.js';
import { copyFixture, git, runCg, tempDir } from './helpers.js';

/** An answer's warnings less those about the graph (low-confidence relations, partial files: src/graph/warnings.ts). */
const notAboutGraph = (ws: string[]) => ws.filter((w) => !/relation\(s\) in this answer|indexed partially/.test(w));

// The index's vectors: one file per generation named in meta, embedded incrementally by text hash,
// re-embedded (never mixed) when the model changes, and optional: without a model the index is
// built and queries answer from full-text and the graph, saying why.

function committedFixture(name = 'python'): string {
  const root = copyFixture(name);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'fixture');
  return root;
}

function meta(root: string): Record<string, string> {
  const db = openReader(root);
  try {
    return readMeta(db);
  } finally {
    db.close();
  }
}

function setConfig(root: string, config: unknown): void {
  fs.writeFileSync(path.join(root, '.codegraph', 'config.json'), JSON.stringify(config));
}

function vectorFiles(root: string): string[] {
  return fs.readdirSync(path.dirname(currentDbPath(root)!)).filter((f) => /\.(usearch|delta)$/.test(f)).sort();
}

/** The symbol ids in the generation's vectors (its base file and delta), and the non-module symbols of the database. */
function coverage(root: string): { stored: number[]; symbols: number[] } {
  const m = meta(root);
  const store = openLayered(path.dirname(currentDbPath(root)!), m.vectors_file, m.vectors_delta ?? '');
  const db = new Database(currentDbPath(root)!, { readonly: true });
  try {
    const symbols = db.prepare("SELECT id FROM symbols WHERE kind != 'module' ORDER BY id").pluck().all() as number[];
    return { stored: symbols.filter((id) => store.has(id)), symbols };
  } finally {
    db.close();
  }
}

/** A hub-style model on disk (a copy of the built-in one under another id), so switching models needs no network. */
function localModel(id: string): string {
  const models = tempDir('cg-models-');
  fs.cpSync(builtinModelDir(), path.join(models, id), { recursive: true });
  return models;
}

describe('vectors in the index', () => {
  it('a vector file in an older format (an HNSW file) is written again by the next update, even with nothing to apply', async () => {
    const root = committedFixture();
    await buildIndex(root);
    const old = meta(root);
    const file = path.join(path.dirname(currentDbPath(root)!), old.vectors_file);
    fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 7));
    const manifest = JSON.parse(fs.readFileSync(`${file}.json`, 'utf8'));
    fs.writeFileSync(`${file}.json`, JSON.stringify({ ...manifest, format: 'cg-vectors/2', connectivity: 16 }));
    const warned = JSON.parse(runCg(['query', 'load the configuration', '--json'], root).stdout);
    expect(warned.warnings.join(' ')).toMatch(/older format \(cg-vectors\/2; this cg reads cg-vectors\/3\)/);
    const updated = JSON.parse(runCg(['update', '--json'], root).stdout);
    expect(updated.rounds[0]).toMatchObject({ added: 0, modified: 0, deleted: 0, vectors: { status: 'ok', full: true } });
    const now = meta(root);
    expect(Number(now.generation)).toBe(Number(old.generation) + 1);
    expect(VectorStore.open(path.join(path.dirname(currentDbPath(root)!), now.vectors_file)).size).toBe(Number(old.vectors_count));
    const answer = JSON.parse(runCg(['query', 'load the configuration', '--json'], root).stdout);
    expect(answer.warnings.join(' ')).not.toMatch(/vector/);
  });

  it('a build embeds every symbol and records the model, dims and file of its generation', async () => {
    const root = committedFixture();
    const summary = await buildIndex(root);
    expect(summary.vectors).toMatchObject({ status: 'ok', full: true, fromCache: 0 });
    const m = meta(root);
    expect(m).toMatchObject({ vectors_status: 'ok', vectors_dims: '100', vectors_quantization: 'i8', vectors_file: 'vectors-1.usearch' });
    expect(m.vectors_model).toMatch(/^cg\/glove-100d:/);
    const { stored, symbols } = coverage(root);
    expect(stored.length).toBe(summary.vectors.count);
    // Every symbol with a known word has a vector (a text of unknown words only has none).
    expect(stored.length).toBeGreaterThan(symbols.length * 0.9);
    const status = runCg(['status', '--json'], root).json;
    expect(status.vectors).toMatchObject({ status: 'ok', dims: 100, count: stored.length });
    // The footprint counts the vector file too, not only the database.
    const vectorBytes = fs.statSync(path.join(path.dirname(currentDbPath(root)!), m.vectors_file)).size;
    expect(status.indexBytes).toBeGreaterThanOrEqual(status.dbBytes + vectorBytes);
  });

  it('a build\'s vector file, made on a worker thread, is the file rebuild and save make on this one, byte for byte', async () => {
    const root = committedFixture();
    await buildIndex(root);
    const m = meta(root);
    const dir = path.dirname(currentDbPath(root)!);
    const built = fs.readFileSync(path.join(dir, m.vectors_file));
    const db = new Database(currentDbPath(root)!, { readonly: true });
    try {
      const stored = [...await indexVectors(db, m.vectors_model)];
      const here = tempDir('cg-vectors-');
      VectorStore.rebuild(stored, { dims: 100 }).save(here, 1);
      const worker = tempDir('cg-vectors-');
      const r = await VectorStore.rebuildFile(stored, { dims: 100 }, worker, 1);
      expect(r).toMatchObject({ name: 'vectors-1.usearch', size: Number(m.vectors_count), checksum: Number(m.vectors_crc32) });
      expect(fs.readFileSync(path.join(worker, r.name)).equals(built)).toBe(true);
      expect(fs.readFileSync(path.join(here, 'vectors-1.usearch')).equals(built)).toBe(true);
      expect(fs.readFileSync(path.join(worker, `${r.name}.json`), 'utf8')).toBe(fs.readFileSync(path.join(dir, `${m.vectors_file}.json`), 'utf8'));
    } finally {
      db.close();
    }
  });

  it('an update embeds only symbols whose text changed, and writes what changed as the generation\'s delta beside the base file', async () => {
    const root = committedFixture();
    await buildIndex(root);
    const baseFile = path.join(path.dirname(currentDbPath(root)!), 'vectors-1.usearch');
    const baseBytes = fs.readFileSync(baseFile);
    fs.appendFileSync(path.join(root, 'shop/util.py'), '\n\ndef round_to_cents(amount):\n    """Round money to cents."""\n    return round(amount, 2)\n');
    let round = (await updateIndex(root)).rounds[0];
    expect(round.vectors).toMatchObject({ status: 'ok', embedded: 1, full: false, written: 'delta', fileCheck: 'checksum' });
    expect(meta(root)).toMatchObject({ generation: '2', vectors_file: 'vectors-1.usearch', vectors_delta: 'vectors-2.delta' });
    expect(fs.readFileSync(baseFile).equals(baseBytes)).toBe(true); // a base is never rewritten
    // The delta holds the new function's vector, and hides the base's vectors of the symbols re-embedded.
    const { delta } = readDelta(path.join(path.dirname(currentDbPath(root)!), 'vectors-2.delta'));
    expect(delta.added.size).toBeGreaterThanOrEqual(1);
    const { stored, symbols } = coverage(root);
    const db = new Database(currentDbPath(root)!, { readonly: true });
    const added = db.prepare("SELECT id FROM symbols WHERE name = 'round_to_cents'").pluck().get() as number;
    db.close();
    expect(stored).toContain(added);
    expect(symbols).toContain(added);

    // A body-only edit changes no embedded text: nothing is embedded, the model is not even loaded.
    fs.appendFileSync(path.join(root, 'shop/util.py'), '    # cents\n');
    round = (await updateIndex(root)).rounds[0];
    expect(round.vectors).toMatchObject({ embedded: 0, fromCache: 0 });
    expect(meta(root)).toMatchObject({ vectors_file: 'vectors-1.usearch', vectors_delta: 'vectors-3.delta' });
    // The current generation's files and the previous one's (a reader may still have them open); older ones go.
    expect(vectorFiles(root)).toEqual(['vectors-1.usearch', 'vectors-2.delta', 'vectors-3.delta']);

    // A removed function's vector goes with it.
    fs.writeFileSync(path.join(root, 'shop/util.py'), 'import logging\n\n\ndef log(msg):\n    logging.info(msg)\n');
    await updateIndex(root);
    const after = coverage(root);
    expect(after.stored).not.toContain(added);
    expect(after.stored.every((id) => after.symbols.includes(id))).toBe(true);
  });

  it('a delta that outgrows its limit is folded into a new base, which the next updates build on', async () => {
    const root = committedFixture();
    await buildIndex(root);
    const words = ['ledger', 'invoice', 'refund', 'parcel', 'voucher', 'tariff', 'rebate', 'coupon', 'basket', 'shipment'];
    // 300 functions with texts of their own: more changes than a delta of this small base may hold.
    const body = Array.from({ length: 300 }, (_, i) => `def ${words[i % 10]}_${words[Math.floor(i / 10) % 10]}_${i}(amount):\n`
      + `    """Settle the ${words[i % 10]} of ${words[(i * 7) % 10]} number ${i}."""\n    return amount\n`).join('\n');
    fs.writeFileSync(path.join(root, 'shop/ledger.py'), body);
    let round = (await updateIndex(root)).rounds[0];
    expect(round.vectors).toMatchObject({ full: false, written: 'base', deltaChanges: 0 });
    expect(meta(root)).toMatchObject({ vectors_file: 'vectors-2.usearch', vectors_delta: '' });
    let { stored, symbols } = coverage(root);
    expect(stored.length).toBe(Number(meta(root).vectors_count));
    expect(stored.length).toBeGreaterThan(300);

    fs.appendFileSync(path.join(root, 'shop/util.py'), '\n\ndef round_to_cents(amount):\n    return round(amount, 2)\n');
    round = (await updateIndex(root)).rounds[0];
    expect(round.vectors).toMatchObject({ written: 'delta', fileCheck: 'checksum' });
    expect(round.vectors.deltaChanges).toBeGreaterThan(0);
    expect(meta(root)).toMatchObject({ vectors_file: 'vectors-2.usearch', vectors_delta: 'vectors-3.delta' });
    ({ stored, symbols } = coverage(root));
    expect(stored.length).toBe(Number(meta(root).vectors_count));
    expect(stored.every((id) => symbols.includes(id))).toBe(true);
    // The base and delta hold as many vectors as a fresh build of the same files, and queries answer alike.
    const fresh = path.join(tempDir('cg-fresh-'), 'repo');
    fs.cpSync(root, fresh, { recursive: true, filter: (src) => !src.includes(`${path.sep}.codegraph`) });
    await buildIndex(fresh);
    expect(Number(meta(root).vectors_count)).toBe(Number(meta(fresh).vectors_count));
    const top = async (r: string) => {
      const db = openReader(r);
      try {
        return (await runQuery(db, r, { text: 'round an amount to cents' })).files.slice(0, 3).map((f) => f.path);
      } finally {
        db.close();
      }
    };
    expect(await top(root)).toEqual(await top(fresh));
  });

  it('a damaged delta is reported by queries, which still answer, and the next update rebuilds the vectors', async () => {
    const root = committedFixture();
    await buildIndex(root);
    fs.appendFileSync(path.join(root, 'shop/util.py'), '\n\ndef round_to_cents(amount):\n    return round(amount, 2)\n');
    await updateIndex(root);
    const file = path.join(path.dirname(currentDbPath(root)!), meta(root).vectors_delta);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 1] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const q = runCg(['query', 'discount', '--json'], root);
    expect(q.code, q.stderr).toBe(0);
    expect(q.json.files.length).toBeGreaterThan(0);
    expect(q.json.warnings.join(' ')).toMatch(/vector delta .* is damaged/);
    fs.appendFileSync(path.join(root, 'shop/util.py'), '\n# touched\n');
    const res = runCg(['update', '--json'], root);
    expect(res.json.rounds[0].vectors).toMatchObject({ status: 'ok', full: true });
    expect(res.json.rounds[0].vectors.rebuiltBecause).toMatch(/delta .* damaged/);
    expect(meta(root).vectors_delta).toBe('');
    expect(notAboutGraph(runCg(['query', 'discount', '--json'], root).json.warnings)).toEqual([]);
  });

  it('a rebuild takes a hub model\'s vectors from the previous build; the built-in model\'s are embedded again, never stored twice', async () => {
    const root = committedFixture();
    const first = await buildIndex(root);
    const files = () => fs.readFileSync(path.join(path.dirname(currentDbPath(root)!), meta(root).vectors_file));
    const builtinFile = files();
    // The built-in model embeds ~100k texts a second: the index keeps no copy of its vectors (the file has them), only the
    // zero ones (texts with no known word), so a rebuild embeds again, into the same file.
    const db = new Database(currentDbPath(root)!, { readonly: true });
    const kept = db.prepare('SELECT vector FROM embeddings').pluck().all() as Buffer[];
    db.close();
    expect(kept.every((v) => v.equals(Buffer.alloc(v.length)))).toBe(true);
    const second = await buildIndex(root);
    expect(second.vectors).toMatchObject({ embedded: first.vectors.embedded, fromCache: 0, count: first.vectors.count });
    expect(files().equals(builtinFile)).toBe(true);

    // A hub model's vectors cost far more to compute: they are kept, and a rebuild takes them from the previous build.
    const env = { CG_MODELS_DIR: localModel('local/glove-copy') };
    setConfig(root, { embeddings: { model: 'local/glove-copy' } });
    const hubFirst = runCg(['index', '--full', '--json'], root, { env });
    expect(hubFirst.code, hubFirst.stderr).toBe(0);
    expect(hubFirst.json.vectors).toMatchObject({ fromCache: 0 });
    const hubSecond = runCg(['index', '--full', '--json'], root, { env });
    expect(hubSecond.json.vectors).toMatchObject({ embedded: 0, fromCache: hubFirst.json.vectors.embedded });
  });

  it('another model re-embeds everything and never mixes; an unavailable one leaves a lexical index that says why', async () => {
    const root = committedFixture();
    await buildIndex(root);
    const builtinKey = meta(root).vectors_model;
    const models = localModel('local/glove-copy');
    const env = { CG_MODELS_DIR: models };
    setConfig(root, { embeddings: { model: 'local/glove-copy' } });
    const switched = runCg(['update', '--json'], root, { env });
    expect(switched.code, switched.stderr).toBe(0);
    const v = switched.json.rounds[0].vectors;
    expect(v).toMatchObject({ status: 'ok', full: true, fromCache: 0 });
    expect(v.count).toBeGreaterThan(0);
    expect(v.embedded).toBeGreaterThanOrEqual(v.count); // every symbol embedded anew: no vector of the old model is reused
    expect(meta(root).vectors_model).toMatch(/^local\/glove-copy:/);
    expect(meta(root).vectors_model).not.toBe(builtinKey);

    // The model goes missing: updates still work, without vectors, and queries answer lexically with a warning.
    setConfig(root, { embeddings: { model: 'nobody/not-downloaded' } });
    const missing = runCg(['update', '--json'], root, { env });
    expect(missing.code, missing.stderr).toBe(0);
    expect(missing.json.rounds[0].vectors).toMatchObject({ status: 'unavailable', error: { code: 'model_unavailable' } });
    expect(runCg(['status'], root, { env }).stdout).toMatch(/Vectors: none\. The embedding model nobody\/not-downloaded is not available/);
    const q = runCg(['query', 'discount', 'price', '--json'], root, { env });
    expect(q.code, q.stderr).toBe(0);
    expect(q.json.files[0].path).toBe('shop/models.py');
    expect(q.json.warnings.join(' ')).toMatch(/cg model pull nobody\/not-downloaded/);
    expect(runCg(['model', 'status'], root, { env }).code).toBe(5);

    // Back to the built-in model: vectors return.
    setConfig(root, {});
    const back = runCg(['update', '--json'], root, { env });
    expect(back.json.rounds[0].vectors).toMatchObject({ status: 'ok', full: true });
    expect(meta(root).vectors_model).toBe(builtinKey);
    expect(notAboutGraph(runCg(['query', 'discount', '--json'], root, { env }).json.warnings)).toEqual([]);
  });

  it('embeddings can be switched off: no vectors, no warnings', async () => {
    const root = committedFixture();
    fs.mkdirSync(path.join(root, '.codegraph'), { recursive: true });
    setConfig(root, { embeddings: { enabled: false } });
    const summary = await buildIndex(root);
    expect(summary.vectors).toMatchObject({ status: 'off', count: 0 });
    expect(vectorFiles(root)).toEqual([]);
    const db = openReader(root);
    try {
      const res = await runQuery(db, root, { text: 'discount price' });
      expect(res).toMatchObject({ status: 'ok', preset: 'learned' });
      expect(notAboutGraph(res.warnings)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('a damaged vector file is reported by queries, which still answer, and rebuilt by the next update', async () => {
    const root = committedFixture();
    await buildIndex(root);
    const file = path.join(path.dirname(currentDbPath(root)!), meta(root).vectors_file);
    fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 7));
    const q = runCg(['query', 'discount', '--json'], root);
    expect(q.code, q.stderr).toBe(0);
    expect(q.json.files.length).toBeGreaterThan(0);
    expect(q.json.warnings.join(' ')).toMatch(/vector/i);
    fs.appendFileSync(path.join(root, 'shop/util.py'), '\n# touched\n');
    const res = runCg(['update', '--json'], root);
    expect(res.json.rounds[0].vectors).toMatchObject({ status: 'ok', full: true });
    expect(notAboutGraph(runCg(['query', 'discount', '--json'], root).json.warnings)).toEqual([]);
  });
});
