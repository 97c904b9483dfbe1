import { CgError, errorMessage } from '../errors.js';
import { indexRepository, type IndexResult } from '../indexer/update.js';
import type { RegistryDb } from './db.js';
import { claimJob, enqueueJob, finishJob, type Job, type JobMode } from './jobs.js';
import { projectById, setProjectStatus, type Project } from './projects.js';
import { refreshStringSites } from './crossrefs/store.js';

export interface JobOutcome {
  job: Job;
  result: IndexResult | null;
  error: string | null;
  durationMs: number;
}

/**
 * Runs one job: the project's own index is built or updated exactly as `cg index` does (its writer
 * lock keeps one writer per project, whoever else runs), then the registry records the outcome and
 * the project's string-literal references are read again for cross-project edges.
 */
export async function runJob(db: RegistryDb, job: Job): Promise<JobOutcome> {
  const started = performance.now();
  const project = projectById(db, job.projectId)!;
  setProjectStatus(db, project.id, 'indexing');
  try {
    const result = await indexRepository(project.path, { full: job.mode === 'full' });
    setProjectStatus(db, project.id, 'indexed', {
      languages: Object.keys(result.languages).sort(), commit: result.commit, symbols: result.symbols, indexedAt: Date.now(),
    });
    refreshStringSites(db, projectById(db, project.id)!);
    finishJob(db, job.id, null);
    return { job, result, error: null, durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    if (err instanceof CgError && err.code === 'index_busy') {
      // Another writer (a hook's applier, `cg update`) holds the project: it applies every pending change before it
      // lets go, so this job's work is being done. The project's state is left as that writer leaves it.
      setProjectStatus(db, project.id, project.status, { error: project.lastError });
      finishJob(db, job.id, null);
      return { job, result: null, error: null, durationMs: Math.round(performance.now() - started) };
    }
    const error = errorMessage(err);
    setProjectStatus(db, project.id, 'failed', { error });
    finishJob(db, job.id, error);
    return { job, result: null, error, durationMs: Math.round(performance.now() - started) };
  }
}

/** Queues a job for the project and runs queued jobs until none is left (CLI: `cg project add`, `reindex`). */
export async function indexNow(db: RegistryDb, project: Project, mode: JobMode): Promise<JobOutcome[]> {
  enqueueJob(db, project.id, mode);
  return drainJobs(db);
}

export async function drainJobs(db: RegistryDb, onJob: (o: JobOutcome) => void = () => {}): Promise<JobOutcome[]> {
  const out: JobOutcome[] = [];
  for (let job = claimJob(db); job; job = claimJob(db)) {
    const o = await runJob(db, job);
    out.push(o);
    onJob(o);
  }
  return out;
}
