import fs from 'node:fs';
import type { Command } from 'commander';
import { toRepoPath } from '../../repo/root.js';
import { leadsOutside } from '../../repo/contained.js';
import { recordSaves, startBackgroundApplier } from '../../indexer/notify.js';
import { ensureInitialized } from '../../indexer/init.js';
import { CgError } from '../../errors.js';
import { emit, plural } from '../output.js';
import { freshnessLine, openIndex } from '../repo.js';
import { examples, REPO_FLAG, REPO_HELP, repoRoot, usageError } from '../args.js';

// `cg notify`: a module of its own, without the indexer, because an editor runs it on every save.
export function registerNotify(program: Command): void {
  program
    .command('notify')
    .description('editor save hook: record changed paths (arguments, or one per line on stdin) and apply them in the background')
    .argument('[paths...]', 'changed files, relative to the current directory or absolute')
    .option('--no-apply', 'only record; apply later with `cg update`')
    .option(REPO_FLAG, REPO_HELP)
    .option('--json', 'print JSON: {recorded, paths, applier: started|warm|off}')
    .addHelpText('after', examples(['cg notify src/app.py', 'git diff --name-only | cg notify --no-apply']))
    .action((args: string[], opts: { apply: boolean; repo?: string; json?: boolean }) => {
      const root = repoRoot(opts);
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
        `Recorded ${plural(r.recorded, 'path')}${r.applier === 'started' ? '; applying in the background'
          : r.applier === 'warm' ? '; the running `cg serve`, `cg watch` or `cg agent` applies it' : '; run `cg update` to apply'}.`
        + `\n${freshnessLine(freshness)}`);
    });
}
