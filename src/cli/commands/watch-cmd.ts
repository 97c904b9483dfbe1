import type { Command } from 'commander';
import { watchTree } from '../../indexer/tree-watch.js';
import { plural } from '../output.js';
import { recordSaves, updateIndex } from '../../indexer/update.js';
import { becomeWarmApplier } from '../../indexer/warm-applier.js';
import { ensureInitialized } from '../../indexer/init.js';
import { examples, parseIntInRange, PATH_HELP, REPO_FLAG, REPO_HELP, repoRoot, type RepoOptions } from '../args.js';

export function registerWatch(program: Command): void {
  program
    .command('watch')
    .description('for editors without a save hook: watch the repository and apply changes as files are saved; '
      + 'while it runs, the git hooks leave their records to it instead of starting an applier')
    .argument('[path]', PATH_HELP)
    .option(REPO_FLAG, REPO_HELP)
    .option('--debounce <ms>', 'wait this long after the last change before applying (50-10000)', '300')
    .addHelpText('after', examples(['cg watch', 'cg watch --repo ~/src/shop --debounce 1000']))
    .action(async (dir: string | undefined, opts: RepoOptions & { debounce: string }) => {
      const root = repoRoot(opts, dir);
      ensureInitialized(root);
      const debounce = parseIntInRange('--debounce', opts.debounce, 50, 10_000);
      let running = Promise.resolve();
      // One apply queued behind the running one at most: an apply takes every record written before it starts.
      let queued = false;
      let saved = 0;
      const apply = () => {
        if (queued) return;
        queued = true;
        running = running.then(async () => {
          queued = false;
          const paths = saved;
          saved = 0;
          const res = await updateIndex(root);
          const s = res.rounds.at(-1);
          if (s && s.mode !== 'none') {
            const what = paths ? `${plural(paths, 'path')} changed` : `${plural(s.records, 'change record')} from the hooks`;
            process.stderr.write(`cg watch: ${what}; generation ${s.generation} (${s.durationMs} ms)\n`);
          }
        }).catch((err) => {
          process.stderr.write(`cg watch: ${(err as Error).message}\n`);
        });
      };
      // The git hooks and `cg notify` leave their records to this process instead of starting an applier
      // each (src/indexer/warm-applier.ts); a record is applied as soon as it is written.
      const warm = becomeWarmApplier(root, 'cg watch', apply, (line) => process.stderr.write(`${line}\n`), { watchesTree: true });
      const tree = watchTree(root, {
        debounceMs: debounce,
        onPaths: (paths) => {
          recordSaves(root, paths);
          warm.ownAppend();
          saved += paths.length;
          apply();
        },
        log: (line) => process.stderr.write(`cg watch: ${line}\n`),
      });
      const dirs = await tree.ready;
      process.stderr.write(`cg watch: watching ${root}, ${dirs} directories; ignored, vendored and build-output ones, and ones that held no indexed file, are skipped (Ctrl-C to stop)\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          warm.stop();
          void tree.close().then(() => running).then(() => resolve());
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
