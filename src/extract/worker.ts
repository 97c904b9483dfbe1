import { Allowlist } from '../secrets/allowlist.js';
import { processFile, type FileJob, type ProcessOptions } from './process.js';
import { codeLanguage, languageById } from '../lang/registry.js';
import { loadLanguage, preloadLanguages } from '../lang/loader.js';
import type { FileOutcome } from './types.js';

/** Worker-thread entry (piscina): a batch of files in, their outcomes out; or languages to load ahead of a batch. */
let allow: { data: ProcessOptions['allowlist']; list: Allowlist } | null = null;

export default async function processBatch(task: { jobs: FileJob[]; opts: ProcessOptions; languages?: string[] } | { warm: string[] }):
  Promise<FileOutcome[]> {
  if ('warm' in task) {
    for (const id of task.warm) await loadLanguage(languageById(id));
    return [];
  }
  // Each thread gets batches of every language: it loads them all before its first parse (preloadLanguages).
  if (task.languages) await preloadLanguages(task.languages.flatMap((id) => codeLanguage(id) ?? []));
  if (!allow || allow.data !== task.opts.allowlist) allow = { data: task.opts.allowlist, list: new Allowlist(task.opts.allowlist) };
  const out: FileOutcome[] = [];
  for (const job of task.jobs) out.push(await processFile(job, task.opts, allow.list));
  return out;
}
