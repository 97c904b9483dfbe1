import fs from 'node:fs';
import path from 'node:path';
import { CgError, errorMessage } from '../errors.js';
import { recordSaves } from '../indexer/update.js';
import { becomeWarmApplier } from '../indexer/warm-applier.js';
import { ensureInitialized } from '../indexer/init.js';
import { acquireLock } from '../indexer/lock.js';
import { watchTree } from '../indexer/tree-watch.js';
import { openReader, currentDbPath } from '../store/db.js';
import { freshnessOf } from '../store/freshness.js';
import { readHead } from '../repo/head.js';
import { pendingRecords } from '../changes/log.js';
import { openRegistry, type RegistryDb } from './db.js';
import { AGENT_LOG, cgHome, HEARTBEAT_FILE } from './home.js';
import { IndexPool } from './federate.js';
import { JobRunner } from './runner.js';
import { enqueueJob, listJobs, pruneJobs, resumeInterrupted } from './jobs.js';
import { collectExpired } from './sessions.js';
import { listProjects, type Project } from './projects.js';
import { serveRegistryHttp, serveRegistryStdio, type HttpHandle, type RegistryRuntime } from './serve.js';
import type { JobOutcome } from './indexing.js';

/**
 * `cg agent` (and `cg serve --registry|--http`): the always-on persistence agent. It
 *  - resumes the jobs a killed agent left in progress, then runs queued jobs one at a time;
 *  - watches every registered project (chokidar; ignored and vendored folders are not watched),
 *    records changed paths in that project's own change log and queues an incremental job, which
 *    applies them exactly as `cg update` does (the project's writer lock keeps one writer);
 *  - writes a heartbeat file with health metrics every `heartbeatSeconds`;
 *  - serves registry-mode MCP over Streamable HTTP on 127.0.0.1 (and/or stdio).
 */
export interface AgentOptions {
  http: number | null;
  /** Watch projects and apply changes (cg agent); cg serve --http only serves. */
  watch: boolean;
  stdio?: boolean;
  debounceMs?: number;
  heartbeatSeconds?: number;
  home?: string;
  /** For tests and callers that stop the agent themselves; otherwise SIGINT/SIGTERM stop it. */
  signal?: AbortSignal;
  onReady?(info: { url: string | null }): void;
}

export interface Health {
  status: 'healthy' | 'degraded';
  pid: number;
  started_at: string;
  last_alive: string;
  projects_count: number;
  total_symbols: number;
  index_size_bytes: number;
  last_reindex: string | null;
  stale_count: number;
  stale: string[];
  indexing_failed_count: number;
  session_count: number;
  jobs: { pending: number; in_progress: number; failed: number };
  watching: number;
  http: string | null;
}

export async function serveRegistry(opts: AgentOptions): Promise<void> {
  const home = opts.home ?? cgHome();
  const db = openRegistry(home);
  const lockFile = path.join(home, opts.watch ? 'agent.lock' : `serve-${process.pid}.lock`);
  const lock = opts.watch
    ? acquireLock(`${lockFile}.db`, lockFile, (pid) => new CgError('index_busy', `A cg agent${pid !== null ? ` (pid ${pid})` : ''} is already running for ${home}`,
      'Use that one (its heartbeat is in agent.heartbeat.json), or stop it first.'))
    : null;
  const logFile = path.join(home, AGENT_LOG);
  const log = (line: string) => {
    process.stderr.write(`${line}\n`);
    try {
      fs.appendFileSync(logFile, `${new Date().toISOString()} pid=${process.pid} ${line}\n`);
    } catch {
      /* the log is a convenience */
    }
  };
  const pool = new IndexPool();
  const started = new Date().toISOString();
  const onJob = (o: JobOutcome) => {
    log(o.error ? `job ${o.job.id} ${o.job.project}: failed: ${o.error}`
      : `job ${o.job.id} ${o.job.project}: ${o.result ? `${o.result.mode}, ${o.result.files} files, ${o.result.symbols} symbols` : 'another writer applies it'} (${o.durationMs} ms)`);
  };
  const runner = new JobRunner(db, onJob);
  const watching = () => watchers.size;
  const rt: RegistryRuntime = { db, pool, kick: () => runner.kick(), log,
    health: () => health(db, { started, watching: watching(), http: http?.url ?? null }) };
  const watchers = new Map<number, ProjectWatch>();
  let http: HttpHandle | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  const stop = new AbortController();
  const stopped = new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve()));
  opts.signal?.addEventListener('abort', () => stop.abort());
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    if (opts.watch) {
      const resumed = resumeInterrupted(db);
      if (resumed) log(`resuming ${resumed} job(s) a stopped agent left in progress`);
      pruneJobs(db);
    }
    collectExpired(db);
    if (opts.http !== null) http = await serveRegistryHttp(rt, opts.http);
    const beat = () => {
      try {
        collectExpired(db);
        if (opts.watch) syncWatchers(db, watchers, opts.debounceMs ?? 1000, runner, log);
        pool.retain(new Set(listProjects(db).map((p) => p.id)));
        if (opts.watch) writeHeartbeat(home, health(db, { started, watching: watching(), http: http?.url ?? null }));
      } catch (err) {
        log(`heartbeat: ${errorMessage(err)}`);
      }
    };
    beat();
    heartbeat = setInterval(beat, (opts.heartbeatSeconds ?? 30) * 1000);
    if (opts.watch) void runner.kick();
    opts.onReady?.({ url: http?.url ?? null });
    log(`cg agent: ${opts.watch ? `watching ${watchers.size} project(s)` : 'serving'}${http ? `, MCP at ${http.url}` : ''}; registry ${home}`);
    if (opts.stdio) await Promise.race([serveRegistryStdio(rt), stopped]);
    else await stopped;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (heartbeat) clearInterval(heartbeat);
    for (const w of watchers.values()) await w.close().catch(() => undefined);
    await http?.close();
    // A job in flight finishes (a kill -9 instead is what the job queue recovers from).
    await runner.idle().catch(() => undefined);
    pool.close();
    db.close();
    lock?.release();
  }
}

/** Watchers for every registered project; new projects get one, removed ones lose theirs. */
function syncWatchers(db: RegistryDb, watchers: Map<number, ProjectWatch>, debounceMs: number, runner: JobRunner, log: (l: string) => void): void {
  const projects = listProjects(db);
  const ids = new Set(projects.map((p) => p.id));
  for (const [id, w] of watchers) {
    if (ids.has(id)) continue;
    void w.close();
    watchers.delete(id);
  }
  for (const p of projects) {
    if (watchers.has(p.id) || !fs.existsSync(p.path)) continue;
    watchers.set(p.id, watchProject(db, p, debounceMs, runner, log));
    // A project registered without indexing (or while no agent ran) gets its first job now.
    if (p.status === 'registered') {
      enqueueJob(db, p.id, 'incremental');
      void runner.kick();
    }
  }
}

/** A project's file watcher and its warm-applier announcement, stopped together. */
interface ProjectWatch {
  close(): Promise<void>;
}

function watchProject(db: RegistryDb, p: Project, debounceMs: number, runner: JobRunner, log: (l: string) => void): ProjectWatch {
  const tree = watchTree(p.path, {
    debounceMs,
    onPaths: (paths) => {
      try {
        // The project's own change log first (durable), then the job: a kill between the two loses nothing,
        // since the next job (or `cg update`) applies whatever the log holds.
        recordSaves(p.path, paths);
        warm.ownAppend();
        enqueueJob(db, p.id, 'incremental');
        void runner.kick();
      } catch (err) {
        log(`${p.name}: could not record ${paths.length} change(s): ${errorMessage(err)}`);
      }
    },
    log: (line) => log(`${p.name}: ${line}`),
  });
  // The project's git hooks leave their records to this agent (src/indexer/warm-applier.ts): each becomes
  // a job at once instead of a `cg update` process. The project is indexed by its first job anyway, so its
  // .codegraph/ (with the .gitignore that keeps it out of git) is made now.
  ensureInitialized(p.path);
  const warm = becomeWarmApplier(p.path, 'cg agent', () => {
    try {
      enqueueJob(db, p.id, 'incremental');
      void runner.kick();
    } catch (err) {
      log(`${p.name}: could not queue the hooks' change: ${errorMessage(err)}`);
    }
  }, (line) => log(`${p.name}: ${line}`), { watchesTree: true });
  return {
    async close() {
      warm.stop();
      await tree.close();
    },
  };
}

/** The runbook's metrics: index size, last re-index, stale count, failures, sessions. */
export function health(db: RegistryDb, extra: { started: string; watching: number; http: string | null }): Health {
  const projects = listProjects(db);
  let bytes = 0;
  const stale: string[] = [];
  for (const p of projects) {
    try {
      const file = currentDbPath(p.path);
      if (file) bytes += fs.statSync(file).size;
      const idx = openReader(p.path);
      try {
        const f = freshnessOf(idx, readHead(p.path), (c) => pendingRecords(p.path, c));
        if (f.behindHead || f.pendingChanges > 0) stale.push(p.name);
      } finally {
        idx.close();
      }
    } catch {
      if (p.status !== 'registered') stale.push(p.name);
    }
  }
  const jobs = listJobs(db, { status: ['pending', 'in_progress', 'failed'], limit: 10_000 });
  const failed = projects.filter((p) => p.status === 'failed').length;
  return {
    status: failed ? 'degraded' : 'healthy', pid: process.pid, started_at: extra.started, last_alive: new Date().toISOString(),
    projects_count: projects.length, total_symbols: projects.reduce((n, p) => n + p.symbols, 0), index_size_bytes: bytes,
    last_reindex: projects.map((p) => p.indexedAt).filter((x): x is string => !!x).sort().at(-1) ?? null,
    stale_count: stale.length, stale, indexing_failed_count: failed,
    session_count: db.prepare('SELECT COUNT(*) FROM sessions WHERE valid_until > ?').pluck().get(Date.now()) as number,
    jobs: { pending: jobs.filter((j) => j.status === 'pending').length, in_progress: jobs.filter((j) => j.status === 'in_progress').length,
      failed: jobs.filter((j) => j.status === 'failed').length },
    watching: extra.watching, http: extra.http,
  };
}

/** Written whole (temp file, rename), so a reader never sees half a heartbeat. */
function writeHeartbeat(home: string, h: Health): void {
  const file = path.join(home, HEARTBEAT_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(h, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}
