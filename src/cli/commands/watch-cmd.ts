import path from 'node:path';
import type { Command } from 'commander';
import { watch } from 'chokidar';
import { loadConfig } from '../../config/config.js';
import { walkOptions } from '../../indexer/build.js';
import { isExcludedDir } from '../../repo/walk.js';
import { BuildOutputRule } from '../../repo/vendored.js';
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
      const wopts = walkOptions(loadConfig(root));
      const buildOutput = new BuildOutputRule(root, wopts.languageOf);
      const pending = new Set<string>();
      let timer: NodeJS.Timeout | null = null;
      let running = Promise.resolve();
      const flush = () => {
        timer = null;
        const paths = [...pending];
        pending.clear();
        if (paths.length) {
          recordSaves(root, paths);
          warm.ownAppend();
        }
        running = running.then(async () => {
          const res = await updateIndex(root);
          const s = res.rounds.at(-1);
          if (s && s.mode !== 'none') {
            const what = paths.length ? `${plural(paths.length, 'path')} changed` : `${plural(s.records, 'change record')} from the hooks`;
            process.stderr.write(`cg watch: ${what}; generation ${s.generation} (${s.durationMs} ms)\n`);
          }
        }).catch((err) => {
          process.stderr.write(`cg watch: ${(err as Error).message}\n`);
        });
      };
      // The git hooks and `cg notify` leave their records to this process instead of starting an applier
      // each (src/indexer/warm-applier.ts); a record is applied as soon as it is written.
      const warm = becomeWarmApplier(root, 'cg watch', () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(flush, 0);
      }, (line) => process.stderr.write(`${line}\n`));
      const watcher = watch(root, {
        ignoreInitial: true,
        // Directories the index leaves out (ignore rules, vendored trees) are not watched at all: in a
        // repository with node_modules or build output that is most of the tree. Files are decided by
        // the applier, which also sees deletions.
        ignored: (p: string, stats?: { isDirectory(): boolean }) => {
          const rel = path.relative(root, p).split(path.sep).join('/');
          return rel !== '' && !!stats?.isDirectory() && isExcludedDir(root, rel, wopts, buildOutput);
        },
      });
      watcher.on('all', (_event, file) => {
        pending.add(path.relative(root, file).split(path.sep).join('/'));
        if (timer) clearTimeout(timer);
        timer = setTimeout(flush, debounce);
      });
      await new Promise<void>((resolve) => watcher.on('ready', () => resolve()));
      // chokidar also lists the root's parent; count only directories inside the repository.
      const dirs = Object.keys(watcher.getWatched()).filter((d) => d === root || d.startsWith(root + path.sep)).length;
      process.stderr.write(`cg watch: watching ${root}, ${dirs} directories; ignored and vendored ones are skipped (Ctrl-C to stop)\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          warm.stop();
          void watcher.close().then(() => running).then(() => resolve());
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
