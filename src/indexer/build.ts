import fs from 'node:fs';
import type Database from 'better-sqlite3';
import path from 'node:path';
import { CG_DIR, loadConfig, type Config } from '../config/config.js';
import { languageForFile } from '../lang/registry.js';
import { documentFormatOf, maxBytesFor } from '../extract/documents/formats.js';
import type { RepoView } from '../lang/types.js';
import { walkRepo, type WalkOptions } from '../repo/walk.js';
import { resolveAll } from '../resolve/resolver.js';
import type { CallStats, ImportStats } from '../resolve/types.js';
import { callStats, importStats } from '../store/stats.js';
import { Allowlist } from '../secrets/allowlist.js';
import { readScrubbed } from '../secrets/read.js';
import { createBuild, currentDbPath, discardBuild, openReader, publishBuild, readMeta, type BuildTarget, type Meta } from '../store/db.js';
import { commitLogAsync, fileHistoryAsync } from '../repo/git.js';
import { copyEmbeddingCache } from '../vectors/cache.js';
import { BuildEmbedItems, prepareVectors, type VectorSync } from './vectors.js';
import { captureState, stateMeta } from './state.js';
import { boilerplateMetaLater, NO_BOILERPLATE } from '../retrieve/boilerplate.js';
import { PAST_COMMITS, pastCommitsOf, storePastCommits } from '../retrieve/history.js';
import { loadResolveRows, resolveInputFrom } from '../store/load.js';
import { resolveRowsCache } from './resolve-rows.js';
import { createIndexes, SCHEMA_VERSION } from '../store/schema.js';
import { IndexWriter, SYMBOLS_PER_FILE } from '../store/writer.js';
import type { FileOutcome } from '../extract/types.js';
import type { ProcessOptions } from '../extract/process.js';
import { extractAll, IN_PROCESS_MAX_BYTES, type ExtractionMode } from './extract-pool.js';
import { baselineCompileOnly } from '../lang/loader.js';
import { acquireWriterLock } from './lock.js';
import { rankRowsCache, refreshRanks, type RankRefresh } from './ranks.js';
import { ensureInitialized } from './init.js';
import { CG_VERSION } from '../version.js';
import { indexExternal } from './external.js';

export { CG_VERSION };

export type BuildPhase = 'scan' | 'parse' | 'resolve' | 'embed' | 'write';

export interface BuildProgress {
  phase: BuildPhase;
  done: number;
  total: number;
}

export interface BuildSummary {
  root: string;
  files: number;
  symbols: number;
  edges: number;
  skipped: number;
  partial: number;
  durationMs: number;
  /** Where the files were extracted (this thread, worker threads, or both). */
  extraction: ExtractionMode;
  /**
   * Wall time per phase: scan (walk), extract (parse, store rows, search postings), embed (text hashes, and the wait
   * for the vector file, built on a worker meanwhile), resolve (+ ranks and history), write (indexes, publish).
   */
  phasesMs: Record<'scan' | 'extract' | 'resolve' | 'embed' | 'write', number>;
  vectors: VectorSync;
  skippedByReason: Record<string, number>;
  languages: Record<string, { files: number; symbols: number; loc: number }>;
  commit: string | null;
  buildId: string;
  calls: Record<string, CallStats>;
  imports: Record<string, ImportStats>;
}

/**
 * A full build: walk, extract on worker threads while streaming results into a new database,
 * resolve edges over the whole repository, then publish the new database in one atomic switch.
 */
export async function buildIndex(root: string, onProgress: (p: BuildProgress) => void = () => {}): Promise<BuildSummary> {
  ensureInitialized(root);
  const config = loadConfig(root);
  const lock = acquireWriterLock(root);
  try {
    return await buildLocked(root, config, onProgress);
  } finally {
    lock.release();
  }
}

/** A full build by a caller that already holds the writer lock (`cg index`, or the applier's rebuild path). */
export async function buildLocked(root: string, config: Config, onProgress: (p: BuildProgress) => void): Promise<BuildSummary> {
  const started = performance.now();
  let build: BuildTarget | null = null;
  try {
    const phasesMs = { scan: 0, extract: 0, resolve: 0, embed: 0, write: 0 };
    let mark = performance.now();
    const lap = (phase: keyof typeof phasesMs) => {
      const now = performance.now();
      phasesMs[phase] += Math.round(now - mark);
      mark = now;
    };
    onProgress({ phase: 'scan', done: 0, total: 0 });
    const previous = previousMeta(root);
    const state = captureState(root, config, Number(previous.changelog_offset ?? 0));
    // What git has to say about the history, asked now and read when needed: git works while the files are extracted.
    const commit = state.head.kind === 'commit' ? state.head.commit : null;
    const historyLater = fileHistoryAsync(root);
    // Its terms are read as soon as git answers, while the workers extract, not on the resolve phase's path.
    const pastLater = (commit ? commitLogAsync(root, { rev: commit, max: PAST_COMMITS }) : Promise.resolve([])).then(pastCommitsOf);
    pastLater.catch(() => {}); // awaited below
    const boilerplateLater = commit ? boilerplateMetaLater(root, commit) : Promise.resolve(NO_BOILERPLATE);
    boilerplateLater.catch(() => {}); // awaited below; a build that fails first must not die of it unobserved
    const walk = walkRepo(root, walkOptions(config));
    build = createBuild(root);
    const db = build.db;
    const writer = new IndexWriter(db, true);
    const skippedByReason: Record<string, number> = {};
    const countSkip = (reason: string) => (skippedByReason[reason] = (skippedByReason[reason] ?? 0) + 1);
    db.transaction(() => {
      for (const s of walk.skipped) {
        writer.addSkipped(s.path, s.reason, s.detail ?? null, s.isDir, s.isDir ? null : languageForFile(s.path)?.id ?? documentFormatOf(s.path));
        countSkip(s.reason);
      }
    })();

    const fileIds = new Map(walk.files.map((f, i) => [f.path, i + 1]));
    const languages: BuildSummary['languages'] = {};
    let files = 0;
    let symbols = 0;
    let partial = 0;
    let done = 0;
    const embedItems = new BuildEmbedItems();
    const store = db.transaction((outcomes: FileOutcome[]) => {
      for (const o of outcomes) {
        if (o.status === 'indexed' && o.extract.symbols.length >= SYMBOLS_PER_FILE) {
          writer.addSkipped(o.path, 'too_many_symbols', `${o.extract.symbols.length} symbols`, false, o.extract.language);
          countSkip('too_many_symbols');
        } else if (o.status === 'indexed') {
          writer.addFile(o, fileIds.get(o.path)!);
          embedItems.add(fileIds.get(o.path)!, o.extract.symbols);
          const x = o.extract;
          const l = (languages[x.language] ??= { files: 0, symbols: 0, loc: 0 });
          l.files++;
          l.symbols += x.symbols.length;
          l.loc += x.loc;
          files++;
          symbols += x.symbols.length;
          if (x.partial) partial++;
        } else {
          writer.addSkippedOutcome(o);
          countSkip(o.reason);
        }
      }
    });
    const jobs = walk.files.map((f) => ({ path: f.path, language: f.language, size: f.size }));
    const opts = processOptions(root, config);
    // A small repository is parsed before V8's optimizing compiler would pay for compiling the grammars'
    // lexers (1-2 s of CPU each, on the core the other extraction thread needs): flask's build 2.5 -> 2.0 s.
    if (jobs.reduce((n, j) => n + j.size, 0) < IN_PROCESS_MAX_BYTES) baselineCompileOnly();
    lap('scan');
    onProgress({ phase: 'parse', done: 0, total: jobs.length });
    const extraction = await extractAll(jobs, opts, config.workers, (outcomes) => {
      store(outcomes);
      done += outcomes.length;
      onProgress({ phase: 'parse', done, total: jobs.length });
    });

    if (config.externals.enabled) {
      // Dependencies' declarations, after the repository's files (their imports say which are needed).
      await indexExternal(root, db, writer, config, repoView(root, new Set(fileIds.keys())), walk.files.length + 1, null);
    }
    lap('extract');
    // Vectors before the postings and the edges: they need only the symbols, and the vector file is
    // built on a worker thread (prepareVectors' background) while this thread writes the postings and resolves.
    onProgress({ phase: 'embed', done: 0, total: 1 });
    const generation = Number(previous.generation ?? 0) + 1;
    // The previous build's cached vectors: a rebuild embeds only texts it has not seen.
    const previousDb = currentDbPath(root);
    if (previousDb && fs.existsSync(previousDb)) {
      try {
        copyEmbeddingCache(db, previousDb);
      } catch {
        // A damaged or foreign previous index (often why this rebuild runs): embed from scratch instead.
      }
    }
    db.exec('BEGIN');
    const pendingVectors = await prepareVectors(db, build.dir, config, generation, {}, null, { background: true, items: embedItems });
    db.exec('COMMIT');
    lap('embed');
    // Each term's postings written once, now that every file's terms are in.
    db.transaction(() => writer.flushPostings())();
    lap('extract');
    onProgress({ phase: 'resolve', done: 0, total: 1 });
    const resolveRows = loadResolveRows(db);
    const allPaths = new Set(db.prepare('SELECT path FROM files').pluck().all() as string[]);
    const resolved = resolveAll(resolveInputFrom(db, resolveRows), repoView(root, allPaths));
    let ranks: RankRefresh | null = null;
    const history = await historyLater;
    const past = await pastLater;
    db.transaction(() => {
      writer.addEdges(resolved.edges);
      writer.setResolutions(resolved.refs, resolved.imports, { fresh: true });
      ranks = refreshRanks(db, writer);
      writer.setHistory(history);
      storePastCommits(db, past);
    })();
    createIndexes(db);
    lap('resolve');
    const vectors = await pendingVectors.finish();
    lap('embed');
    onProgress({ phase: 'write', done: 0, total: 1 });
    const edges = (db.prepare('SELECT COUNT(*) AS n FROM edges').get() as { n: number }).n;
    const stats = { calls: callStats(db), imports: importStats(db) };
    writer.setMeta({
      ...stateMeta(state),
      ...(await boilerplateLater),
      schema_version: SCHEMA_VERSION,
      cg_version: CG_VERSION,
      generation,
      build_id: build.id,
      ...vectors.meta,
      indexed_at: new Date().toISOString(),
      duration_ms: Math.round(performance.now() - started),
      walk_unsupported: walk.unsupported,
    });
    db.pragma('optimize');
    compactIfSparse(db);
    publishBuild(root, build);
    // An applier in this process (cg watch) patches these rank rows on its next update.
    rankRowsCache.put(db.name, build.id, generation, ranks!.rows);
    resolveRowsCache.put(db.name, build.id, generation, resolveRows);
    lap('write');
    const durationMs = Math.round(performance.now() - started);
    return {
      root, files, symbols, edges, partial, durationMs, extraction, phasesMs, commit, buildId: build.id, languages, skippedByReason, vectors: vectors.summary,
      skipped: Object.values(skippedByReason).reduce((a, b) => a + b, 0),
      ...stats,
    };
  } catch (err) {
    if (build) discardBuild(build);
    throw err;
  }
}

export function walkOptions(config: Config): WalkOptions {
  return {
    maxFileBytes: config.maxFileBytes,
    vendorDirs: config.vendorDirs,
    exclude: config.exclude,
    // Documents (Markdown, YAML, JSON, PDF, text, .env) are indexed beside code, their format as their language.
    languageOf: (name) => languageForFile(name)?.id ?? documentFormatOf(name),
    maxBytesOf: (language) => maxBytesFor(language, config.maxFileBytes),
  };
}

export function processOptions(root: string, config: Config): ProcessOptions {
  return {
    root,
    maxFileBytes: config.maxFileBytes,
    secretsEnabled: config.secrets.enabled,
    secretsMode: config.secrets.mode,
    allowlist: Allowlist.load(root, config.secrets.allowlistFile).data,
  };
}

/** The live index's meta, to carry the generation and change-log position forward; empty if none is usable. */
function previousMeta(root: string): Meta {
  try {
    const db = openReader(root);
    try {
      return readMeta(db);
    } finally {
      db.close();
    }
  } catch {
    return {};
  }
}

/** Module manifests (go.mod, package.json, Cargo.toml) larger than this are not read. */
const MAX_MANIFEST_BYTES = 4_000_000;

/** Import resolvers read configuration files (go.mod, composer.json) through this, inside the root only. */
export function repoView(root: string, files: Set<string>): RepoView {
  return {
    root,
    files,
    readText(rel: string) {
      const abs = path.resolve(root, rel);
      if (!abs.startsWith(root + path.sep) || abs.includes(`${path.sep}${CG_DIR}${path.sep}`)) return null;
      // Through the redacting reader (a token in a package.json or Cargo.toml never reaches the index),
      // which reads as any indexed file is read: a go.mod that is a link to a file outside is not the repository's.
      return readScrubbed(root, path.relative(root, abs).split(path.sep).join('/'), MAX_MANIFEST_BYTES);
    },
  };
}

/**
 * A rebuild carries the previous build's embedding cache over and then drops the rows no symbol uses;
 * when those were many (another model, another text hashing) their pages stay in the file, free: a
 * VACUUM (about 1 s on Django's 23 MB) gives them back. A build without a previous cache has none.
 */
const SPARSE_SHARE = 0.1;

function compactIfSparse(db: Database.Database): void {
  const free = db.pragma('freelist_count', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  if (free > pages * SPARSE_SHARE) db.exec('VACUUM');
}
