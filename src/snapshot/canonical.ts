import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CgError, errorMessage } from '../errors.js';
import type { Meta } from '../store/db.js';
import { createIndexes, createTables, SECONDARY_INDEXES } from '../store/schema.js';
import { FULL_TEXT_KINDS_SQL, ftsPathWords, IndexWriter, SYMBOLS_PER_FILE, symbolFtsText } from '../store/writer.js';
import { commitLog, fileHistory } from '../repo/git.js';
import { boilerplateMeta } from '../retrieve/boilerplate.js';
import { PAST_COMMITS, pastCommitsOf, storePastCommits } from '../retrieve/history.js';
import { refreshRanks } from '../indexer/ranks.js';
import { documentTerms } from '../store/postings.js';
import { VectorStore } from '../vectors/store.js';
import { indexVectors } from '../indexer/vectors.js';
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

/**
 * Ids are renumbered from content, so that an index that went through incremental updates (which keep
 * a symbol's id across edits and give new files the next free id) snapshots to the same bytes as one
 * built from scratch: files by path, symbols within their file by position (and then content), as
 * symbolIdBase(file) + rank. Every id column is mapped through `f` (files) or `s` (symbols); refs and
 * imports get fresh ids in (file, original order). An id column missing from this table stops the
 * snapshot (a schema change must say how its ids are made canonical).
 */
export const ID_COLUMNS: Record<string, Record<string, 'f' | 's' | 'renumber'>> = {
  files: { id: 'f' },
  symbols: { id: 's', file_id: 'f', parent_id: 's' },
  imports: { id: 'renumber', file_id: 'f' },
  refs: { id: 'renumber', file_id: 'f', symbol_id: 's' },
  edges: { src_id: 's', dst_id: 's', file_id: 'f' },
  file_terms: { file_id: 'f' }, // postings: copied by copyPostings, which maps the ids inside their blobs too
  unit_terms: { symbol_id: 's' },
  symbol_embeddings: { symbol_id: 's' },
  external_modules: { file_id: 'f' },
};

/** Meta values replaced in a snapshot, because they describe a machine, a moment or a checkout. */
function normalisedMeta(meta: Meta, commitIso: string): Meta {
  // The live vector files' checksums and delta: their bytes depend on the order of past updates (the
  // snapshot writes its own file, with every vector in it and no delta).
  const { vectors_crc32: _, vectors_delta: _d, vectors_delta_crc32: _dc, ...rest } = meta;
  return {
    ...rest,
    indexed_at: commitIso, // the commit's time: what the index reflects, and the same everywhere
    duration_ms: '0',
    build_id: 'snapshot',
    // Not a generation of any live index (how many updates preceded it must not change the bytes):
    // restore publishes it as the live index's next generation.
    generation: '0',
    indexed_branch: '',
    changelog_offset: '0',
    dirty_paths: '[]',
    excludes_hash: '', // the user's own git exclude files: this machine's, not the commit's
  };
}

/**
 * `check` sees the copy's meta before any work is done on it (a writer may have published a newer
 * generation since the caller looked) and returns the commit time to record as `indexed_at`.
 */
export async function writeCanonicalIndex(root: string, liveDb: string, staging: string, check: (meta: Meta) => string): Promise<CanonicalIndex> {
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
    // Learnt from the history up to the snapshot's commit, as a full build of that commit would.
    const out = { ...normalisedMeta(srcMeta, check(srcMeta)), ...boilerplateMeta(root, srcMeta.indexed_commit) };
    db.transaction(() => {
      copyTables(db, srcMeta);
      copyPostings(db);
      regenerateFts(db);
    })();
    createIndexes(db);
    recomputeDerived(db, root, srcMeta.indexed_commit);
    db.exec('DETACH DATABASE src');
    const files = [SNAPSHOT_DB];
    let vectors = 0;
    if (out.vectors_status === 'ok' && out.vectors_model) {
      const written = await writeVectors(db, staging, out);
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
    // Planner statistics go with the snapshot (the same content gives the same statistics), so a
    // restore needs no ANALYZE of its own before its catch-up queries.
    db.exec('ANALYZE');
    dropSecondaryIndexes(db);
    // A final VACUUM INTO lays the pages out afresh: same content, same order, same file.
    db.prepare('VACUUM INTO ?').run(path.join(staging, SNAPSHOT_DB));
    checkWritten(path.join(staging, SNAPSHOT_DB));
    return { meta: out, files, counts };
  } finally {
    db.close();
    fs.rmSync(raw, { force: true });
    fs.rmSync(work, { force: true });
  }
}

/**
 * The secondary indexes are derived data (src/store/schema.ts, INDEXES), and 15-23 % of a snapshot's
 * compressed bytes (Go's net/http: 1.93 -> 1.62 MB, which takes it under its source's size): a
 * snapshot leaves them out and a restore builds them again (Go's standard library: 0.8 s). Their
 * planner statistics stay: DROP INDEX deletes an index's rows from sqlite_stat1 and sqlite_stat4, so
 * they are put back, and the index a restore creates under the same name has them at once.
 */
function dropSecondaryIndexes(db: Database.Database): void {
  const names = JSON.stringify(SECONDARY_INDEXES);
  const stats = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('sqlite_stat1', 'sqlite_stat4') ORDER BY name")
    .pluck().all() as string[]);
  db.transaction(() => {
    for (const t of stats) db.exec(`CREATE TEMP TABLE kept_${t} AS SELECT * FROM ${t} WHERE idx IN (SELECT value FROM json_each('${names}')) ORDER BY rowid`);
    for (const name of SECONDARY_INDEXES) db.exec(`DROP INDEX IF EXISTS ${name}`);
    for (const t of stats) db.exec(`INSERT INTO ${t} SELECT * FROM temp.kept_${t}; DROP TABLE temp.kept_${t}`);
  })();
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

/** The old -> new id maps, from the source's content only. */
function buildIdMaps(db: Database.Database): void {
  db.exec(`CREATE TEMP TABLE fmap (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);
    INSERT INTO fmap SELECT id, ROW_NUMBER() OVER (ORDER BY path) FROM src.files;
    CREATE TEMP TABLE smap (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);
    INSERT INTO smap SELECT s.id, m.new * ${SYMBOLS_PER_FILE} + ROW_NUMBER() OVER (PARTITION BY s.file_id
      ORDER BY s.start_line, s.end_line DESC, s.kind, s.qualified_name, s.name, s.signature, s.doc, s.params, s.id) - 1
      FROM src.symbols s JOIN fmap m ON m.old = s.file_id;`);
}

/** Every ordinary table of the schema: ids mapped, rows in a canonical order. */
function copyTables(db: Database.Database, meta: Meta): void {
  buildIdMaps(db);
  const tables = db.prepare(`SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
    AND name NOT LIKE 'symbol_fts%' ORDER BY name`).pluck().all() as string[];
  for (const t of tables) {
    if (POSTINGS_TABLES.has(t)) continue;
    const cols = columnsOf(db, 'main', t);
    const srcCols = new Set(columnsOf(db, 'src', t));
    const missing = cols.filter((c) => !srcCols.has(c));
    if (missing.length) {
      throw new CgError('index_incompatible', `The index has no column ${t}.${missing[0]}`, 'Run `cg index --full` to rebuild it.');
    }
    const ids = ID_COLUMNS[t] ?? {};
    const unknown = cols.find((c) => (c === 'id' || c.endsWith('_id')) && !(c in ids));
    if (unknown) throw new CgError('internal', `Snapshots do not know how to renumber ${t}.${unknown}`, 'This is a bug in cg: report it.');
    const expr = (c: string) => {
      const map = ids[c];
      if (map === 'f' || map === 's') return `COALESCE((SELECT new FROM temp.${map}map WHERE old = t."${c}"), t."${c}")`;
      return `t."${c}"`;
    };
    const kept = cols.filter((c) => ids[c] !== 'renumber');
    const select = kept.map(expr).join(', ');
    if (t === 'embeddings') {
      // Only the vectors the symbols use, of the model the index uses: the rest is history-dependent cache.
      db.prepare(`INSERT INTO main.embeddings SELECT * FROM src.embeddings WHERE model = ?
        AND text_hash IN (SELECT text_hash FROM src.symbol_embeddings) ORDER BY model, text_hash`)
        .run(meta.vectors_status === 'ok' ? meta.vectors_model ?? '' : '');
      continue;
    }
    // Renumbered tables keep their rows' order within a file (extraction order); others sort by every column.
    const order = 'id' in ids && ids.id === 'renumber' ? `${expr('file_id')}, t.id` : kept.map((_, i) => String(i + 1)).join(', ');
    db.exec(`INSERT INTO main.${t} (${kept.map((c) => `"${c}"`).join(', ')}) SELECT ${select} FROM src.${t} t ORDER BY ${order}`);
  }
}

/** The postings' tables hold ids inside their blobs: copyPostings rewrites them. */
const POSTINGS_TABLES = new Set(['terms', 'file_postings', 'unit_postings', 'file_terms', 'unit_terms']);

/**
 * The postings read from the source and written afresh with file and symbol ids mapped, in id order:
 * term ids follow the terms' order, as in a full build, whatever updates the source went through.
 */
function copyPostings(db: Database.Database): void {
  const writer = new IndexWriter(db);
  for (const [c, map] of [['files', 'f'], ['units', 's']] as const) {
    const ids = new Map(db.prepare(`SELECT old, new FROM temp.${map}map`).raw().all() as [number, number][]);
    for (const [doc, terms] of documentTerms(db, c, 'src').map(([d, t]) => [ids.get(d) ?? d, t] as const).sort((a, b) => a[0] - b[0])) {
      writer.addPostings(c, doc, terms);
    }
  }
  writer.flushPostings();
}

/**
 * Recency and PageRank recomputed on the canonical copy: an updated index accumulates history per
 * update and sums PageRank over nodes in id order, so both could differ in their last bits (or, for
 * history beyond the window a full build reads, more) from a fresh build of the same commit.
 */
function recomputeDerived(db: Database.Database, root: string, commit: string): void {
  const writer = new IndexWriter(db);
  db.transaction(() => {
    db.prepare('UPDATE files SET last_commit = NULL, commits = 0').run();
    writer.setHistory(fileHistory(root, { range: commit }));
    storePastCommits(db, pastCommitsOf(commitLog(root, { rev: commit, max: PAST_COMMITS })));
    refreshRanks(db, writer);
  })();
}

/** SQLite's quick check of the database about to be packed: a damaged index is not published as a snapshot. */
function checkWritten(file: string): void {
  const db = new Database(file, { readonly: true });
  try {
    const ok = db.pragma('quick_check', { simple: true });
    if (ok !== 'ok') {
      throw new CgError('index_corrupt', `The snapshot's copy of the index fails SQLite's quick check: ${String(ok)}`,
        'Run `cg index --full` to rebuild the index, then create the snapshot again.');
    }
  } finally {
    db.close();
  }
}

/** The contentless FTS5 table rebuilt from the symbol rows, as the writer fills it, then merged into one segment. */
function regenerateFts(db: Database.Database): void {
  const ins = db.prepare('INSERT INTO symbol_fts (rowid, name, qname, signature, doc, path) VALUES (?, ?, ?, ?, ?, ?)');
  const rows = db.prepare(`SELECT s.id, s.name, s.qualified_name AS qualifiedName, s.signature, s.doc, f.path
    FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.${FULL_TEXT_KINDS_SQL} AND f.external = 0 ORDER BY s.id`).all() as
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

/** The vector file of a snapshot's database (`vectors-0.usearch` in `staging`), from its symbols' stored or re-embedded vectors. */
export async function writeVectors(db: Database.Database, staging: string, meta: Meta): Promise<{ file: string; count: number }> {
  const dims = Number(meta.vectors_dims ?? 0);
  if (!dims) return { file: '', count: 0 };
  const store = VectorStore.rebuild(await indexVectors(db, meta.vectors_model), {
    dims, quantization: (meta.vectors_quantization || 'i8') as VectorQuantization,
  });
  const file = store.save(staging, 0);
  return { file, count: store.size };
}
