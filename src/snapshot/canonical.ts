import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CgError, errorMessage } from '../errors.js';
import type { Meta } from '../store/db.js';
import { createIndexes, createTables } from '../store/schema.js';
import { ftsPathWords, symbolFtsText } from '../store/writer.js';
import { storedVectors } from '../vectors/cache.js';
import { VectorStore } from '../vectors/store.js';
import type { VectorQuantization } from '../config/config.js';

/**
 * The database and vectors of a snapshot, written so that the same index content always gives the
 * same bytes (promise 3). The live database is copied in one read transaction (`VACUUM INTO`), so
 * writers keep going; the copy is then rewritten canonically:
 *  - every table's rows are inserted in a fixed order, so rowids and b-tree pages do not depend on
 *    the order in which worker threads finished (refs and imports are renumbered in file order);
 *  - the full-text table, which is contentless and cannot be copied, is regenerated from the symbols;
 *  - the embedding cache keeps only the vectors the symbols use (the rest depends on history);
 *  - meta loses what belongs to the machine or the moment: times, build id, branch, change-log offset;
 *  - the vector file is rebuilt from the stored vectors in id order (USearch is reproducible that way),
 *    so it matches the rows by construction, whatever the live vector file went through.
 */

export const SNAPSHOT_DB = 'index.db';

export interface CanonicalIndex {
  meta: Meta;
  /** File names written into the staging directory, in archive order (the database first). */
  files: string[];
  counts: { files: number; symbols: number; edges: number; vectors: number };
}

/** Tables whose integer ids nothing else refers to: renumbered in (file, original id) order. */
const RENUMBERED: Record<string, string> = { refs: 'file_id, id', imports: 'file_id, id' };

/** Meta values replaced in a snapshot, because they describe a machine, a moment or a checkout. */
function normalisedMeta(meta: Meta, commitIso: string): Meta {
  return {
    ...meta,
    indexed_at: commitIso, // the commit's time: what the index reflects, and the same everywhere
    duration_ms: '0',
    build_id: 'snapshot',
    indexed_branch: '',
    changelog_offset: '0',
    dirty_paths: '[]',
  };
}

/**
 * `check` sees the copy's meta before any work is done on it (a writer may have published a newer
 * generation since the caller looked) and returns the commit time to record as `indexed_at`.
 */
export async function writeCanonicalIndex(liveDb: string, staging: string, check: (meta: Meta) => string): Promise<CanonicalIndex> {
  const raw = path.join(staging, 'raw.db');
  const work = path.join(staging, 'work.db');
  copyConsistently(liveDb, raw);
  const db = new Database(work);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('temp_store = MEMORY');
    createTables(db);
    db.prepare('ATTACH DATABASE ? AS src').run(raw);
    const srcMeta = Object.fromEntries((db.prepare('SELECT key, value FROM src.meta').all() as { key: string; value: string }[])
      .map((r) => [r.key, r.value])) as Meta;
    const out = normalisedMeta(srcMeta, check(srcMeta));
    db.transaction(() => {
      copyTables(db, srcMeta);
      regenerateFts(db);
    })();
    createIndexes(db);
    db.exec('DETACH DATABASE src');
    const files = [SNAPSHOT_DB];
    let vectors = 0;
    if (out.vectors_status === 'ok' && out.vectors_model) {
      const written = writeVectors(db, staging, out);
      vectors = written.count;
      out.vectors_file = written.file;
      out.vectors_count = String(written.count);
      if (written.file) files.push(written.file, `${written.file}.json`);
    } else {
      out.vectors_file = '';
      out.vectors_count = '0';
    }
    db.transaction(() => {
      db.prepare('DELETE FROM meta').run();
      const ins = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      for (const key of Object.keys(out).sort()) ins.run(key, String(out[key]));
    })();
    const counts = {
      files: db.prepare('SELECT COUNT(*) FROM files').pluck().get() as number,
      symbols: db.prepare('SELECT COUNT(*) FROM symbols').pluck().get() as number,
      edges: db.prepare('SELECT COUNT(*) FROM edges').pluck().get() as number,
      vectors,
    };
    // A final VACUUM INTO lays the pages out afresh: same content, same order, same file.
    db.prepare('VACUUM INTO ?').run(path.join(staging, SNAPSHOT_DB));
    return { meta: out, files, counts };
  } finally {
    db.close();
    fs.rmSync(raw, { force: true });
    fs.rmSync(work, { force: true });
  }
}

/** One read transaction over the live database: writers are not stopped, and the copy is one generation. */
function copyConsistently(liveDb: string, target: string): void {
  let src: Database.Database;
  try {
    src = new Database(liveDb, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new CgError('index_corrupt', `Cannot open the index at ${liveDb}: ${errorMessage(err)}`, 'Run `cg index` to rebuild it.');
  }
  try {
    src.pragma('busy_timeout = 5000');
    src.prepare('VACUUM INTO ?').run(target);
  } catch (err) {
    throw new CgError('io', `Cannot copy the index at ${liveDb}: ${errorMessage(err)}`,
      'Check free disk space; if the index is damaged, run `cg index` to rebuild it.');
  } finally {
    src.close();
  }
}

function columnsOf(db: Database.Database, schema: string, table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?, ?)`).pluck().all(table, schema) as string[]);
}

/** Every ordinary table of the schema, rows in a canonical order. */
function copyTables(db: Database.Database, meta: Meta): void {
  const tables = db.prepare(`SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
    AND name NOT LIKE 'symbol_fts%' ORDER BY name`).pluck().all() as string[];
  for (const t of tables) {
    const cols = columnsOf(db, 'main', t);
    const srcCols = new Set(columnsOf(db, 'src', t));
    const missing = cols.filter((c) => !srcCols.has(c));
    if (missing.length) {
      throw new CgError('index_incompatible', `The index has no column ${t}.${missing[0]}`, 'Run `cg index --full` to rebuild it.');
    }
    const q = (c: string) => `"${c}"`;
    if (RENUMBERED[t]) {
      const keep = cols.filter((c) => c !== 'id').map(q).join(', ');
      db.exec(`INSERT INTO main.${t} (${keep}) SELECT ${keep} FROM src.${t} ORDER BY ${RENUMBERED[t]}`);
    } else if (t === 'embeddings') {
      // Only the vectors the symbols use, of the model the index uses: the rest is history-dependent cache.
      db.prepare(`INSERT INTO main.embeddings SELECT * FROM src.embeddings WHERE model = ?
        AND text_hash IN (SELECT text_hash FROM src.symbol_embeddings) ORDER BY model, text_hash`)
        .run(meta.vectors_status === 'ok' ? meta.vectors_model ?? '' : '');
    } else {
      const all = cols.map(q).join(', ');
      db.exec(`INSERT INTO main.${t} (${all}) SELECT ${all} FROM src.${t} ORDER BY ${all}`);
    }
  }
}

/** The contentless FTS5 table rebuilt from the symbol rows, as the writer fills it, then merged into one segment. */
function regenerateFts(db: Database.Database): void {
  const ins = db.prepare('INSERT INTO symbol_fts (rowid, name, qname, signature, doc, path) VALUES (?, ?, ?, ?, ?, ?)');
  const rows = db.prepare(`SELECT s.id, s.name, s.qualified_name AS qualifiedName, s.signature, s.doc, f.path
    FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.kind != 'module' ORDER BY s.id`).all() as
    Iterable<{ id: number; name: string; qualifiedName: string; signature: string; doc: string | null; path: string }>;
  let lastPath = '';
  let words = '';
  for (const r of rows) {
    if (r.path !== lastPath) {
      lastPath = r.path;
      words = ftsPathWords(r.path);
    }
    ins.run(r.id, ...symbolFtsText(r, words));
  }
  db.exec(`INSERT INTO symbol_fts (symbol_fts) VALUES ('optimize')`);
}

function writeVectors(db: Database.Database, staging: string, meta: Meta): { file: string; count: number } {
  const dims = Number(meta.vectors_dims ?? 0);
  if (!dims) return { file: '', count: 0 };
  const store = VectorStore.rebuild(storedVectors(db, meta.vectors_model), {
    dims, quantization: (meta.vectors_quantization || 'i8') as VectorQuantization,
  });
  const file = store.save(staging, Number(meta.generation ?? 0));
  return { file, count: store.size };
}
