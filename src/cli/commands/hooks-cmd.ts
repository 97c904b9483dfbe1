import type { Command } from 'commander';
import { hooksStatus, installHooks, uninstallHooks, type HookStatus, type HooksLocation } from '../../repo/hooks.js';
import { liveWarmApplier, type WarmApplierNote } from '../../indexer/warm-applier.js';
import { emit } from '../output.js';
import { examples, PATH_HELP, REPO_FLAG, REPO_HELP, repoRoot, type RepoOptions } from '../args.js';

type Result = { location: HooksLocation; hooks: HookStatus[]; warmApplier?: WarmApplierNote | null };

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
      .option('--json', 'print JSON: {location: {dir, manager, portable}, hooks: [{hook, path, state, chained, shared, hint?}]'
        + `${name === 'status' ? ', warmApplier: {pid, command, since, watchesTree} | null' : ''}}`)
      .addHelpText('after', examples([`cg hooks ${name}`, `cg hooks ${name} --repo ~/src/shop --json`]))
      .action((dir: string | undefined, opts: RepoOptions & { json?: boolean }) => {
        emit(opts, run(repoRoot(opts, dir)), (r) => render(r, verb));
      });
  };
  add('install', 'install the hooks: existing hooks are kept and chained; husky scripts, a tracked hooks folder and lefthook '
    + 'get portable lines that do nothing where cg is not installed', installHooks, 'Installed');
  add('uninstall', 'remove the hooks, restoring exactly what was there before', uninstallHooks, 'Removed');
  // With the process that takes the hooks' records, when one runs (src/indexer/warm-applier.ts).
  add('status', 'show which hooks are installed and where; a hook removed since install is named, with how to restore it; '
    + 'and the running cg serve, watch or agent that applies their records, if any', (root) => ({ ...hooksStatus(root), warmApplier: liveWarmApplier(root) }), '');
}

const WHERE: Record<HooksLocation['manager'], string> = {
  git: '', 'hooks-path': ' (core.hooksPath)', husky: ' (husky scripts)', lefthook: ' (lefthook: a cg command in lefthook-local.yml)',
};

function render(r: Result, verb: string): string {
  const where = `${r.location.dir}${WHERE[r.location.manager]}`;
  const lines = [verb ? `${verb} cg's git hooks in ${where}.` : `Hooks: ${where}`];
  if (r.location.portable) lines.push('  These files are the team\'s: cg wrote portable lines only (they run cg-hook from PATH, or nothing).');
  for (const h of r.hooks) {
    const extra = h.chained ? ' (runs the previous hook first)' : h.shared ? ' (inside an existing script)' : '';
    lines.push(`  ${h.hook.padEnd(14)} ${h.state.replace('_', ' ')}${h.state === 'installed' ? extra : ''}`);
    if (h.hint) lines.push(`    ${h.hint}`);
  }
  if (r.warmApplier) {
    lines.push(`  Their records are applied by ${r.warmApplier.command} (pid ${r.warmApplier.pid}), warm: no process is started for them`
      + `${r.warmApplier.watchesTree ? '; it also applies what is saved in the working tree' : ''}.`);
  }
  return lines.join('\n');
}
