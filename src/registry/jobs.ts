import type { RegistryDb } from './db.js';

/**
 * The indexing job queue (CodeMem runbook, "Crash recovery"). A job is a row before any work starts,
 * and 'in_progress' while it runs; a process killed mid-job leaves it 'in_progress', and the next agent
 * puts such jobs back to 'pending' before it takes any (resumeInterrupted). Applying a project's
 * changes is idempotent (its change log and content hashes), so running a job again is always safe.
 */
export type JobMode = 'full' | 'incremental';

export interface Job {
  id: number;
  projectId: number;
  project: string;
  mode: JobMode;
  status: 'pending' | 'in_progress' | 'completed' | 'failed';
  attempts: number;
  enqueuedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  error: string | null;
}

/** A job that failed this many times is left failed until something new is queued for its project. */
export const MAX_ATTEMPTS = 3;

/**
 * Queues a job unless one is already waiting for the project (a second change while the first waits
 * adds nothing: the job applies everything pending when it runs); a full job upgrades a waiting one.
 */
export function enqueueJob(db: RegistryDb, projectId: number, mode: JobMode): number {
  return db.transaction(() => {
    const waiting = db.prepare(`SELECT id, mode FROM indexing_jobs WHERE project_id = ? AND status = 'pending'`).get(projectId) as
      { id: number; mode: JobMode } | undefined;
    if (waiting) {
      if (mode === 'full' && waiting.mode !== 'full') db.prepare(`UPDATE indexing_jobs SET mode = 'full' WHERE id = ?`).run(waiting.id);
      return waiting.id;
    }
    return Number(db.prepare(`INSERT INTO indexing_jobs (project_id, mode, status, enqueued_at) VALUES (?, ?, 'pending', ?)`)
      .run(projectId, mode, Date.now()).lastInsertRowid);
  }).immediate();
}

/** Takes the oldest pending job (marking it in_progress), or null. Skips projects that have a job running. */
export function claimJob(db: RegistryDb): Job | null {
  return db.transaction(() => {
    const row = db.prepare(`SELECT id FROM indexing_jobs j WHERE status = 'pending'
        AND NOT EXISTS (SELECT 1 FROM indexing_jobs r WHERE r.project_id = j.project_id AND r.status = 'in_progress')
      ORDER BY id LIMIT 1`).get() as { id: number } | undefined;
    if (!row) return null;
    db.prepare(`UPDATE indexing_jobs SET status = 'in_progress', started_at = ?, attempts = attempts + 1 WHERE id = ?`).run(Date.now(), row.id);
    return jobById(db, row.id);
  }).immediate();
}

export function finishJob(db: RegistryDb, id: number, error: string | null): void {
  if (error === null) {
    db.prepare(`UPDATE indexing_jobs SET status = 'completed', completed_at = ?, error = NULL WHERE id = ?`).run(Date.now(), id);
    return;
  }
  // Retried (back to pending) until MAX_ATTEMPTS, then left failed with the error for `cg project list` and status.
  db.prepare(`UPDATE indexing_jobs SET status = CASE WHEN attempts >= ? THEN 'failed' ELSE 'pending' END,
      completed_at = ?, error = ? WHERE id = ?`).run(MAX_ATTEMPTS, Date.now(), error.slice(0, 2000), id);
}

/** At start: jobs a dead process left in_progress are pending again. Returns how many. */
export function resumeInterrupted(db: RegistryDb): number {
  return db.prepare(`UPDATE indexing_jobs SET status = 'pending' WHERE status = 'in_progress'`).run().changes;
}

/** Finished jobs older than a day are dropped: the queue is for recovery, not history (the audit log is). */
export function pruneJobs(db: RegistryDb, now = Date.now()): number {
  return db.prepare(`DELETE FROM indexing_jobs WHERE status IN ('completed', 'failed') AND completed_at < ?`).run(now - 86_400_000).changes;
}

const SELECT = `SELECT j.id, j.project_id AS projectId, p.name AS project, j.mode, j.status, j.attempts, j.enqueued_at, j.started_at,
    j.completed_at, j.error FROM indexing_jobs j JOIN projects p ON p.id = j.project_id`;

type JobRow = Omit<Job, 'enqueuedAt' | 'startedAt' | 'completedAt'> & { enqueued_at: number; started_at: number | null; completed_at: number | null };

function toJob(r: JobRow): Job {
  const iso = (t: number | null) => (t ? new Date(t).toISOString() : null);
  const { enqueued_at, started_at, completed_at, ...rest } = r;
  return { ...rest, enqueuedAt: iso(enqueued_at)!, startedAt: iso(started_at), completedAt: iso(completed_at) };
}

export function jobById(db: RegistryDb, id: number): Job | null {
  const r = db.prepare(`${SELECT} WHERE j.id = ?`).get(id) as JobRow | undefined;
  return r ? toJob(r) : null;
}

export function listJobs(db: RegistryDb, opts: { status?: Job['status'][]; limit?: number } = {}): Job[] {
  const statuses = opts.status ?? ['pending', 'in_progress', 'completed', 'failed'];
  return (db.prepare(`${SELECT} WHERE j.status IN (SELECT value FROM json_each(?)) ORDER BY j.id DESC LIMIT ?`)
    .all(JSON.stringify(statuses), opts.limit ?? 100) as JobRow[]).map(toJob);
}
