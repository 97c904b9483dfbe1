import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { currentDbPath, readMeta } from '../src/store/db.js';
import { copyFixture, holdWriterLock, makeRepo, runCg } from './helpers.js';

describe('index lifecycle', () => {
  it('rebuilds an index of another schema version and keeps the old one as a backup', () => {
    const dir = makeRepo({ 'a.py': 'def f():\n    pass\n' });
    expect(runCg(['index', '-q'], dir).code).toBe(0);
    const db = new Database(currentDbPath(dir)!);
    db.prepare("UPDATE meta SET value = '0' WHERE key = 'schema_version'").run();
    db.close();
    const read = runCg(['symbols', 'f', '--json'], dir);
    expect(read.code).toBe(3);
    expect(read.json.error.code).toBe('index_incompatible');
    expect(read.json.error.hint).toContain('cg index');
    expect(runCg(['index', '-q'], dir).code).toBe(0);
    expect(runCg(['symbols', 'f', '--json'], dir).json.total).toBe(1);
    const backups = fs.readdirSync(path.join(dir, '.codegraph', 'backups'));
    expect(backups).toHaveLength(1);
    expect(backups[0]).toMatch(/^index-schema-0-\d+\.db$/);
  });

  it('detects a corrupt or missing index, says so, and recovers with cg index', () => {
    const dir = makeRepo({ 'a.py': 'def f():\n    pass\n' });
    runCg(['index', '-q'], dir);
    fs.writeFileSync(currentDbPath(dir)!, 'this is not a database, it is garbage '.repeat(200));
    const broken = runCg(['status', '--json'], dir);
    expect(broken.code).toBe(3);
    expect(broken.json.error.code).toBe('index_corrupt');
    expect(runCg(['index', '-q'], dir).code).toBe(0);
    expect(runCg(['status', '--json'], dir).code).toBe(0);
    fs.rmSync(path.dirname(currentDbPath(dir)!), { recursive: true });
    expect(runCg(['status', '--json'], dir).json.error.code).toBe('index_corrupt');
  });

  it('a rebuild that drops most of the embedding cache it carried over leaves no free pages behind', () => {
    const dir = makeRepo({ 'a.py': 'def f():\n    pass\n' });
    expect(runCg(['index', '-q'], dir).code).toBe(0);
    const db = new Database(currentDbPath(dir)!);
    const model = readMeta(db).vectors_model;
    const stale = db.prepare('INSERT INTO embeddings (model, text_hash, dims, vector) VALUES (?, ?, 100, ?)');
    db.transaction(() => {
      for (let i = 0; i < 3000; i++) stale.run(model, `stale-${i}`, Buffer.alloc(400));
    })();
    db.close();
    expect(runCg(['index', '--full', '-q'], dir).code).toBe(0);
    const rebuilt = new Database(currentDbPath(dir)!, { readonly: true });
    try {
      expect(rebuilt.prepare("SELECT COUNT(*) FROM embeddings WHERE text_hash LIKE 'stale-%'").pluck().get()).toBe(0);
      expect(rebuilt.pragma('freelist_count', { simple: true })).toBe(0);
    } finally {
      rebuilt.close();
    }
  });

  it('keeps at most the live build and the one before it', () => {
    const dir = makeRepo({ 'a.py': 'x = 1\n' });
    for (let i = 0; i < 4; i++) expect(runCg(['index', '--full', '-q'], dir).code).toBe(0);
    expect(fs.readdirSync(path.join(dir, '.codegraph', 'builds')).sort()).toEqual(['000003', '000004']);
  });

  it('a reader that opened the old index keeps reading it while a rebuild publishes a new one', () => {
    const dir = makeRepo({ 'a.py': 'def old():\n    pass\n' });
    runCg(['index', '-q'], dir);
    const reader = new Database(currentDbPath(dir)!, { readonly: true });
    fs.writeFileSync(path.join(dir, 'a.py'), 'def new():\n    pass\n');
    runCg(['index', '--full', '-q'], dir);
    expect(reader.prepare("SELECT name FROM symbols WHERE kind = 'function'").pluck().all()).toEqual(['old']);
    reader.close();
    expect(runCg(['symbols', 'new', '--json'], dir).json.total).toBe(1);
  });
});

describe('one writer at a time', () => {
  it('refuses to build while another live process holds the lock, and needs nothing removed once it is killed', async () => {
    const dir = makeRepo({ 'a.py': 'x = 1\n' });
    expect(runCg(['init'], dir).code).toBe(0);
    const holder = await holdWriterLock(dir);
    try {
      const busy = runCg(['index', '--json'], dir);
      expect(busy.code).toBe(6);
      expect(busy.json.error.code).toBe('index_busy');
      expect(busy.json.error.message).toContain(`pid ${holder.pid}`);
      expect(busy.json.error.hint).toContain('writer.lock.db');
    } finally {
      holder.kill('SIGKILL');
      await new Promise((r) => holder.once('exit', r));
    }
    // Killed while holding it: the operating system dropped the lock; its note is left and means nothing.
    const note = path.join(dir, '.codegraph', 'writer.lock');
    expect(fs.existsSync(note)).toBe(true);
    expect(runCg(['index', '-q'], dir).code).toBe(0);
    expect(fs.existsSync(note)).toBe(false);
  });
});

describe('parallel extraction', () => {
  it('gives the same index on worker threads as in one thread, and on both at once', () => {
    // workers: 2 forces the worker-pool path, workers: 1 keeps extraction in one thread; with workers
    // left automatic, 200 kB-1.5 MB of source is extracted in this thread and on a worker at once; with
    // several languages, the workers take the main one's files.
    const dir = copyFixture('python');
    for (let i = 0; i < 12; i++) fs.cpSync(path.join(dir, 'shop'), path.join(dir, `copy${i}`, 'shop'), { recursive: true });
    // And 10 modules of 400 small functions each (~240 kB in all), calling each other across files.
    for (let m = 0; m < 10; m++) {
      fs.writeFileSync(path.join(dir, `gen${m}.py`), Array.from({ length: 400 }, (_, i) =>
        `def step_${m}_${i}(value, scale=${i}):\n    """Step ${i} of stage ${m}."""\n    return step_${(m + 1) % 10}_${i}(value * scale)\n`).join('\n'));
    }
    const dump = (workers: number, mode: string) => {
      fs.mkdirSync(path.join(dir, '.codegraph'), { recursive: true });
      fs.writeFileSync(path.join(dir, '.codegraph', 'config.json'), JSON.stringify({ workers }));
      const res = runCg(['index', '--full', '--json'], dir);
      expect(res.code, res.stderr).toBe(0);
      expect(res.json.files).toBeGreaterThan(70);
      expect(res.json.extraction.mode).toBe(mode);
      const db = new Database(currentDbPath(dir)!, { readonly: true });
      const out = {
        files: db.prepare('SELECT id, path, hash FROM files ORDER BY id').all(),
        symbols: db.prepare('SELECT * FROM symbols ORDER BY id').all(),
        edges: db.prepare('SELECT * FROM edges ORDER BY src_id, dst_id, kind, line').all(),
      };
      db.close();
      return out;
    };
    const single = dump(1, 'in-process');
    expect(dump(2, 'threads')).toEqual(single);
    if (os.availableParallelism() > 1) expect(dump(0, 'shared')).toEqual(single);
    // Another language and a document: the workers take the Python files, this thread the rest.
    fs.writeFileSync(path.join(dir, 'web.js'), 'export function render(x) {\n  return step(x);\n}\nfunction step(x) {\n  return x + 1;\n}\n');
    fs.writeFileSync(path.join(dir, 'NOTES.md'), '# Notes\n\nHow the stages run.\n');
    const mixed = dump(1, 'in-process');
    expect(dump(2, 'split')).toEqual(mixed);
  });
});

// A long-running server matches symbol names in memory (src/store/queries.ts): the match must be SQLite's
// LIKE exactly, whatever the characters: ASCII letters in either case, others as they are, `%` and `_`,
// and `\` as the escape.
describe('symbol name matching in memory', () => {
  it('decides as SQLite LIKE does', async () => {
    const { likeMatcher } = await import('../src/store/queries.js');
    const db = new Database(':memory:');
    const like = db.prepare("SELECT ? LIKE ? ESCAPE '\\'").pluck();
    const names = ['Handler', 'handler', 'HANDLER', 'getTemplateName', 'get_template', 'getXtemplate', 'Ünicode', 'ünicode', 'straße', 'STRASSE',
      'émoji😀x', 'a%b', 'a_b', 'axb', 'back\\slash', 'é', 'É', '😀', 'x.y.z', 'ServeHTTP', ''];
    const patterns = ['%handler%', '%HANDLER%', 'get%name', 'get_template', 'get\\_template', '%\\%%', 'a\\%b', 'a_b', '%ünicode%', '%Ünicode%',
      '%straße%', '_', '__', '%😀%', '_😀_', 'é', '%\\\\%', 'x.%.z', '%.y.%', '%', '', '%serve%http%'];
    const lower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
    for (const p of patterns) {
      const match = likeMatcher(p);
      for (const n of names) expect([p, n, match(lower(n))]).toEqual([p, n, like.get(n, p) === 1]);
    }
    db.close();
  });
});
