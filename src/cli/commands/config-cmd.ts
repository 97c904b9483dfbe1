import type { Command } from 'commander';
import { CONFIG_FILE, readConfig, type LoadedConfig } from '../../config/config.js';
import { migrateLegacyConfig, type MigrateResult } from '../../config/migrate.js';
import { emit } from '../output.js';
import { examples, repoOption, repoRoot, type RepoOptions } from '../args.js';

export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description(`the configuration in effect: ${CONFIG_FILE} at the repository root over the defaults`);
  repoOption(config.command('show', { isDefault: true })
    .description(`print the configuration in effect, every default included, and the file it came from`))
    .option('--json', 'print JSON: {file, notes, config}')
    .addHelpText('after', examples(['cg config', 'cg config show --json --repo ../other']))
    .action((opts: RepoOptions & { json?: boolean }) => {
      emit(opts, readConfig(repoRoot(opts)), renderShow);
    });
  repoOption(config.command('migrate')
    .description(`move the old .codegraph/config.json into ${CONFIG_FILE} (only the values that differ from the defaults)`))
    .option('--json', 'print JSON: {written, removed, settings}')
    .addHelpText('after', examples(['cg config migrate', `git add ${CONFIG_FILE}`]))
    .action((opts: RepoOptions & { json?: boolean }) => {
      emit(opts, migrateLegacyConfig(repoRoot(opts)), renderMigrate);
    });
}

function renderShow(r: LoadedConfig): string {
  const from = r.file ? `from ${r.file} over the defaults` : `the defaults (no ${CONFIG_FILE})`;
  return [`# Configuration in effect: ${from}`, ...r.notes.map((n) => `# note: ${n}`), JSON.stringify(r.config, null, 2)].join('\n');
}

function renderMigrate(r: MigrateResult): string {
  if (!r.removed) return 'Nothing to migrate: there is no .codegraph/config.json.';
  if (!r.written) return `Removed ${r.removed}: it held only defaults, so no ${CONFIG_FILE} is needed.`;
  return `Wrote ${r.written} with what differed from the defaults (${Object.keys(r.settings).join(', ')}) and removed ${r.removed}.\n`
    + `Commit ${CONFIG_FILE} to share it.`;
}
