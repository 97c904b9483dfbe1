import type { Command } from 'commander';
import { updateIndex, type UpdateResult } from '../../indexer/update.js';
import { emit, formatDuration, plural } from '../output.js';
import { progressReporter } from '../progress.js';
import { freshnessLine, openIndex } from '../repo.js';
import { examples, parseIntInRange, PATH_HELP, REPO_FLAG, REPO_HELP, repoRoot, type RepoOptions } from '../args.js';

/** How long a foreground update waits for another process's apply by default: a full build of a large repository. */
export const DEFAULT_WAIT_SECONDS = 600;

export function registerUpdate(program: Command): void {
  program
    .command('update')
    .description('apply pending changes (git hooks, saves, edits) to the index incrementally; builds it if there is none')
    .argument('[path]', PATH_HELP)
    .option(REPO_FLAG, REPO_HELP)
    .option('--wait <seconds>', `when another cg process is applying changes (a hook's, right after a commit), wait up to this long for it, `
      + `then apply the rest (0: fail at once with exit 6)`, String(DEFAULT_WAIT_SECONDS))
    .option('--background', 'for hooks: no output, and exit quietly if another process is applying')
    .option('-q, --quiet', 'no progress display')
    .option('--json', 'print JSON: {rounds: [{mode, added, modified, deleted, generation, ...}], busy, waitedMs}')
    .addHelpText('after', examples(['git commit -am "fix" && cg update', 'cg update --repo ~/src/shop --json', 'cg update --wait 0   # fail (exit 6) instead of waiting']))
    .action(async (dir: string | undefined, opts: RepoOptions & { wait: string; background?: boolean; quiet?: boolean; json?: boolean }) => {
      const root = repoRoot(opts, dir);
      const waitMs = parseIntInRange('--wait', opts.wait, 0, 86_400) * 1000;
      if (opts.background) {
        try {
          await updateIndex(root, { background: true, oneShot: true });
        } catch {
          // A background applier has nobody to tell; the next foreground command reports the state.
        }
        return;
      }
      const progress = progressReporter(!opts.json && !opts.quiet);
      let res: UpdateResult;
      try {
        res = await updateIndex(root, { oneShot: true, waitMs, onWait: opts.quiet ? undefined : waitNotice(waitMs), onProgress: (p) => progress.update(p) });
      } finally {
        progress.done();
      }
      const { db, freshness } = openIndex(root);
      db.close();
      emit(opts, { ...res, freshness }, (r) => `${render(r)}\n${freshnessLine(freshness)}`);
    });
}

/** One line on stderr when an update starts waiting for another process's apply (stdout stays the answer). */
export function waitNotice(waitMs: number): (why: string) => void {
  return (why) => process.stderr.write(`cg: ${why}; waiting for it to finish (up to ${Math.round(waitMs / 1000)} s, --wait changes that)\n`);
}

function render(r: UpdateResult): string {
  const lines: string[] = [];
  if (r.waitedMs >= 1000) lines.push(`Waited ${formatDuration(r.waitedMs)} for another cg process to finish applying.`);
  for (const s of r.rounds) {
    if (s.mode === 'none') lines.push(`Up to date (generation ${s.generation}).`);
    else if (s.mode === 'rebuild') lines.push(`Rebuilt the index (${s.reason}): ${plural(s.added, 'file')}, generation ${s.generation}, ${formatDuration(s.durationMs)}.`);
    else {
      lines.push(`Applied ${plural(s.records, 'change record')}: ${s.added} added, ${s.modified} modified, ${s.deleted} removed`
        + `${s.unchanged ? `, ${s.unchanged} unchanged` : ''}; generation ${s.generation}, ${formatDuration(s.durationMs)}.`);
    }
    if (s.reason && s.mode === 'incremental') lines.push(`  rescanned every file: ${s.reason}`);
    for (const p of s.problems) lines.push(`  skipped a damaged change-log record at byte ${p.offset}: ${p.detail} (every file was rescanned instead)`);
  }
  if (r.busy) lines.push('Another cg process is applying changes; it will pick up the rest.');
  return lines.join('\n');
}
