import Database from 'better-sqlite3';
import { CgError, errorMessage } from '../errors.js';
import { isRepoPath } from '../repo/contained.js';
import { CG_DIR } from '../paths.js';
import { readMeta, type Meta } from '../store/db.js';
import { createIndexes, createTables, SCHEMA_VERSION } from '../store/schema.js';
import { ID_COLUMNS } from './canonical.js';
import { FORMAT_WITHOUT_INDEXES, type Manifest } from './manifest.js';
import { FULL_TEXT_KINDS_SQL } from '../store/writer.js';
import { postingsProblem } from '../store/postings.js';
import { cachesVectors } from '../vectors/cache.js';

/**
 * The database inside a snapshot is untrusted input: its checksums prove only that it arrived as it
 * was packed, not that cg packed it. Before anything reads it as an index, it must be exactly an index
 * of ours:
 *  - opened read-only with SQLite's defensive settings: `trusted_schema=OFF` (no SQL functions run
 *    from the schema), `cell_size_check=ON` (malformed b-tree cells are errors, not reads out of
 *    bounds), no memory map; extension loading is off in better-sqlite3 (`load_extension()` is not
 *    authorised);
 *  - the schema is ours, object by object (tables, indexes, their SQL): no trigger, view, extra table
 *    or index, nothing altered; SQLite's planner statistics are the only addition allowed; from format
 *    version 2 on, without the secondary indexes (a restore builds them);
 *  - SQLite's quick check passes;
 *  - the meta rows describe a snapshot of the manifest's commit and of this schema version;
 *  - every stored path is normalised and repository-relative (no `..`, no absolute path, nothing in
 *    `.git` or `.codegraph`);
 *  - every id column points at an existing row (the schema declares no foreign keys, so `PRAGMA
 *    foreign_key_check` would check nothing: each column in canonical.ts's table of id columns is
 *    checked instead), the postings decode and their two directions agree (src/store/postings.ts), the
 *    full-text rows are exactly the symbols', every stored vector has its
 *    declared length;
 *  - the row counts are the manifest's.
 * Each failure names its reason (`details.reason`: schema, database, meta, path, reference, counts).
 */
export interface DatabaseFacts {
  meta: Meta;
}

export function openUntrusted(dbFile: string): Database.Database {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  db.pragma('trusted_schema = OFF');
  db.pragma('cell_size_check = ON');
  db.pragma('mmap_size = 0');
  db.pragma('query_only = ON');
  return db;
}

export function checkSnapshotDatabase(file: string, db: Database.Database, manifest: Manifest): DatabaseFacts {
  const refuse = (reason: string, what: string) => new CgError('snapshot_invalid', `The database in the snapshot ${file} ${what}`,
    reason === 'database' ? 'Fetch the snapshot again, or run `cg index` to build from scratch.'
      : 'It is not an index cg wrote, or it was altered after it was written (its manifest fixed up to match): do not use it; run `cg index` to build from scratch.',
    { reason });
  let schemaProblem: string | null;
  try {
    schemaProblem = schemaDifference(db, manifest.formatVersion >= FORMAT_WITHOUT_INDEXES);
  } catch (err) {
    throw refuse('database', `is damaged: ${errorMessage(err)}`);
  }
  if (schemaProblem) throw refuse('schema', `is not of cg's schema: ${schemaProblem}`);
  try {
    const ok = db.pragma('quick_check', { simple: true });
    if (ok !== 'ok') throw new Error(String(ok));
  } catch (err) {
    throw refuse('database', `is damaged: ${errorMessage(err)}`);
  }
  const meta = readMeta(db);
  const metaProblem = metaDifference(meta, manifest);
  if (metaProblem) throw refuse('meta', metaProblem);
  const badPath = firstBadPath(db);
  if (badPath) throw refuse('path', `stores a path that is not inside the repository: ${JSON.stringify(badPath.path)} (${badPath.table})`);
  const dangling = firstDangling(db, meta);
  if (dangling) throw refuse('reference', dangling);
  const counted = {
    files: count(db, 'SELECT COUNT(*) FROM files'),
    symbols: count(db, 'SELECT COUNT(*) FROM symbols'),
    edges: count(db, 'SELECT COUNT(*) FROM edges'),
  };
  for (const [k, n] of Object.entries(counted)) {
    const declared = manifest.counts?.[k as keyof typeof counted];
    if (declared !== n) throw refuse('counts', `holds ${n} ${k}; its manifest says ${declared}`);
  }
  return { meta };
}

/** The schema an index of this cg has, as sqlite_schema rows (built once, in memory), with and without its secondary indexes. */
const expectedSchema = new Map<boolean, Map<string, string>>();
/** ANALYZE's tables: planner statistics, written by snapshot create; their rows only steer the planner. */
const STATISTICS = new Set(['sqlite_stat1', 'sqlite_stat4']);

function schemaRows(db: Database.Database): Map<string, string> {
  const rows = db.prepare('SELECT type, name, tbl_name, sql FROM main.sqlite_schema').raw().all() as [string, string, string, string | null][];
  return new Map(rows.map(([type, name, table, sql]) => [`${type} ${name}`, `${table}\0${sql ?? ''}`]));
}

function ours(withoutIndexes: boolean): Map<string, string> {
  let rows = expectedSchema.get(withoutIndexes);
  if (!rows) {
    const mem = new Database(':memory:');
    createTables(mem);
    if (!withoutIndexes) createIndexes(mem);
    mem.exec('ANALYZE');
    rows = schemaRows(mem);
    expectedSchema.set(withoutIndexes, rows);
    mem.close();
  }
  return rows;
}

/** Null when the schema is exactly ours (statistics tables optional), else the first difference. */
function schemaDifference(db: Database.Database, withoutIndexes: boolean): string | null {
  const expected = ours(withoutIndexes);
  const got = schemaRows(db);
  for (const [key, def] of got) {
    const want = expected.get(key);
    if (want === undefined) return `it has ${/^[aeiou]/.test(key) ? 'an' : 'a'} ${key.replace(' ', ' named ')} that cg's schema does not`;
    if (want !== def) return `its ${key.replace(' ', ' ')} is defined differently (${def.split('\0')[1].slice(0, 120)})`;
  }
  for (const key of expected.keys()) {
    if (!got.has(key) && !STATISTICS.has(key.split(' ')[1])) return `it has no ${key.replace(' ', ' ')}`;
  }
  return null;
}

function metaDifference(meta: Meta, m: Manifest): string | null {
  if (meta.schema_version !== String(SCHEMA_VERSION)) return `says schema version ${meta.schema_version}; this cg uses ${SCHEMA_VERSION}`;
  if (meta.indexed_commit !== m.commit) return `is of commit ${String(meta.indexed_commit).slice(0, 10)}; its manifest says ${m.commit.slice(0, 10)}`;
  if (meta.head_state !== 'commit' || meta.dirty_paths !== '[]') return 'is not the index of a clean commit (head_state, dirty_paths)';
  if (meta.vectors_status === 'ok' && !/^\d+$/.test(meta.vectors_dims ?? '')) return `declares vectors of ${meta.vectors_dims} dimensions`;
  return null;
}

/** Paths stored as data: each must name something inside the repository, in normalised form. */
const PATH_COLUMNS: [string, string][] = [['files', 'path'], ['skipped', 'path'], ['secret_findings', 'path']];

function firstBadPath(db: Database.Database): { table: string; path: string } | null {
  for (const [table, column] of PATH_COLUMNS) {
    for (const p of db.prepare(`SELECT "${column}" FROM ${table}`).pluck().iterate() as Iterable<unknown>) {
      if (typeof p !== 'string' || !isRepoPath(p) || p.split('/').some((part) => part === '.git' || part === CG_DIR)) {
        return { table, path: String(p) };
      }
    }
  }
  return null;
}

function firstDangling(db: Database.Database, meta: Meta): string | null {
  const target = { f: 'files', s: 'symbols' } as const;
  for (const [table, columns] of Object.entries(ID_COLUMNS)) {
    for (const [column, kind] of Object.entries(columns)) {
      if (kind === 'renumber' || (table === target[kind] && column === 'id')) continue;
      // NOT IN over the target's ids is three times faster here than a correlated NOT EXISTS (0.6 s
      // against 1.9 s for sqlalchemy's 430k edges and 1.1M postings). A NULL is never counted: the
      // nullable columns may be NULL, and the others are NOT NULL in the schema checked above.
      const n = count(db, `SELECT COUNT(*) FROM ${table} WHERE ${column} NOT IN (SELECT id FROM ${target[kind]})`);
      if (n) return `has ${n} ${table} row(s) whose ${column} names no row of ${target[kind]} (a dangling key)`;
    }
  }
  for (const c of ['files', 'units'] as const) {
    const problem = postingsProblem(db, c);
    if (problem) return `has postings that do not hold together: ${problem}`;
  }
  // The symbols the writer gives a full-text row (store/writer.ts): not modules or endpoints, not of external files.
  const withText = `SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.${FULL_TEXT_KINDS_SQL} AND f.external = 0`;
  const fts = count(db, `SELECT (SELECT COUNT(*) FROM symbol_fts_docsize WHERE id NOT IN (${withText}))
    + (SELECT COUNT(*) FROM (${withText}) WHERE id NOT IN (SELECT id FROM symbol_fts_docsize))`);
  if (fts) return `has ${fts} full-text row(s) that are not exactly its symbols'`;
  // The built-in model's vectors are not kept (src/vectors/cache.ts: cachesVectors), a hub model's are.
  if (meta.vectors_status === 'ok' && cachesVectors(meta.vectors_model ?? '')) {
    const missing = count(db, 'SELECT COUNT(*) FROM symbol_embeddings WHERE text_hash NOT IN (SELECT text_hash FROM embeddings WHERE model = ?)',
      meta.vectors_model);
    if (missing) return `has ${missing} symbol(s) whose embedding is not stored`;
  }
  const badVectors = count(db, 'SELECT COUNT(*) FROM embeddings WHERE dims != ? OR length(vector) != dims * 4', Number(meta.vectors_dims ?? 0));
  if (badVectors) return `has ${badVectors} stored vector(s) of another length than the index's ${meta.vectors_dims} dimensions`;
  return null;
}

function count(db: Database.Database, sql: string, ...params: unknown[]): number {
  return db.prepare(sql).pluck().get(...params) as number;
}
