import type { Command } from 'commander';
import { hooksStatus, installHooks, uninstallHooks, type HookStatus, type HooksLocation } from '../../repo/hooks.js';
import { emit } from '../output.js';
import { examples, PATH_HELP, REPO_FLAG, REPO_HELP, repoRoot, type RepoOptions } from '../args.js';

type Result = { location: HooksLocation; hooks: HookStatus[] };

export function registerHooks(program: Command): void {
  const hooks = program
    .command('hooks')
    .description('git hooks that keep the index fresh: post-commit, post-merge, post-checkout, post-rewrite');
  const add = (name: string, description: string, run: (root: string) => Result, verb: string) => {
    hooks
      .command(name)
      .description(description)
      .argument('[path]', PATH_HELP)
      .option(REPO_FLAG, REPO_HELP)
      .option('--json', 'print JSON: {location, hooks: [{hook, path, state, chained, shared}]}')
      .addHelpText('after', examples([`cg hooks ${name}`, `cg hooks ${name} --repo ~/src/shop --json`]))
      .action((dir: string | undefined, opts: RepoOptions & { json?: boolean }) => {
        emit(opts, run(repoRoot(opts, dir)), (r) => render(r, verb));
      });
  };
  add('install', 'install the hooks (existing hooks and husky scripts are kept and chained)', installHooks, 'Installed');
  add('uninstall', 'remove the hooks, restoring exactly what was there before', uninstallHooks, 'Removed');
  add('status', 'show which hooks are installed and where', hooksStatus, '');
}

function render(r: Result, verb: string): string {
  const where = r.location.husky ? `${r.location.dir} (husky scripts)` : r.location.dir;
  const lines = [verb ? `${verb} cg's git hooks in ${where}.` : `Hooks directory: ${where}`];
  for (const h of r.hooks) {
    const extra = h.chained ? ' (runs the previous hook first)' : h.shared ? ' (inside an existing script)' : '';
    lines.push(`  ${h.hook.padEnd(14)} ${h.state.replace('_', ' ')}${h.state === 'installed' ? extra : ''}`);
  }
  if (r.hooks.some((h) => h.state === 'stale')) lines.push('Some hooks point at another cg installation: `cg hooks install` updates them.');
  return lines.join('\n');
}
