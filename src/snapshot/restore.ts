import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig, type Config } from '../config/config.js';
import { CgError, errorMessage } from '../errors.js';
import { readLog } from '../changes/log.js';
import { ensureInitialized } from '../indexer/init.js';
import { acquireWriterLock } from '../indexer/lock.js';
import { configHash } from '../indexer/state.js';
import { updateIndex, type UpdateResult } from '../indexer/update.js';
import type { ApplyPhases } from '../indexer/apply.js';
import { changedBetween, commitsAhead, resolveCommit } from '../repo/git.js';
import { ExtractionPool } from '../indexer/extract-pool.js';
import { languageForFile } from '../lang/registry.js';
import { cgDir, openReader, publishBuild, readMeta, reserveBuild } from '../store/db.js';
import { createIndexes } from '../store/schema.js';
import { modelKey, modelSpecFromConfig, modelStatus } from '../vectors/model.js';
import { vectorFileName } from '../vectors/store.js';
import { SNAPSHOT_DB, writeVectors } from './canonical.js';
import { committedHint, findSnapshot, nearestTrustedSnapshot } from './catalog.js';
import { defaultSnapshotDir } from './create.js';
import { ARTIFACT_RE, configIdOf, FORMAT_ROW_VECTORS, type Manifest } from './manifest.js';
import { unpackVerified } from './verify.js';

/** A snapshot's vector file member (its manifest is `<name>.json`). */
const VECTOR_MEMBER = /^vectors-\d+\.usearch$/;

export interface RestoreOptions {
  /** An ID in the snapshot folder, a FILE, or `latest` / undefined: the nearest snapshot of the target. */
  ref?: string;
  /** The commit to restore for (default HEAD): its snapshot or its nearest ancestor's is taken. */
  forCommit?: string;
  /** The snapshot folder (default: snapshots.dir of the configuration, .codegraph/snapshots). */
  dir?: string;
  /** Bring the restored index up to date with the working tree afterwards (default true). */
  catchUp?: boolean;
}

export interface RestoreResult {
  snapshot: { id: string; file: string; commit: string; configId: string; formatVersion: number };
  /** The commit the index was restored for (HEAD unless --for-commit). */
  target: string;
  /** Commits from the snapshot's commit to the target; null when it is not an ancestor (an explicit pick). */
  behind: number | null;
  /** The generation the restored index was published as. */
  generation: number;
  buildId: string;
  /** What the catch-up through the normal incremental path did (null with catchUp: false). */
  catchUp: {
    mode: string; added: number; modified: number; deleted: number; resolvedFiles: number; generation: number; reason: string | null;
    /** Where the incremental catch-up spent its time (null when it rebuilt or had nothing to do). */
    phasesMs: ApplyPhases | null;
  } | null;
  phasesMs: { verify: number; swap: number; catchUp: number };
  durationMs: number;
}

/**
 * `cg snapshot restore`: verify every checksum, unpack beside the live index, publish the result as a
 * new generation in one atomic switch (readers see the old index or the restored one), then catch up
 * from the snapshot's commit to the working tree through the incremental applier.
 */
export async function restoreSnapshot(root: string, opts: RestoreOptions = {}): Promise<RestoreResult> {
  const started = performance.now();
  ensureInitialized(root);
  const config = loadConfig(root);
  const dir = opts.dir ?? defaultSnapshotDir(root);
  const target = resolveCommit(root, opts.forCommit ?? 'HEAD');
  if (!target) {
    throw opts.forCommit
      ? new CgError('not_found', `Commit ${opts.forCommit} is not in this repository`, 'Pass a commit this clone has (`git log` lists them), or fetch it first.')
      : new CgError('usage', `${root} has no git commit to restore a snapshot for`, 'Snapshots are of commits: commit first, or run `cg index`.');
  }
  const { file, commit } = pickFile(root, dir, target, opts.ref, config);
  const extraction = opts.catchUp === false ? null : warmCatchUp(root, config, commit);
  try {
    return await restoreFrom(root, file, target, extraction, opts.catchUp !== false, started);
  } finally {
    await extraction?.destroy();
  }
}

async function restoreFrom(root: string, file: string, target: string, extraction: ExtractionPool | null, catchUp: boolean,
  started: number): Promise<RestoreResult> {
  let mark = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = Math.round(now - mark);
    mark = now;
    return ms;
  };
  const verified = await unpackVerified(file, { root, parent: cgDir(root) });
  let generation = 0;
  let buildId = '';
  let verifyMs = 0;
  let swapMs = 0;
  try {
    const m = verified.manifest;
    if (m.formatVersion < FORMAT_ROW_VECTORS && m.members.some((x) => VECTOR_MEMBER.test(x.name))) {
      await rewriteVectors(verified.dir);
    }
    verifyMs = lap();
    const lock = acquireWriterLock(root);
    try {
      generation = liveGeneration(root) + 1;
      buildId = swapIn(root, file, verified.dir, m, generation);
    } finally {
      lock.release();
    }
    swapMs = lap();
  } finally {
    fs.rmSync(verified.dir, { recursive: true, force: true });
  }

  const caughtUp = catchUp ? summarise(await updateIndex(root, { extraction: extraction ?? undefined })) : null;
  const catchUpMs = lap();
  const m = verified.manifest;
  return {
    snapshot: { id: path.basename(file).replace(/\.tar\.gz$/, ''), file, commit: m.commit, configId: m.configId, formatVersion: m.formatVersion },
    target,
    behind: commitsAhead(root, m.commit, target),
    generation,
    buildId,
    catchUp: caughtUp,
    phasesMs: { verify: verifyMs, swap: swapMs, catchUp: catchUpMs },
    durationMs: Math.round(performance.now() - started),
  };
}

/**
 * A snapshot from before format 3 holds its vectors as a USearch HNSW file, which this cg cannot read:
 * its vector file is written again from the database (the built-in model embeds ~170k texts a second;
 * a hub model's vectors are stored in the database), under the member's name, before it is moved in.
 */
async function rewriteVectors(dir: string): Promise<void> {
  const db = new Database(path.join(dir, SNAPSHOT_DB));
  try {
    for (const name of fs.readdirSync(dir)) if (/^vectors-\d+\.usearch(\.json)?$/.test(name)) fs.rmSync(path.join(dir, name));
    await writeVectors(db, dir, readMeta(db));
  } finally {
    db.close();
  }
}

/**
 * Moves the verified members into a new build folder, records this machine's bookkeeping and publishes
 * it; returns the build id. A failure on the way removes the build folder (the live index was never
 * touched) and says what failed.
 */
function swapIn(root: string, file: string, dir: string, m: Manifest, generation: number): string {
  const build = reserveBuild(root);
  let db: Database.Database | null = null;
  try {
    fs.renameSync(path.join(dir, SNAPSHOT_DB), path.join(build.dir, SNAPSHOT_DB));
    const vectors = m.members.find((x) => VECTOR_MEMBER.test(x.name))?.name;
    const vectorsFile = vectors ? vectorFileName(generation) : '';
    if (vectors) {
      fs.renameSync(path.join(dir, vectors), path.join(build.dir, vectorsFile));
      fs.renameSync(path.join(dir, `${vectors}.json`), path.join(build.dir, `${vectorsFile}.json`));
    }
    db = new Database(path.join(build.dir, SNAPSHOT_DB));
    // This machine's bookkeeping: the generation after the live one, this build's id, and the change
    // log read up to its end (the catch-up compares the working tree with the commit, which covers it).
    const set = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    db.transaction(() => {
      set.run('generation', String(generation));
      set.run('build_id', build.id);
      set.run('changelog_offset', String(readLog(root, 0).end));
      set.run('vectors_file', vectorsFile);
    })();
    // A snapshot of format 2 or later holds no secondary index (src/snapshot/canonical.ts); one of
    // format 1 has them all, and this creates none.
    createIndexes(db);
    // Planner statistics, as a full build leaves them (they are not part of the snapshot's content).
    db.pragma('optimize=0x10002');
  } catch (err) {
    if (db?.open) db.close();
    fs.rmSync(build.dir, { recursive: true, force: true });
    if (err instanceof CgError) throw err;
    throw new CgError('io', `Restoring the snapshot ${file} failed while putting it in place: ${errorMessage(err)}`,
      'The live index was not changed. Check free disk space and that .codegraph/ is writable, then try again.');
  }
  // Outside the clean-up above: once the pointer moves, the build folder is the live index.
  publishBuild(root, { id: build.id, dir: build.dir, db });
  return build.id;
}

/** The artifact to restore, and its commit as its name gives it (a hint only: the manifest inside decides). */
function pickFile(root: string, dir: string, target: string, ref: string | undefined, config: Config): { file: string; commit: string | null } {
  if (ref && ref !== 'latest') {
    const file = findSnapshot(dir, ref);
    return { file, commit: ARTIFACT_RE.exec(path.basename(file))?.[1] ?? null };
  }
  const { picked, committed } = nearestTrustedSnapshot(root, dir, target, expectedConfigId(root, config));
  if (!picked) {
    throw new CgError('not_found', `No snapshot in ${dir} is of commit ${target.slice(0, 10)} or one of its ancestors${committed.length ? ' that cg may pick by itself' : ''}`,
      committed.length ? committedHint(committed) : 'Make one with `cg snapshot create`, pass a FILE, or run `cg index` to build from scratch.');
  }
  return { file: picked.file, commit: picked.commit };
}

/**
 * Starts the catch-up's extraction threads before the artifact is verified and unpacked, for the
 * languages of the files that differ between the snapshot's commit and HEAD, so loading grammars and
 * compiling queries (0.1-0.8 s per language) overlaps that work instead of following it. Null when
 * the commit is unknown here or no source file differs; a wrong guess costs time, never correctness.
 */
function warmCatchUp(root: string, config: Config, commit: string | null): ExtractionPool | null {
  const changed = commit && resolveCommit(root, commit) ? changedBetween(root, commit, 'HEAD') : null;
  if (!changed) return null;
  const languages = new Map<string, number>(); // bytes to parse per language
  for (const p of changed) {
    const language = languageForFile(p);
    if (!language) continue;
    try {
      languages.set(language.id, (languages.get(language.id) ?? 0) + fs.statSync(path.join(root, p)).size);
    } catch {
      /* deleted since: nothing to parse */
    }
  }
  return languages.size ? ExtractionPool.start(languages, config.workers) : null;
}

/** The config id a snapshot made here now would carry (see configIdOf). */
export function expectedConfigId(root: string, config: Config): string {
  const hash = configHash(root, config);
  if (!config.embeddings.enabled) return configIdOf({ config_hash: hash, vectors_status: 'off' });
  const spec = modelSpecFromConfig(config.embeddings);
  if (!modelStatus(spec).available) return configIdOf({ config_hash: hash, vectors_status: 'unavailable' });
  return configIdOf({ config_hash: hash, vectors_status: 'ok', vectors_model: modelKey(spec), vectors_quantization: config.embeddings.quantization });
}

function liveGeneration(root: string): number {
  try {
    const db = openReader(root);
    try {
      return Number(readMeta(db).generation ?? 0) || 0;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

function summarise(res: UpdateResult): NonNullable<RestoreResult['catchUp']> {
  const r = res.rounds;
  const last = r.at(-1);
  const rebuilt = r.find((x) => x.mode === 'rebuild');
  return {
    mode: rebuilt ? 'rebuild' : r.some((x) => x.mode === 'incremental') ? 'incremental' : 'none',
    added: r.reduce((n, x) => n + x.added, 0),
    modified: r.reduce((n, x) => n + x.modified, 0),
    deleted: r.reduce((n, x) => n + x.deleted, 0),
    resolvedFiles: r.reduce((n, x) => n + x.resolvedFiles, 0),
    generation: last?.generation ?? 0,
    reason: rebuilt?.reason ?? last?.reason ?? null,
    phasesMs: r.find((x) => x.phasesMs)?.phasesMs ?? null,
  };
}
