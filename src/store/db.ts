import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CG_DIR } from '../paths.js';
import { CgError, errorMessage, nativeModuleError } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';
import { SCHEMA_VERSION, createTables } from './schema.js';
import { prepared } from './queries.js';

/**
 * On-disk layout under `.codegraph/`:
 *   builds/<id>/index.db   one directory per full build
 *   CURRENT                the id of the build readers use, replaced atomically (write + rename)
 *   backups/               databases of an incompatible older schema, kept when a rebuild replaces them
 * A full build is written beside the live one and becomes visible in one rename, so readers see the
 * old index or the new one, never a half-built one.
 */
const BUILDS = 'builds';
const CURRENT = 'CURRENT';
const DB_FILE = 'index.db';

export function cgDir(root: string): string {
  return path.join(root, CG_DIR);
}

export function currentBuildId(root: string): string | null {
  try {
    return fs.readFileSync(path.join(cgDir(root), CURRENT), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

export function currentDbPath(root: string): string | null {
  const id = currentBuildId(root);
  return id ? path.join(cgDir(root), BUILDS, id, DB_FILE) : null;
}

export type Meta = Record<string, string>;

/** Read on every answer (its freshness): the statement is compiled once per handle. */
export function readMeta(db: Database.Database): Meta {
  const rows = prepared(db, 'SELECT key, value FROM meta').all() as { key: string; value: string }[];
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

let sqliteChecked = false;

/** Throws the install error when better-sqlite3's native binding cannot be loaded (checked once per process). */
function assertSqliteLoads(): void {
  if (sqliteChecked) return;
  try {
    new Database(':memory:').close();
    sqliteChecked = true;
  } catch (err) {
    throw nativeModuleError(err, PACKAGE_ROOT) ?? err;
  }
}

/** Opens the live index read-only, with the reason and the remedy when that is impossible. */
export function openReader(root: string): Database.Database {
  return openReaderOrWriter(root, true);
}

function openReaderOrWriter(root: string, readonly: boolean): Database.Database {
  const file = currentDbPath(root);
  if (!file) {
    // "Run cg index" is only the remedy when SQLite itself loads: an install without its binding would fail there too.
    assertSqliteLoads();
    throw new CgError('index_missing', `No index for ${root} yet`, 'Run `cg index` to build it (a few seconds for most repositories).');
  }
  if (!fs.existsSync(file)) {
    throw new CgError('index_corrupt', `The index that ${path.join(CG_DIR, CURRENT)} points to is missing (${file})`,
      'Run `cg index` to rebuild it.');
  }
  let db: Database.Database;
  try {
    db = new Database(file, { readonly, fileMustExist: true });
    if (readonly) db.pragma('query_only = ON');
  } catch (err) {
    // Not the index's fault when SQLite itself cannot load: re-indexing would fail the same way.
    throw nativeModuleError(err, PACKAGE_ROOT)
      ?? new CgError('index_corrupt', `Cannot open the index at ${file}: ${errorMessage(err)}`, 'Run `cg index` to rebuild it.');
  }
  let version: number;
  try {
    version = Number(readMeta(db).schema_version);
  } catch (err) {
    db.close();
    throw new CgError('index_corrupt', `The index at ${file} is unreadable: ${errorMessage(err)}`, 'Run `cg index` to rebuild it.');
  }
  if (version !== SCHEMA_VERSION) {
    db.close();
    throw new CgError('index_incompatible',
      `The index was built with schema version ${version || 'unknown'}; this cg uses version ${SCHEMA_VERSION}`,
      'Run `cg index` to rebuild it; the old index is kept in .codegraph/backups/.');
  }
  return db;
}

/** The live index opened for an incremental update (the caller holds the writer lock). */
export function openWriter(root: string): Database.Database {
  const db = openReaderOrWriter(root, false);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // SQLite's default page cache is 2 MiB; an update of many files in a large index rewrites postings,
  // edges and FTS rows all over a database of hundreds of MiB, and re-reads the same pages otherwise.
  db.pragma('cache_size = -65536');
  return db;
}

export interface BuildTarget {
  id: string;
  dir: string;
  db: Database.Database;
}

/** A fresh database for a full build, tuned for a bulk load that nobody reads until it is published. */
export function createBuild(root: string): BuildTarget {
  const { id, dir } = reserveBuild(root);
  const db = new Database(path.join(dir, DB_FILE));
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -65536');
  db.pragma('temp_store = MEMORY');
  createTables(db);
  return { id, dir, db };
}

/**
 * An empty build directory with the next id, for a caller that fills it itself (a snapshot restore
 * unpacks a database there) and then publishes it with publishBuild. The caller holds the writer lock.
 */
export function reserveBuild(root: string): { id: string; dir: string } {
  const builds = path.join(cgDir(root), BUILDS);
  fs.mkdirSync(builds, { recursive: true });
  const id = nextBuildId(builds);
  const dir = path.join(builds, id);
  fs.mkdirSync(dir);
  return { id, dir };
}

function nextBuildId(builds: string): string {
  const ids = fs.readdirSync(builds).map((n) => Number.parseInt(n, 10)).filter((n) => Number.isFinite(n));
  return String(Math.max(0, ...ids) + 1).padStart(6, '0');
}

/**
 * Makes a finished build the live one. The database is switched to WAL first so that later
 * incremental writers and concurrent readers work, and made durable before the pointer moves.
 */
export function publishBuild(root: string, build: BuildTarget): void {
  build.db.pragma('journal_mode = WAL');
  build.db.pragma('synchronous = NORMAL');
  build.db.close();
  const dir = cgDir(root);
  const previous = currentBuildId(root);
  backupIfIncompatible(root);
  const tmp = path.join(dir, `${CURRENT}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, `${build.id}\n`);
  const fd = fs.openSync(tmp, 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(tmp, path.join(dir, CURRENT));
  removeOldBuilds(root, new Set([build.id, previous ?? '']));
}

/** PRD §12: an index of another schema version is kept as a backup when a rebuild replaces it. */
function backupIfIncompatible(root: string): void {
  const file = currentDbPath(root);
  if (!file || !fs.existsSync(file)) return;
  let version: string | undefined;
  try {
    const db = new Database(file, { readonly: true });
    try {
      version = readMeta(db).schema_version;
    } finally {
      db.close();
    }
  } catch {
    version = 'unreadable';
  }
  if (version === String(SCHEMA_VERSION)) return;
  const backups = path.join(cgDir(root), 'backups');
  fs.mkdirSync(backups, { recursive: true });
  fs.copyFileSync(file, path.join(backups, `index-schema-${version ?? 'unknown'}-${Date.now()}.db`));
}

/**
 * Deletes builds other than the live one and the one it replaced; the previous build stays one more
 * round because a long-running reader may still have it open.
 */
function removeOldBuilds(root: string, keep: Set<string>): void {
  const builds = path.join(cgDir(root), BUILDS);
  for (const name of fs.readdirSync(builds)) {
    if (keep.has(name)) continue;
    fs.rmSync(path.join(builds, name), { recursive: true, force: true });
  }
}

/** Deletes a build that failed or was interrupted, leaving the live index untouched. */
export function discardBuild(build: BuildTarget): void {
  try {
    if (build.db.open) build.db.close();
  } catch {
    /* already closed */
  }
  fs.rmSync(build.dir, { recursive: true, force: true });
}
