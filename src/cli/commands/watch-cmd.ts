import path from 'node:path';
import type { Command } from 'commander';
import { watch } from 'chokidar';
import { loadConfig, CG_DIR } from '../../config/config.js';
import { findRoot } from '../../repo/root.js';
import { recordSaves, updateIndex } from '../../indexer/update.js';
import { ensureInitialized } from '../../indexer/init.js';
import { parseIntInRange } from '../args.js';

export function registerWatch(program: Command): void {
  program
    .command('watch')
    .description('for editors without a save hook: watch the repository and apply changes as files are saved')
    .argument('[path]', 'repository (default: the one containing the current directory)')
    .option('--debounce <ms>', 'wait this long after the last change before applying (50-10000)', '300')
    .action(async (dir: string | undefined, opts: { debounce: string }) => {
      const root = findRoot(dir ?? process.cwd());
      ensureInitialized(root);
      const debounce = parseIntInRange('--debounce', opts.debounce, 50, 10_000);
      const vendor = new Set(loadConfig(root).vendorDirs);
      const pending = new Set<string>();
      let timer: NodeJS.Timeout | null = null;
      let running = Promise.resolve();
      const flush = () => {
        timer = null;
        const paths = [...pending];
        pending.clear();
        recordSaves(root, paths);
        running = running.then(async () => {
          const res = await updateIndex(root);
          const s = res.rounds.at(-1);
          if (s && s.mode !== 'none') {
            process.stderr.write(`cg watch: ${paths.length} path(s) changed; generation ${s.generation} (${s.durationMs} ms)\n`);
          }
        }).catch((err) => {
          process.stderr.write(`cg watch: ${(err as Error).message}\n`);
        });
      };
      const watcher = watch(root, {
        ignoreInitial: true,
        ignored: (p: string) => {
          const rel = path.relative(root, p).split(path.sep);
          return rel.some((seg) => seg === '.git' || seg === CG_DIR || vendor.has(seg));
        },
      });
      watcher.on('all', (_event, file) => {
        pending.add(path.relative(root, file).split(path.sep).join('/'));
        if (timer) clearTimeout(timer);
        timer = setTimeout(flush, debounce);
      });
      await new Promise<void>((resolve) => watcher.on('ready', () => resolve()));
      process.stderr.write(`cg watch: watching ${root} (Ctrl-C to stop)\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          void watcher.close().then(() => running).then(() => resolve());
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
