import path from 'node:path';
import { CgError } from '../errors.js';
import { pendingRecords } from '../changes/log.js';
import fs from 'node:fs';
import { CG_DIR } from '../paths.js';
import { errorMessage } from '../errors.js';
import { applyLocked, type ApplyRun, type ApplySummary } from './apply.js';
import { buildIndex, type BuildProgress, type BuildSummary } from './build.js';
import { openReader } from '../store/db.js';
import { indexStatus } from '../store/status.js';
import { acquireWriterLock } from './lock.js';

export interface UpdateResult {
  /** One summary per round: a round repeats while records keep arriving during the previous one. */
  rounds: ApplySummary[];
  /** Another process was applying; it re-reads the log before it exits, so nothing is lost. */
  busy: boolean;
  /** How long this update waited for another process's apply to finish before its own (0: it did not wait). */
  waitedMs: number;
}

/** How often a waiting update looks at the writer lock again. */
const WAIT_POLL_MS = 100;

/**
 * `cg update`: apply pending changes until none are left. The re-check after releasing the lock
 * closes the gap in which a hook saw the lock held and did not start an applier of its own.
 *
 * When another process is applying (a hook's background applier right after `git commit`), a
 * foreground update waits up to `waitMs` for it and then applies whatever is left, so
 * `git commit && cg update` succeeds; past that it fails with index_busy (exit 6). A background
 * update never waits: the running applier re-reads the log before it exits.
 */
export async function updateIndex(root: string,
  opts: { background?: boolean; waitMs?: number; onWait?: (why: string) => void; onProgress?: (p: BuildProgress) => void } & ApplyRun = {}):
  Promise<UpdateResult> {
  const result: UpdateResult = { rounds: [], busy: false, waitedMs: 0 };
  const waitUntil = performance.now() + (opts.background ? 0 : opts.waitMs ?? 0);
  for (let round = 0; round < 100; round++) {
    let lock;
    try {
      lock = acquireWriterLock(root);
    } catch (err) {
      if (!(err instanceof CgError) || err.code !== 'index_busy') throw err;
      if (opts.background || round > 0) {
        result.busy = true;
        return result;
      }
      if (performance.now() >= waitUntil) throw err;
      if (result.waitedMs === 0) opts.onWait?.(err.message);
      const t0 = performance.now();
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      result.waitedMs += Math.round(performance.now() - t0);
      round--; // still the first round: nothing was applied yet
      continue;
    }
    let summary: ApplySummary;
    try {
      logApplier(root, 'start');
      summary = await applyLocked(root, opts.onProgress, { extraction: opts.extraction, oneShot: opts.oneShot });
      logApplier(root, `end mode=${summary.mode} generation=${summary.generation} files=${summary.resolvedFiles} ms=${summary.durationMs}`);
    } catch (err) {
      logApplier(root, `failed: ${errorMessage(err)}`);
      throw err;
    } finally {
      lock.release();
    }
    result.rounds.push(summary);
    if (pendingRecords(root, summary.checkpoint) === 0) break;
  }
  return result;
}

/**
 * `.codegraph/applier.log`: one line when an applier starts and one when it ends, with its pid, so a
 * user (or a test) can see what ran in the background and that runs never overlapped.
 */
function logApplier(root: string, what: string): void {
  const file = path.join(root, CG_DIR, 'applier.log');
  try {
    if (fs.statSync(file).size > 1_000_000) fs.renameSync(file, `${file}.1`);
  } catch {
    /* no log yet */
  }
  fs.appendFileSync(file, `${new Date().toISOString()} pid=${process.pid} ${what}\n`);
}

// Where a change is recorded and its applier started: a module of its own, which the agent's
// post-edit hook loads without the indexer.
export { recordSaves, startBackgroundApplier } from './notify.js';

export interface IndexResult extends Omit<BuildSummary, 'phasesMs' | 'vectors' | 'extraction'> {
  /** What was embedded (null when nothing was: no symbol text changed). */
  vectors: BuildSummary['vectors'] | null;
  /** full: built from scratch; incremental: only what changed was applied; none: nothing had changed. */
  mode: 'full' | 'incremental' | 'none';
  /** Why a full build happened although an index existed (configuration changed, index damaged…). */
  reason: string | null;
  phasesMs?: BuildSummary['phasesMs'];
  /** Where a full build extracted its files. */
  extraction?: BuildSummary['extraction'];
  changes?: { added: number; modified: number; deleted: number; resolvedFiles: number };
}

/**
 * `cg index`: a full build when asked (`--full`) or when there is no usable index; otherwise the
 * incremental update, reported with the same totals a full build reports.
 */
export async function indexRepository(root: string,
  opts: { full?: boolean; waitMs?: number; onWait?: (why: string) => void; onProgress?: (p: BuildProgress) => void } = {}):
  Promise<IndexResult> {
  if (opts.full || !usableIndex(root)) {
    return { ...(await buildIndex(root, opts.onProgress)), mode: 'full', reason: opts.full ? null : 'there was no usable index' };
  }
  const started = performance.now();
  const res = await updateIndex(root, { waitMs: opts.waitMs, onWait: opts.onWait, onProgress: opts.onProgress });
  const rounds = res.rounds;
  const rebuilt = rounds.find((r) => r.mode === 'rebuild');
  const changed = rounds.filter((r) => r.mode === 'incremental');
  const db = openReader(root);
  try {
    const s = indexStatus(db, root);
    return {
      mode: rebuilt ? 'full' : changed.length ? 'incremental' : 'none',
      reason: rebuilt?.reason ?? null,
      root,
      files: s.files.indexed,
      symbols: s.symbols,
      edges: s.edges,
      skipped: s.skipped.total,
      partial: s.files.partial,
      durationMs: Math.round(performance.now() - started),
      skippedByReason: s.skipped.byReason,
      languages: Object.fromEntries(Object.entries(s.files.byLanguage).map(([l, v]) => [l, { files: v.files, symbols: v.symbols, loc: v.loc }])),
      commit: rounds.at(-1)?.commit ?? null,
      buildId: s.buildId,
      calls: s.calls,
      imports: s.imports,
      vectors: [...rounds].reverse().find((r) => r.vectors)?.vectors ?? null,
      changes: {
        added: changed.reduce((n, r) => n + r.added, 0),
        modified: changed.reduce((n, r) => n + r.modified, 0),
        deleted: changed.reduce((n, r) => n + r.deleted, 0),
        resolvedFiles: changed.reduce((n, r) => n + r.resolvedFiles, 0),
      },
    };
  } finally {
    db.close();
  }
}

function usableIndex(root: string): boolean {
  try {
    openReader(root).close();
    return true;
  } catch {
    return false;
  }
}
