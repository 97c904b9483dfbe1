import type Database from 'better-sqlite3';
import { plural } from '../words.js';
import { CgError, errorMessage } from '../errors.js';
import { loadConfig, type Config } from '../config/config.js';
import { readLog, type LogProblem, type LogRead } from '../changes/log.js';
import { changedBetween } from '../repo/git.js';
import { pathClassifier, RULE_FILES, walkRepo, type WalkSkip } from '../repo/walk.js';
import { resolveAll } from '../resolve/resolver.js';
import { openWriter, readMeta, type Meta } from '../store/db.js';
import { loadResolveRows, patchResolveRows, resolveInputFrom, type FileResolveRows } from '../store/load.js';
import { resolveRowsCache } from './resolve-rows.js';
import { IndexWriter, SYMBOLS_PER_FILE, symbolIdBase } from '../store/writer.js';
import type { FileOutcome, IndexedOutcome } from '../extract/types.js';
import { fileHash } from '../extract/process.js';
import { buildLocked, processOptions, repoView, walkOptions, type BuildProgress } from './build.js';
import { extractAll, type ExtractionPool } from './extract-pool.js';
import { captureState, stateMeta, type RepoState } from './state.js';
import { boilerplateMetaLater, NO_BOILERPLATE } from '../retrieve/boilerplate.js';
import { addPastCommits, PAST_COMMITS, pastCommitsOf } from '../retrieve/history.js';
import { RANK_TOLERANCE, rankRowsCache, refreshRanks, type RankRefresh } from './ranks.js';
import { affectedFiles, emptyFootprint, recordAdded, recordModified, recordRemoved, supertypeFiles } from './affected.js';
import { currentDbPath } from '../store/db.js';
import { commitLogAsync, fileHistoryAsync } from '../repo/git.js';
import { pruneVectors, syncVectors, vectorsOutOfDate, type VectorSync } from './vectors.js';
import path from 'node:path';
import { languageForFile } from '../lang/registry.js';
import { baselineCompileOnly } from '../lang/loader.js';
import { optimizeNow } from '../compilers.js';
import { indexExternal } from './external.js';
import { isManifest } from '../deps/manifests.js';
import { appendAll } from '../arrays.js';

/** Above this share of the repository's files, a rebuild is cheaper than an update. */
const REBUILD_SHARE = 0.3;
const REBUILD_MIN_FILES = 200;

export interface ApplySummary {
  mode: 'none' | 'incremental' | 'rebuild';
  /** Why a rebuild was chosen, or why everything was rescanned. */
  reason: string | null;
  records: number;
  problems: LogProblem[];
  added: number;
  modified: number;
  deleted: number;
  /** Candidate paths found unchanged (a replayed record, an edit undone). */
  unchanged: number;
  /** Files re-resolved (changed files and their possible dependents). */
  resolvedFiles: number;
  generation: number;
  commit: string | null;
  /** Change-log offset the index now reflects; records after it are pending. */
  checkpoint: number;
  /** What happened to the vectors (null when nothing was re-embedded: the generation did not move). */
  vectors: VectorSync | null;
  /** How ranks were refreshed (incremental mode): every row read (cold), or the previous rows patched. */
  ranks?: RankRefresh['mode'];
  /** How the resolve input's rows were had (incremental mode): every row read (cold), or the previous rows patched. */
  resolveRows?: 'cold' | 'patched';
  /** Where an incremental update spent its time (absent for rebuilds, whose build reports its own). */
  phasesMs?: ApplyPhases;
  durationMs: number;
}

/** Milliseconds per step of an incremental update, in order. */
export interface ApplyPhases {
  plan: number;
  extract: number;
  write: number;
  resolve: number;
  ranks: number;
  embed: number;
  commit: number;
}

/** How the process running an update extracts files. */
export interface ApplyRun {
  /** Threads already started (cg watch, a restore's catch-up): extraction runs on them whatever its size. */
  extraction?: ExtractionPool;
  /** The process exits after this update (the CLI's `cg update`): a few files are parsed without V8's optimizing compiler. */
  oneShot?: boolean;
}

/**
 * Above this many symbols, an update runs with TurboFan however few files changed: re-reading and
 * re-ranking the whole graph is then most of it, and TurboFan's background compiling on the other core
 * shortens it (Go's standard library, 95k symbols: a one-file update 2.1-2.2 -> 1.7-1.8 s wall, the same
 * CPU); on Django (11.5k) it would save 0.05 s of wall for 10 % more CPU.
 */
const LARGE_REPOSITORY_SYMBOLS = 30_000;

/** Up to this many files to parse, a one-shot update compiles the grammars for a quick start (baselineCompileOnly). */
const QUICK_START_FILES = 50;

interface Plan {
  /** Paths to re-check; null means every file (a rescan). */
  paths: Set<string> | null;
  rebuild: string | null;
  rescan: string | null;
}

/**
 * Brings the live index up to date with the working tree, in one transaction that becomes the next
 * generation, then moves the change-log checkpoint in the same transaction. The caller holds the
 * writer lock. Change-log records only narrow which paths to look at: every candidate is compared
 * with the index by content hash, so replaying records, or running after a crash, converges.
 */
export async function applyLocked(root: string, onProgress: (p: BuildProgress) => void = () => {},
  run: ApplyRun = {}): Promise<ApplySummary> {
  const started = performance.now();
  const config = loadConfig(root);
  let db: Database.Database;
  try {
    db = openWriter(root);
  } catch (err) {
    // No index yet, or one this cg cannot use: build it from scratch, saying why.
    if (err instanceof CgError && ['index_missing', 'index_corrupt', 'index_incompatible'].includes(err.code)) {
      return rebuild(root, config, onProgress, started, err.code === 'index_missing' ? 'there was no index yet' : err.message);
    }
    throw err;
  }
  let closed = false;
  try {
    const meta = readMeta(db);
    const log = readLog(root, Number(meta.changelog_offset ?? 0));
    const state = captureState(root, config, Number(meta.changelog_offset ?? 0));
    state.logEnd = log.end; // records after what was read are applied next time
    const plan = planCandidates(root, meta, log, state, hasExternalFiles(db));
    const fileCount = (db.prepare('SELECT COUNT(*) FROM files WHERE external = 0').pluck().get() as number);
    // Only paths in a language cg parses are work; docs, CI files and changelogs cost nothing (ignore files
    // that change what is indexed already force a rebuild through plan.rebuild).
    const sourcePaths = plan.paths ? [...plan.paths].filter((p) => languageForFile(p)).length : 0;
    const tooMany = sourcePaths > Math.max(REBUILD_MIN_FILES, fileCount * REBUILD_SHARE) ? `${sourcePaths} changed source paths` : null;
    const rebuildReason = plan.rebuild ?? tooMany;
    if (rebuildReason) {
      db.close();
      closed = true;
      return { ...(await rebuild(root, config, onProgress, started, rebuildReason)), records: log.entries.length, problems: log.problems };
    }
    const result = await applyIncremental(root, db, config, meta, state, plan.paths, onProgress, run, started);
    const changed = result.added + result.modified + result.deleted || log.entries.length || result.vectors;
    return {
      ...result, mode: changed ? 'incremental' : 'none', reason: plan.rescan, records: log.entries.length, problems: log.problems,
      commit: state.head.kind === 'commit' ? state.head.commit : null, checkpoint: log.end,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (err) {
    // A database that turns out damaged while being read or written is rebuilt, not left broken.
    if (!closed && isCorruption(err)) {
      db.close();
      closed = true;
      return rebuild(root, config, onProgress, started, `the index was damaged (${errorMessage(err)})`);
    }
    throw err;
  } finally {
    if (!closed) db.close();
  }
}

function isCorruption(err: unknown): boolean {
  const code = (err as { code?: string })?.code ?? '';
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT');
}

async function rebuild(root: string, config: Config, onProgress: (p: BuildProgress) => void, started: number,
  reason: string): Promise<ApplySummary> {
  optimizeNow();
  const built = await buildLocked(root, config, onProgress);
  const db = openWriter(root);
  try {
    const meta = readMeta(db);
    return {
      mode: 'rebuild', reason, records: 0, problems: [], added: built.files, modified: 0, deleted: 0, unchanged: 0,
      resolvedFiles: built.files, generation: Number(meta.generation ?? 0), commit: built.commit, vectors: built.vectors,
      checkpoint: Number(meta.changelog_offset ?? 0), durationMs: Math.round(performance.now() - started),
    };
  } finally {
    db.close();
  }
}


/** Which paths may differ from the index, from git and the change log; or why to rescan or rebuild. */
function planCandidates(root: string, meta: Meta, log: LogRead, state: RepoState, externals: boolean): Plan {
  if (meta.config_hash !== state.configHash) return { paths: null, rebuild: 'the configuration or the secrets allowlist changed', rescan: null };
  const paths = new Set<string>();
  for (const e of log.entries) for (const p of e.record.paths ?? []) paths.add(p);
  const rescan = (why: string): Plan => ({ paths: null, rebuild: null, rescan: why });
  if (log.problems.length) return rescan(`${plural(log.problems.length, 'unreadable change-log record')}`);
  if (state.head.kind !== 'commit' || meta.head_state !== 'commit' || state.dirty === null) {
    return rescan('no git commit to compare with');
  }
  if (!meta.dirty_paths) return rescan('the previous working-tree state was not recorded');
  for (const p of JSON.parse(meta.dirty_paths) as string[]) paths.add(p);
  for (const p of state.dirty) paths.add(p);
  if (meta.indexed_commit !== state.head.commit) {
    const changed = changedBetween(root, meta.indexed_commit, state.head.commit);
    if (!changed) return rescan(`commit ${meta.indexed_commit.slice(0, 10)} is no longer in the repository`);
    for (const p of changed) paths.add(p);
  }
  // Ignore rules decide which files are indexed at all: every file is checked against the new ones.
  for (const p of paths) if (RULE_FILES.test(p)) return rescan(`${p} changed`);
  // A snapshot carries no excludes hash (it is this machine's): only a recorded one that differs counts.
  if (meta.excludes_hash && meta.excludes_hash !== state.excludesHash) return rescan('core.excludesFile or .git/info/exclude changed');
  // The installed dependencies follow the manifests and lockfiles: their declarations are indexed afresh.
  if (externals) for (const p of paths) if (isManifest(p)) return { paths, rebuild: `${p} changed: the installed dependencies may have too`, rescan: null };
  return { paths, rebuild: null, rescan: null };
}

interface Counts {
  added: number;
  modified: number;
  deleted: number;
  unchanged: number;
  generation: number;
  /** Files whose references were re-resolved (the changed ones and those that may depend on them). */
  resolvedFiles: number;
  vectors: VectorSync | null;
  /** How ranks were refreshed: from every row (cold) or from the previous ones with the changed files re-read (patched). */
  ranks?: RankRefresh['mode'];
  /** How the resolve rows were had: every row read (cold), or the previous ones patched. */
  resolveRows?: 'cold' | 'patched';
  phasesMs?: ApplyPhases;
}

function hasExternalFiles(db: Database.Database): boolean {
  return db.prepare('SELECT 1 FROM files WHERE external = 1 LIMIT 1').get() !== undefined;
}

/** When more than this share of files would be re-resolved, resolving all of them is as cheap. */
const FULL_RESOLVE_SHARE = 0.5;

async function applyIncremental(root: string, db: Database.Database, config: Config, meta: Meta, state: RepoState,
  candidates: Set<string> | null, onProgress: (p: BuildProgress) => void, { extraction, oneShot }: ApplyRun,
  started: number): Promise<Counts> {
  // Dependencies' declaration files are not the working tree's: no walk or change names them.
  const indexed = new Map((db.prepare('SELECT path, id, hash FROM files WHERE external = 0').raw().all() as [string, number, string][])
    .map(([path, id, hash]) => [path, { id, hash }]));
  const wopts = walkOptions(config);
  let paths: Set<string>;
  // A rescan also re-records the directories the walk leaves out, as a build does.
  let dirSkips: WalkSkip[] | null = null;
  let rescanMeta: Record<string, number> = {};
  if (candidates) paths = candidates;
  else {
    // A rescan: everything on disk (indexable or skipped) and everything indexed or recorded as skipped.
    const walk = walkRepo(root, wopts);
    paths = new Set([...walk.files.map((f) => f.path), ...walk.skipped.filter((x) => !x.isDir).map((x) => x.path), ...indexed.keys(),
      ...(db.prepare('SELECT path FROM skipped WHERE is_dir = 0').pluck().all() as string[])]);
    const dirs = walk.skipped.filter((x) => x.isDir);
    const key = (p: string, reason: string, detail: string | null | undefined) => `${p}\0${reason}\0${detail ?? ''}`;
    const recorded = new Set((db.prepare('SELECT path, reason, detail FROM skipped WHERE is_dir = 1').raw().all() as [string, string, string | null][])
      .map(([p, reason, detail]) => key(p, reason, detail)));
    if (recorded.size !== dirs.length || dirs.some((d) => !recorded.has(key(d.path, d.reason, d.detail)))) dirSkips = dirs;
    rescanMeta = { walk_unsupported: walk.unsupported };
  }

  const skippedRows = db.prepare('SELECT path, reason, detail, hash FROM skipped WHERE is_dir = 0').raw().all() as
    [string, string, string | null, string | null][];
  const skippedNow = new Map(skippedRows.map(([p, reason, detail]) => [p, `${reason}\0${detail ?? ''}`]));
  const skippedHash = new Map(skippedRows.filter((r) => r[3]).map(([p, , , hash]) => [p, hash!]));
  const jobs: { path: string; language: string; size: number }[] = [];
  const removals: string[] = [];
  const walkSkips: { path: string; reason: string; detail: string | null; language: string | null }[] = [];
  let unchanged = 0;
  const classifyPath = pathClassifier(root, wopts);
  for (const p of [...paths].sort()) {
    const cls = classifyPath(p);
    const old = indexed.get(p);
    if (cls.kind === 'file') {
      // Unchanged content, indexed or skipped for its content (a secret, generated code): nothing to do.
      const known = old?.hash ?? skippedHash.get(p);
      if (known && known === fileHash(root, p, config.maxFileBytes)) unchanged++;
      else jobs.push({ path: p, language: cls.language, size: cls.size });
    } else {
      if (old) removals.push(p);
      const recorded = skippedNow.get(p);
      if (cls.kind === 'skip') {
        if (recorded !== `${cls.reason}\0${cls.detail ?? ''}`) {
          walkSkips.push({ path: p, reason: cls.reason, detail: cls.detail ?? null, language: wopts.languageOf(p) });
        }
      } else if (recorded !== undefined) walkSkips.push({ path: p, reason: '', detail: null, language: null }); // a stale skip row
    }
  }

  const dir = path.dirname(currentDbPath(root)!);
  const generation = Number(meta.generation ?? 0) + 1;
  const writer = new IndexWriter(db);
  // The commit-message boilerplate is learnt from the history up to the indexed commit: only a moved HEAD changes
  // it. It and the new commits' file history come from git processes that run while this one extracts and writes.
  const commitMetaLater: Promise<Record<string, string>> = state.head.kind !== 'commit' ? Promise.resolve(NO_BOILERPLATE)
    : meta.indexed_commit !== state.head.commit ? boilerplateMetaLater(root, state.head.commit) : Promise.resolve({});
  // An update that fails before it awaits this reports its own error, not this one's.
  commitMetaLater.catch(() => undefined);
  const newCommits = meta.indexed_commit && state.head.kind === 'commit' && meta.indexed_commit !== state.head.commit
    ? `${meta.indexed_commit}..${state.head.commit}` : null;
  const historyLater = newCommits ? fileHistoryAsync(root, { range: newCommits }) : null;
  // The new commits' messages and files, for the "similar past commits" evidence (src/retrieve/history.ts).
  const pastLater = newCommits ? commitLogAsync(root, { rev: newCommits, max: PAST_COMMITS }) : null;
  pastLater?.catch(() => undefined);
  // The rows go beside the database for the next process only from a process that exits after this
  // update (a hook's `cg update`); a long-running applier keeps them in memory (GenerationCache.put).
  const rowFiles = { toDisk: !!oneShot };
  const nothingToParse = !jobs.length && !removals.length && !walkSkips.length && !dirSkips;
  if (nothingToParse && !vectorsOutOfDate(meta, config, dir)) {
    // Nothing to parse: the records were replays, or edits that were undone, or new commits of edits
    // already applied. Only the bookkeeping moves (checkpoint, commit) and the new commits' file
    // history; the content, and so the generation, stays, and with it the rows cached for it (in
    // this process and on disk) stay valid untouched: reading and rewriting them cost an update with
    // nothing to do ~30 ms on hono.
    const commitMeta = await commitMetaLater;
    const history = historyLater ? addHistory(db, await historyLater) : null;
    const past = pastLater ? pastCommitsOf(await pastLater) : [];
    db.transaction(() => {
      if (history) writer.setHistory(history);
      addPastCommits(db, past);
      writer.setMeta({ ...stateMeta(state), ...commitMeta, indexed_at: new Date().toISOString() });
    })();
    return { added: 0, modified: 0, deleted: 0, unchanged, generation: Number(meta.generation ?? 0), resolvedFiles: 0, vectors: null };
  }
  // The rank graphs' rows as this process left them at the live generation, if it wrote that one.
  const previousRanks = rankRowsCache.take(db.name, meta.build_id, Number(meta.generation ?? 0));
  const previousResolveRows = resolveRowsCache.take(db.name, meta.build_id, Number(meta.generation ?? 0));
  if (nothingToParse) {
    // Only the embedding model (or its availability, or the vector file's format) changed: a generation with new vectors, same rows.
    const commitMeta = await commitMetaLater;
    const vectors = await inTransaction(db, async () => {
      if (historyLater) writer.setHistory(addHistory(db, await historyLater));
      if (pastLater) addPastCommits(db, pastCommitsOf(await pastLater));
      const v = await syncVectors(db, dir, config, generation, meta, null);
      writer.setMeta({ ...stateMeta(state), ...commitMeta, generation, indexed_at: new Date().toISOString(), ...v.meta });
      return v;
    });
    pruneVectors(dir, vectors.meta, meta);
    // Rows and ranks did not move.
    if (previousRanks) rankRowsCache.put(db.name, meta.build_id, generation, previousRanks, rowFiles);
    if (previousResolveRows) resolveRowsCache.put(db.name, meta.build_id, generation, previousResolveRows, rowFiles);
    return { added: 0, modified: 0, deleted: 0, unchanged, generation, resolvedFiles: 0, vectors: vectors.summary };
  }
  const phasesMs: ApplyPhases = { plan: 0, extract: 0, write: 0, resolve: 0, ranks: 0, embed: 0, commit: 0 };
  let mark = started;
  const lap = (phase: keyof ApplyPhases) => {
    const now = performance.now();
    phasesMs[phase] = Math.round(now - mark);
    mark = now;
  };
  lap('plan');
  const outcomes: FileOutcome[] = [];
  onProgress({ phase: 'parse', done: 0, total: jobs.length });
  if (oneShot && !extraction && jobs.length <= QUICK_START_FILES) baselineCompileOnly();
  // A `cg update` process starts with TurboFan off (src/compilers.ts); many files to parse need it, and
  // so do a large repository's passes over every file's resolve and rank rows, whatever changed.
  if (jobs.length > QUICK_START_FILES || (db.prepare('SELECT COUNT(*) FROM symbols').pluck().get() as number) > LARGE_REPOSITORY_SYMBOLS) {
    optimizeNow();
  }
  await extractAll(jobs, processOptions(root, config), config.workers, (batch) => {
    appendAll(outcomes, batch);
    onProgress({ phase: 'parse', done: outcomes.length, total: jobs.length });
  }, extraction);
  outcomes.sort((a, b) => (a.path < b.path ? -1 : 1));
  lap('extract');

  const counts: Counts = { added: 0, modified: 0, deleted: removals.length, unchanged, generation, resolvedFiles: 0, vectors: null };
  let ranks: RankRefresh | null = null;
  let resolveRows: Map<number, FileResolveRows> | null = null;
  onProgress({ phase: 'write', done: 0, total: 1 });
  // One transaction for the rows, the embeddings and the meta of the new generation; it stays open
  // across the (only) await, embedding, which needs the new symbol rows. The writer lock keeps other
  // writers out, and readers keep reading the previous generation meanwhile.
  const vectors = await inTransaction(db, async () => {
    let nextFileId = (db.prepare('SELECT COALESCE(MAX(id), 0) FROM files').pluck().get() as number) + 1;
    // What other files could see change: definitions and imports added, removed or altered.
    const footprint = emptyFootprint();
    const changedIds: number[] = [];
    const modifiedIds: number[] = [];
    const history = keptHistory(db, outcomes.map((o) => o.path));
    for (const p of removals) {
      recordRemoved(db, indexed.get(p)!.id, p, footprint);
      writer.removeFile(indexed.get(p)!.id, p);
    }
    for (const s of walkSkips) {
      writer.forgetPath(s.path);
      if (s.reason) writer.addSkipped(s.path, s.reason, s.detail, false, s.language);
    }
    if (dirSkips) {
      db.prepare('DELETE FROM skipped WHERE is_dir = 1').run();
      for (const d of dirSkips) writer.addSkipped(d.path, d.reason, d.detail ?? null, true, null);
    }
    for (const o of outcomes) {
      const old = indexed.get(o.path);
      if (o.status === 'indexed' && o.extract.symbols.length < SYMBOLS_PER_FILE) {
        const fileId = old?.id ?? nextFileId++;
        const ids = old ? keptIds(db, old.id, o) : undefined;
        if (old) {
          recordModified(db, old.id, o.extract, footprint);
          modifiedIds.push(old.id);
        } else recordAdded(o.extract, footprint);
        if (old) writer.replaceFile(o, fileId, o.path, ids);
        else {
          writer.forgetPath(o.path);
          writer.addFile(o, fileId, ids);
        }
        changedIds.push(fileId);
        if (old) counts.modified++;
        else counts.added++;
      } else {
        if (old) {
          recordRemoved(db, old.id, o.path, footprint);
          writer.removeFile(old.id, o.path);
          counts.deleted++;
        } else writer.forgetPath(o.path);
        if (o.status === 'skipped') writer.addSkippedOutcome(o);
        else writer.addSkipped(o.path, 'too_many_symbols', `${o.extract.symbols.length} symbols`, false, o.extract.language);
      }
    }
    writer.setHistory(history);
    if (historyLater) writer.setHistory(addHistory(db, await historyLater));
    if (pastLater) addPastCommits(db, pastCommitsOf(await pastLater));
    if (config.externals.enabled && changedIds.length) {
      // New imports may name dependencies not indexed yet: only those are added.
      const files = new Set(db.prepare('SELECT path FROM files').pluck().all() as string[]);
      const ext = await indexExternal(root, db, writer, config, repoView(root, files), nextFileId, changedIds, extraction);
      nextFileId += ext.added.length;
      appendAll(changedIds, ext.added);
    }
    writer.flushPostings();
    lap('write');
    onProgress({ phase: 'resolve', done: 0, total: 1 });
    const paths = db.prepare('SELECT path FROM files').pluck().all() as string[];
    const view = repoView(root, new Set(paths));
    let only: Set<number> | undefined = affectedFiles(db, changedIds, footprint);
    if (only.size > paths.length * FULL_RESOLVE_SHARE) only = undefined;
    // The previous generation's resolve rows with the rewritten files read again, when this process has them.
    resolveRows = previousResolveRows ? patchResolveRows(db, previousResolveRows, writer.touchedFiles().rows) : loadResolveRows(db);
    let resolved = resolveAll(resolveInputFrom(db, resolveRows, only), view);
    if (only) {
      // Changed supertypes alter the lookups on their types and subtypes: those files are resolved too.
      const more = [...supertypeFiles(db, footprint, only, modifiedIds, resolved.edges, resolved.supers)].filter((f) => !only!.has(f));
      if (more.length) {
        for (const f of more) only.add(f);
        if (only.size > paths.length * FULL_RESOLVE_SHARE) only = undefined;
        resolved = resolveAll(resolveInputFrom(db, resolveRows, only), view);
      }
    }
    writer.replaceResolvedEdges(resolved.edges, only ?? null);
    writer.setResolutions(resolved.refs, resolved.imports);
    lap('resolve');
    ranks = refreshRanks(db, writer, previousRanks, { tolerance: RANK_TOLERANCE });
    lap('ranks');
    counts.resolvedFiles = only ? only.size : paths.length;
    onProgress({ phase: 'embed', done: 0, total: 1 });
    const v = await syncVectors(db, dir, config, generation, meta, changedIds);
    writer.setMeta({ ...stateMeta(state), ...(await commitMetaLater), generation, indexed_at: new Date().toISOString(), ...v.meta, ...rescanMeta });
    lap('embed');
    return v;
  });
  lap('commit');
  counts.phasesMs = phasesMs;
  // Committed: the next update in this process may patch these rows instead of reading them all.
  rankRowsCache.put(db.name, meta.build_id, generation, ranks!.rows, rowFiles);
  resolveRowsCache.put(db.name, meta.build_id, generation, resolveRows!, rowFiles);
  pruneVectors(dir, vectors.meta, meta);
  counts.vectors = vectors.summary;
  counts.ranks = ranks!.mode;
  counts.resolveRows = previousResolveRows ? 'patched' : 'cold';
  return counts;
}

/**
 * Runs `body` in one write transaction that may span awaits (better-sqlite3's transaction() is
 * synchronous). Nested db.transaction() calls inside become savepoints. Rolled back on any error.
 */
async function inTransaction<T>(db: Database.Database, body: () => Promise<T>): Promise<T> {
  db.exec('BEGIN IMMEDIATE');
  try {
    const out = await body();
    db.exec('COMMIT');
    return out;
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/** The history columns of files about to be rewritten, to put back after their rows are replaced. */
function keptHistory(db: Database.Database, paths: string[]): Map<string, { last: number | null; commits: number }> {
  const rows = db.prepare('SELECT path, last_commit, commits FROM files WHERE path IN (SELECT value FROM json_each(?))').raw()
    .all(JSON.stringify(paths)) as [string, number | null, number][];
  return new Map(rows.map(([p, last, commits]) => [p, { last, commits }]));
}

/** Commits new since the last update, added to each file's history. */
function addHistory(db: Database.Database, added: Map<string, { last: number; commits: number }>):
  Map<string, { last: number | null; commits: number }> {
  const current = keptHistory(db, [...added.keys()]);
  const out = new Map<string, { last: number | null; commits: number }>();
  for (const [p, h] of added) {
    const c = current.get(p);
    if (c) out.set(p, { last: Math.max(c.last ?? 0, h.last), commits: c.commits + h.commits });
  }
  return out;
}

/**
 * Ids for a changed file's new symbols: a symbol with the same kind and qualified name as before
 * (the n-th of that name, for overloads) keeps its id, so what is attached to it survives the edit;
 * new symbols get unused ids of the file. Null when the file's id space is exhausted (renumber).
 */
function keptIds(db: Database.Database, fileId: number, o: IndexedOutcome): number[] | undefined {
  const old = db.prepare('SELECT id, kind, qualified_name FROM symbols WHERE file_id = ? ORDER BY id').raw().all(fileId) as
    [number, string, string][];
  const byKey = new Map<string, number[]>();
  for (const [id, kind, qn] of old) {
    const k = `${kind}\0${qn}`;
    byKey.set(k, [...(byKey.get(k) ?? []), id]);
  }
  const base = symbolIdBase(fileId);
  let next = Math.max(base - 1, ...old.map(([id]) => id)) + 1;
  const ids = o.extract.symbols.map((s) => {
    const reuse = byKey.get(`${s.kind}\0${s.qualifiedName}`)?.shift();
    return reuse ?? next++;
  });
  return next - base < SYMBOLS_PER_FILE ? ids : undefined;
}
