import fs from 'node:fs';
import type { Command } from 'commander';
import { findRoot, toRepoPath } from '../../repo/root.js';
import { leadsOutside } from '../../repo/contained.js';
import { recordSaves, startBackgroundApplier, updateIndex, type UpdateResult } from '../../indexer/update.js';
import { ensureInitialized } from '../../indexer/init.js';
import { CgError } from '../../errors.js';
import { emit, formatDuration, plural } from '../output.js';
import { progressReporter } from '../progress.js';
import { freshnessLine, openIndex } from '../repo.js';
import { usageError } from '../args.js';

export function registerUpdate(program: Command): void {
  program
    .command('update')
    .description('apply pending changes (git hooks, saves, edits) to the index incrementally; builds it if there is none')
    .argument('[path]', 'repository (default: the one containing the current directory)')
    .option('--background', 'for hooks: no output, and exit quietly if another process is applying')
    .option('-q, --quiet', 'no progress display')
    .option('--json', 'print JSON: {rounds: [{mode, added, modified, deleted, generation, ...}], busy}')
    .action(async (dir: string | undefined, opts: { background?: boolean; quiet?: boolean; json?: boolean }) => {
      const root = findRoot(dir ?? process.cwd());
      if (opts.background) {
        try {
          await updateIndex(root, { background: true });
        } catch {
          // A background applier has nobody to tell; the next foreground command reports the state.
        }
        return;
      }
      const progress = progressReporter(!opts.json && !opts.quiet);
      let res: UpdateResult;
      try {
        res = await updateIndex(root, { onProgress: (p) => progress.update(p) });
      } finally {
        progress.done();
      }
      const { db, freshness } = openIndex(root);
      db.close();
      emit(opts, { ...res, freshness }, (r) => `${render(r)}\n${freshnessLine(freshness)}`);
    });
}

function render(r: UpdateResult): string {
  const lines: string[] = [];
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

export function registerNotify(program: Command): void {
  program
    .command('notify')
    .description('editor save hook: record changed paths (arguments, or one per line on stdin) and apply them in the background')
    .argument('[paths...]', 'changed files, relative to the current directory or absolute')
    .option('--no-apply', 'only record; apply later with `cg update`')
    .option('--repo <dir>', 'repository (default: the one containing the current directory)')
    .option('--json', 'print JSON: {recorded, paths, applier}')
    .action((args: string[], opts: { apply: boolean; repo?: string; json?: boolean }) => {
      const root = findRoot(opts.repo ?? process.cwd());
      let raw = args;
      if (!raw.length && !process.stdin.isTTY) raw = fs.readFileSync(0, 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
      if (!raw.length) throw usageError('No paths given', 'Pass the saved files: `cg notify src/app.py`, or one per line on stdin.');
      const paths = [...new Set(raw.map((p) => toRepoPath(root, p)))];
      const linked = paths.find((p) => leadsOutside(root, p));
      if (linked) {
        throw usageError(`${linked} is reached through a symbolic link to a path outside the repository at ${root}, so nothing was recorded`,
          'cg indexes only files inside the repository, reached without leaving it; a folder linked from elsewhere is not indexed.');
      }
      if (!fs.existsSync(`${root}/.codegraph`)) {
        throw new CgError('index_missing', `No index for ${root} yet, so nothing was recorded`, 'Run `cg index` first.');
      }
      ensureInitialized(root);
      recordSaves(root, paths);
      const applier = opts.apply ? startBackgroundApplier(root) : 'off';
      const { db, freshness } = openIndex(root);
      db.close();
      emit(opts, { recorded: paths.length, paths, applier, freshness }, (r) =>
        `Recorded ${plural(r.recorded, 'path')}${r.applier === 'started' ? '; applying in the background' : '; run `cg update` to apply'}.`
        + `\n${freshnessLine(freshness)}`);
    });
}
