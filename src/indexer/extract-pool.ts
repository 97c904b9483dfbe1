import os from 'node:os';
import path from 'node:path';
import { Piscina } from 'piscina';
import { PACKAGE_ROOT } from '../paths.js';
import { Allowlist } from '../secrets/allowlist.js';
import { processFile, type FileJob, type ProcessOptions } from '../extract/process.js';
import type { FileOutcome } from '../extract/types.js';

/**
 * With `workers` left automatic, small repositories are extracted in this thread: starting workers
 * (each loads its grammars and compiles its queries, ~0.1-0.2 s per language) costs more than sharing
 * a few hundred kilobytes of parsing saves (break-even: roughly 1.5 MB of source on 2 cores).
 */
const IN_PROCESS_MAX_BYTES = 1_500_000;
const BATCH_BYTES = 256 * 1024;
const BATCH_FILES = 64;

/**
 * Runs extraction over many files, on worker threads when that pays off, handing each batch of
 * outcomes to `onBatch` as it completes so the caller can stream them into the database.
 */
export async function extractAll(jobs: FileJob[], opts: ProcessOptions, workers: number,
  onBatch: (outcomes: FileOutcome[]) => void): Promise<void> {
  const threads = workers > 0 ? workers : Math.max(1, os.availableParallelism());
  const bytes = jobs.reduce((n, j) => n + j.size, 0);
  if (threads === 1 || jobs.length < 2 || (workers === 0 && bytes < IN_PROCESS_MAX_BYTES)) {
    const allow = new Allowlist(opts.allowlist);
    for (const job of jobs) onBatch([await processFile(job, opts, allow)]);
    return;
  }
  // The compiled worker, also when this module runs from src/ under the test runner.
  const pool = new Piscina({
    filename: path.join(PACKAGE_ROOT, 'dist', 'extract', 'worker.js'),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 1000,
  });
  try {
    await Promise.all(batches(jobs).map(async (batch) => onBatch(await pool.run({ jobs: batch, opts }))));
  } finally {
    await pool.destroy();
  }
}

/** Large files first, so the last batches are short and no thread idles while one finishes. */
function batches(jobs: FileJob[]): FileJob[][] {
  const sorted = [...jobs].sort((a, b) => b.size - a.size);
  const out: FileJob[][] = [];
  let cur: FileJob[] = [];
  let bytes = 0;
  for (const j of sorted) {
    cur.push(j);
    bytes += j.size;
    if (bytes >= BATCH_BYTES || cur.length >= BATCH_FILES) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
  }
  if (cur.length) out.push(cur);
  return out;
}
