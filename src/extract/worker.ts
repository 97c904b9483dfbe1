import { Allowlist } from '../secrets/allowlist.js';
import { processFile, type FileJob, type ProcessOptions } from './process.js';
import type { FileOutcome } from './types.js';

/** Worker-thread entry (piscina): a batch of files in, their outcomes out. */
let allow: { data: ProcessOptions['allowlist']; list: Allowlist } | null = null;

export default async function processBatch(task: { jobs: FileJob[]; opts: ProcessOptions }): Promise<FileOutcome[]> {
  if (!allow || allow.data !== task.opts.allowlist) allow = { data: task.opts.allowlist, list: new Allowlist(task.opts.allowlist) };
  const out: FileOutcome[] = [];
  for (const job of task.jobs) out.push(await processFile(job, task.opts, allow.list));
  return out;
}
