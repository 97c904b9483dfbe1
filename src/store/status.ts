import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { CallStats, ImportStats } from '../resolve/types.js';
import { callStats, importStats } from './stats.js';
import { currentDbPath, readMeta } from './db.js';
import { countRows } from './queries.js';
import { repoPolicy } from '../secrets/read.js';
import { ruleSet } from '../secrets/rules.js';
import { MIN_PAST_COMMITS } from '../retrieve/ranker.js';
import { PAST_COMMITS } from '../retrieve/history.js';

export interface IndexStatus {
  root: string;
  buildId: string;
  schemaVersion: number;
  cgVersion: string;
  indexedAt: string;
  durationMs: number;
  dbBytes: number;
  /** Everything in the build's folder: the database, the vector files (base and delta) and the rows kept beside it. */
  indexBytes: number;
  files: {
    indexed: number;
    partial: number;
    invalidUtf8: number;
    byLanguage: Record<string, { files: number; symbols: number; loc: number; partial: number }>;
  };
  symbols: number;
  /** Dependencies' declaration files indexed (src/indexer/external.ts), and their packages. */
  external: { files: number; packages: number };
  symbolsByKind: Record<string, number>;
  edges: number;
  edgesByKind: Record<string, number>;
  skipped: { total: number; byReason: Record<string, number> };
  /** Files left out whole for a credential (`secrets.mode: exclude`). */
  excludedSecrets: SecretRow[];
  /** Credentials replaced in indexed files (`secrets.mode: redact`): the files are indexed without them. */
  redactedSecrets: SecretRow[];
  /** The rule set and how it is applied. */
  secretRules: {
    enabled: boolean;
    mode: string;
    /** Every rule's id, gitleaks' first. */
    ids: string[];
    /** gitleaks rules that match file names only (binary key stores), which cg never indexes. */
    pathOnly: string[];
    gitleaks: { commit: string; sha256: string };
  };
  /** Files no supported language claims (not listed one by one). */
  unsupportedFiles: number;
  calls: Record<string, CallStats>;
  imports: Record<string, ImportStats>;
  /** The generation's vector index: ok, unavailable (the model could not be loaded: why), or off. */
  /** file: the base vector file; delta: the changes since it (src/vectors/delta.ts), '' when none. */
  vectors: { status: string; model: string; count: number; dims: number; quantization: string; file: string; delta: string; error: string };
  /**
   * The commits whose messages the ranker reads (src/retrieve/history.ts), and so which model ranks:
   * the one that reads them from MIN_PAST_COMMITS on, else the one fitted without them.
   */
  pastCommits: { kept: number; rankerReadsThem: boolean };
}

export interface SecretRow {
  path: string;
  rule: string;
  line: number;
  fingerprint: string;
}

export const FILE_LISTS = ['partial', 'skipped'] as const;
export type FileList = (typeof FILE_LISTS)[number];

export interface ListedFile {
  path: string;
  isDir: boolean;
  /** partial: syntax errors; skipped: the walk's or the extractor's reason (ignored, vendored, build_output, too_large, secret, …). */
  reason: string;
  detail: string | null;
}

/** The files behind status's counts: those parsed with syntax errors, or every skipped path (directories once). */
export function listFiles(db: Database.Database, which: FileList): ListedFile[] {
  if (which === 'partial') {
    return (db.prepare('SELECT path, error_count FROM files WHERE partial = 1 ORDER BY path').all() as { path: string; error_count: number }[])
      .map((r) => ({ path: r.path, isDir: false, reason: 'partial', detail: `${r.error_count} syntax error region${r.error_count === 1 ? '' : 's'}` }));
  }
  return (db.prepare('SELECT path, reason, detail, is_dir FROM skipped ORDER BY path').all() as
    { path: string; reason: string; detail: string | null; is_dir: number }[])
    .map((r) => ({ path: r.path, isDir: r.is_dir === 1, reason: r.reason, detail: r.detail }));
}

export function indexStatus(db: Database.Database, root: string): IndexStatus {
  const meta = readMeta(db);
  const group = (sql: string) => Object.fromEntries((db.prepare(sql).raw().all() as [string, number][]));
  const byLanguage: IndexStatus['files']['byLanguage'] = {};
  for (const [lang, files, loc, partial] of db.prepare(
    'SELECT language, COUNT(*), SUM(loc), SUM(partial) FROM files WHERE external = 0 GROUP BY language ORDER BY language').raw().all() as
    [string, number, number, number][]) {
    byLanguage[lang] = { files, symbols: 0, loc, partial };
  }
  for (const [lang, n] of db.prepare(
    'SELECT f.language, COUNT(*) FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.external = 0 GROUP BY f.language').raw().all() as [string, number][]) {
    if (byLanguage[lang]) byLanguage[lang].symbols = n;
  }
  const byReason = group('SELECT reason, COUNT(*) FROM skipped GROUP BY reason ORDER BY reason');
  const dbFile = currentDbPath(root);
  const pastCommits = Math.min(PAST_COMMITS, countRows(db, 'SELECT COALESCE(SUM(commits), 0) FROM past_commits'));
  return {
    root,
    buildId: meta.build_id ?? '',
    schemaVersion: Number(meta.schema_version),
    cgVersion: meta.cg_version ?? '',
    indexedAt: meta.indexed_at ?? '',
    durationMs: Number(meta.duration_ms ?? 0),
    dbBytes: dbFile ? fileSize(dbFile) + fileSize(`${dbFile}-wal`) : 0,
    indexBytes: dbFile ? folderSize(path.dirname(dbFile)) : 0,
    files: {
      indexed: countRows(db, 'SELECT COUNT(*) FROM files WHERE external = 0'),
      partial: countRows(db, 'SELECT COUNT(*) FROM files WHERE partial = 1 AND external = 0'),
      invalidUtf8: countRows(db, `SELECT COUNT(*) FROM files WHERE warnings LIKE '%invalid_utf8%'`),
      byLanguage,
    },
    symbols: countRows(db, 'SELECT COUNT(*) FROM symbols'),
    external: {
      files: countRows(db, 'SELECT COUNT(*) FROM files WHERE external = 1'),
      packages: countRows(db, 'SELECT COUNT(DISTINCT package) FROM files WHERE external = 1'),
    },
    symbolsByKind: group('SELECT kind, COUNT(*) FROM symbols GROUP BY kind ORDER BY kind'),
    edges: countRows(db, 'SELECT COUNT(*) FROM edges'),
    pastCommits: { kept: pastCommits, rankerReadsThem: pastCommits >= MIN_PAST_COMMITS },
    edgesByKind: group('SELECT kind, COUNT(*) FROM edges GROUP BY kind ORDER BY kind'),
    skipped: { total: Object.values(byReason).reduce((a, b) => a + b, 0), byReason },
    excludedSecrets: secretRows(db, 'IN'),
    redactedSecrets: secretRows(db, 'NOT IN'),
    secretRules: secretRules(root),
    unsupportedFiles: Number(meta.walk_unsupported ?? 0),
    calls: callStats(db),
    imports: importStats(db),
    vectors: {
      status: meta.vectors_status ?? 'off', model: meta.vectors_model ?? '', count: Number(meta.vectors_count ?? 0),
      dims: Number(meta.vectors_dims ?? 0), quantization: meta.vectors_quantization ?? '', file: meta.vectors_file ?? '',
      delta: meta.vectors_delta ?? '',
      error: meta.vectors_error ?? '',
    },
  };
}

/** Findings of files skipped for them (IN) or indexed with them redacted (NOT IN). */
function secretRows(db: Database.Database, which: 'IN' | 'NOT IN'): SecretRow[] {
  return db.prepare(`SELECT path, rule, line, fingerprint FROM secret_findings
    WHERE path ${which} (SELECT path FROM skipped WHERE reason = 'secret') ORDER BY path, line`).all() as SecretRow[];
}

function secretRules(root: string): IndexStatus['secretRules'] {
  const set = ruleSet();
  const policy = repoPolicy(root);
  return {
    enabled: policy.enabled, mode: policy.mode, ids: set.rules.map((r) => r.id), pathOnly: set.pathOnly,
    gitleaks: { commit: set.source.commit, sha256: set.source.sha256 },
  };
}

function folderSize(dir: string): number {
  let total = 0;
  try {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) if (e.isFile()) total += fileSize(path.join(dir, e.name));
  } catch {
    // a build folder removed meanwhile (a newer build replaced it): nothing to count
  }
  return total;
}

function fileSize(p: string): number {
  try {
    return fs.statSync(p).size;
  } catch {
    return 0;
  }
}
