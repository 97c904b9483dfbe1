import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Piscina } from 'piscina';
import { BUILD_DIR } from '../paths.js';
import { Allowlist } from '../secrets/allowlist.js';
import { processFile, type FileJob, type ProcessOptions } from '../extract/process.js';
import { codeLanguage } from '../lang/registry.js';
import { preloadLanguages } from '../lang/loader.js';
import type { FileOutcome } from '../extract/types.js';

/**
 * With `workers` left automatic, small repositories are extracted in this thread: starting workers
 * (each loads its grammars and compiles its queries, ~0.1-0.2 s per language) costs more than sharing
 * a few hundred kilobytes of parsing saves (break-even: roughly 1.5 MB of source on 2 cores).
 */
export const IN_PROCESS_MAX_BYTES = 1_500_000;
/**
 * Below that and above this, this thread extracts beside worker threads (one per other core) that
 * take batches from the same queue: their start-up runs on a core that would otherwise idle, so
 * flask's 83 Python files and 100 documents extract in 0.8 s instead of 1.4 s.
 */
const SHARED_MIN_BYTES = 200_000;
const BATCH_BYTES = 256 * 1024;
const BATCH_FILES = 64;
/** Batches of a shared extraction: small, so the last ones end together. */
const SHARED_BATCH_BYTES = 32 * 1024;
const SHARED_BATCH_FILES = 8;
/** The compiled worker, also when this module runs from src/ under the test runner. */
const WORKER = path.join(BUILD_DIR, 'extract', 'worker.js');
/**
 * Extraction allocates many short-lived objects (trees' nodes, captures, terms), and with V8's default
 * young generation a worker of a large build spends ~10 % of its time in scavenges. From this much
 * source its workers get a larger one, which V8 grows into only when the allocation rate asks for it:
 * Go's standard library (37 MB) 29.8 -> 27.6 s wall and 49.5 -> 45.8 user CPU-s by hand, 29.3 -> 28.4 s
 * in eval/bench-full-index.mjs (alternating, medians of 3), the same peak RSS (~1.0 GB). Below it the
 * larger young generation bought nothing (Django 5.54 -> 5.57 s, hono 4.42 -> 4.51, flask 1.74 -> 1.79).
 */
const LARGE_BUILD_BYTES = 16_000_000;
const LARGE_BUILD_LIMITS = { resourceLimits: { maxYoungGenerationSizeMb: 192 } };

/** The worker options of a pool that extracts this much source. */
function workerLimits(bytes: number): { resourceLimits?: { maxYoungGenerationSizeMb: number } } {
  return bytes >= LARGE_BUILD_BYTES ? LARGE_BUILD_LIMITS : {};
}

/**
 * piscina, loaded when threads are started: an update that parses its few files in this thread never
 * needs it. Its CommonJS entry (the ESM one wraps the same), because ExtractionPool.start is synchronous.
 */
function piscina(): typeof Piscina {
  return (createRequire(import.meta.url)('piscina') as typeof import('piscina')).Piscina;
}

/**
 * Worker threads started before the files to extract are known in full: they load the grammars and
 * compile the queries of the languages named (0.1-0.8 s per language, mostly tree-sitter's query
 * analysis) on other cores while this thread does something else, e.g. a snapshot restore verifying
 * and unpacking the artifact before its catch-up. Each language gets its own threads, so two
 * languages compile side by side instead of one after the other in every thread, and each file goes
 * to a thread that has its grammar. Extraction handed such a pool runs on it whatever its size: the
 * cost that made small jobs run in this thread is already paid. The owner destroys it.
 */
export class ExtractionPool {
  private constructor(private readonly pools: Map<string, Piscina>) {}

  /** `languages`: bytes of source to extract per language id; `workers` as in the configuration (0 = one per core). */
  static start(languages: Map<string, number>, workers: number): ExtractionPool {
    const pools = new Map<string, Piscina>();
    const share = languages.size > 1 ? 1 : 0; // several languages: one thread each; one: as many as its size pays for
    for (const [language, bytes] of [...languages].sort()) {
      const threads = share || threadsFor(bytes, workers);
      const pool = new (piscina())({ filename: WORKER, minThreads: threads, maxThreads: threads, idleTimeout: 60_000 });
      // One warm-up per thread (piscina hands each to an idle thread). A warm-up that fails is not an
      // error here: extraction loads the language again and reports the failure there.
      for (let i = 0; i < threads; i++) pool.run({ warm: [language] }).catch(() => {});
      pools.set(language, pool);
    }
    return new ExtractionPool(pools);
  }

  /** A batch of one language's files, on that language's threads (another language's if none was started for it). */
  run(jobs: FileJob[], opts: ProcessOptions): Promise<FileOutcome[]> {
    const pool = this.pools.get(jobs[0].language) ?? this.pools.values().next().value!;
    return pool.run({ jobs, opts });
  }

  async destroy(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.destroy()));
  }
}

/** Threads worth starting for this much source: one per batch, at most one per core (or `workers`). */
export function threadsFor(sourceBytes: number, workers: number): number {
  const max = workers > 0 ? workers : Math.max(1, os.availableParallelism());
  return Math.max(1, Math.min(max, Math.ceil(sourceBytes / BATCH_BYTES)));
}

/**
 * Runs extraction over many files, on worker threads when that pays off (or on `started`, a pool
 * already warm), handing each batch of outcomes to `onBatch` as it completes so the caller can stream
 * them into the database.
 */
export async function extractAll(jobs: FileJob[], opts: ProcessOptions, workers: number,
  onBatch: (outcomes: FileOutcome[]) => void, started?: ExtractionPool): Promise<ExtractionMode> {
  if (started && jobs.length) {
    const byLanguage = new Map<string, FileJob[]>();
    for (const j of jobs) byLanguage.set(j.language, [...(byLanguage.get(j.language) ?? []), j]);
    await Promise.all([...byLanguage.values()].flatMap((js) => batches(js)).map(async (batch) => onBatch(await started.run(batch, opts))));
    return { mode: 'started', threads: 0 };
  }
  const threads = workers > 0 ? workers : Math.max(1, os.availableParallelism());
  const bytes = jobs.reduce((n, j) => n + j.size, 0);
  // Every grammar these files need, loaded before the first parse (see preloadLanguages).
  const languages = [...new Set(jobs.map((j) => j.language))].filter((id) => codeLanguage(id) !== null).sort();
  if (threads > 1 && workers === 0 && bytes >= SHARED_MIN_BYTES && bytes < IN_PROCESS_MAX_BYTES) {
    await extractShared(jobs, opts, languages, threads - 1, onBatch);
    return { mode: 'shared', threads: threads - 1 };
  }
  if (threads === 1 || jobs.length < 2 || (workers === 0 && bytes < IN_PROCESS_MAX_BYTES)) {
    const allow = new Allowlist(opts.allowlist);
    await preloadLanguages(languages.map((id) => codeLanguage(id)!));
    for (const job of jobs) onBatch([await processFile(job, opts, allow)]);
    return { mode: 'in-process', threads: 0 };
  }
  const dominant = mainLanguage(jobs);
  if (dominant && jobs.some((j) => j.language !== dominant)) {
    await extractSplit(jobs, opts, dominant, threads, workerLimits(bytes), onBatch);
    return { mode: 'split', threads };
  }
  const pool = new (piscina())({ filename: WORKER, minThreads: threads, maxThreads: threads, idleTimeout: 1000, ...workerLimits(bytes) });
  try {
    await Promise.all(batches(jobs).map(async (batch) => onBatch(await pool.run({ jobs: batch, opts, languages }))));
  } finally {
    await pool.destroy();
  }
  return { mode: 'threads', threads };
}

/** The code language with the most bytes among the jobs. */
function mainLanguage(jobs: FileJob[]): string | null {
  const bytes = new Map<string, number>();
  for (const j of jobs) if (codeLanguage(j.language)) bytes.set(j.language, (bytes.get(j.language) ?? 0) + j.size);
  return [...bytes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/**
 * A large extraction with files of several languages: the worker threads take the main language's
 * files only, so each compiles one grammar's queries (0.1-0.2 s apiece, per thread), and this thread,
 * which otherwise mostly waits for their batches to store, extracts the other languages' files and the
 * documents, one at a time, yielding between files. Django (Python and 21 JavaScript files, text):
 * 12.0 -> 11.5 CPU-s; Go's standard library (Go, and 1.8 MB of text, C and shell): 64 -> 61 CPU-s.
 */
async function extractSplit(jobs: FileJob[], opts: ProcessOptions, dominant: string, threads: number,
  limits: ReturnType<typeof workerLimits>, onBatch: (outcomes: FileOutcome[]) => void): Promise<void> {
  const pool = new (piscina())({ filename: WORKER, minThreads: threads, maxThreads: threads, idleTimeout: 1000, ...limits });
  const theirs = batches(jobs.filter((j) => j.language === dominant));
  const mine = jobs.filter((j) => j.language !== dominant).sort((a, b) => b.size - a.size);
  const here = async () => {
    const allow = new Allowlist(opts.allowlist);
    await preloadLanguages([...new Set(mine.map((j) => j.language))].flatMap((id) => codeLanguage(id) ?? []));
    for (const job of mine) {
      onBatch([await processFile(job, opts, allow)]);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  try {
    await Promise.all([here(), ...theirs.map(async (batch) => onBatch(await pool.run({ jobs: batch, opts, languages: [dominant] })))]);
  } finally {
    await pool.destroy();
  }
}

/**
 * Where extraction ran: in this thread, on worker threads (`threads` of them), both (`shared`: this
 * thread and `threads` workers from one queue; `split`: the workers take the main language's files,
 * this thread the rest), or on a pool started beforehand.
 */
export interface ExtractionMode {
  mode: 'in-process' | 'shared' | 'threads' | 'split' | 'started';
  threads: number;
}

/**
 * Extraction on `helpers` worker threads and this one, from one queue of batches: the workers take
 * the largest first, this thread the smallest, one file at a time, yielding between files so that a
 * worker's finished batch is stored and its next one handed over without waiting for this thread.
 */
async function extractShared(jobs: FileJob[], opts: ProcessOptions, languages: string[], helpers: number,
  onBatch: (outcomes: FileOutcome[]) => void): Promise<void> {
  const queue = batches(jobs, SHARED_BATCH_BYTES, SHARED_BATCH_FILES);
  const pool = new (piscina())({ filename: WORKER, minThreads: helpers, maxThreads: helpers, idleTimeout: 1000 });
  const onWorker = async () => {
    for (let batch = queue.shift(); batch; batch = queue.shift()) onBatch(await pool.run({ jobs: batch, opts, languages }));
  };
  const here = async () => {
    const allow = new Allowlist(opts.allowlist);
    await preloadLanguages(languages.map((id) => codeLanguage(id)!));
    for (let batch = queue.pop(); batch; batch = queue.pop()) {
      for (const job of batch) {
        onBatch([await processFile(job, opts, allow)]);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  };
  try {
    await Promise.all([here(), ...Array.from({ length: helpers }, onWorker)]);
  } finally {
    await pool.destroy();
  }
}

/** Large files first, so the last batches are short and no thread idles while one finishes. */
function batches(jobs: FileJob[], maxBytes = BATCH_BYTES, maxFiles = BATCH_FILES): FileJob[][] {
  const sorted = [...jobs].sort((a, b) => b.size - a.size);
  const out: FileJob[][] = [];
  let cur: FileJob[] = [];
  let bytes = 0;
  for (const j of sorted) {
    cur.push(j);
    bytes += j.size;
    if (bytes >= maxBytes || cur.length >= maxFiles) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
  }
  if (cur.length) out.push(cur);
  return out;
}
