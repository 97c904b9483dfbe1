import type { Command } from 'commander';
import { indexRepository, type IndexResult } from '../../indexer/update.js';
import { ensureInitialized } from '../../indexer/init.js';
import { emit, groupDigits, formatCounts, formatDuration, plural } from '../output.js';
import { progressReporter } from '../progress.js';
import { freshnessLine, openIndex } from '../repo.js';
import { examples, PATH_HELP, REPO_FLAG, REPO_HELP, repoRoot, type RepoOptions } from '../args.js';
import { DEFAULT_WAIT_SECONDS, waitNotice } from './update-cmd.js';
import { CONFIG_FILE } from '../../config/config.js';

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('create .codegraph/ (the index folder, with a .gitignore of its own) in the repository')
    .argument('[path]', PATH_HELP)
    .option(REPO_FLAG, REPO_HELP)
    .option('--json', 'print JSON')
    .addHelpText('after', examples(['cg init', 'cg init --repo ~/src/shop']))
    .action((dir: string | undefined, opts: RepoOptions & { json?: boolean }) => {
      const res = ensureInitialized(repoRoot(opts, dir));
      emit(opts, res, (r) => `${r.created ? 'Initialised' : 'Already initialised:'} ${r.dir}\n`
        + `Configuration: the defaults, until ${CONFIG_FILE} at the repository root says otherwise (\`cg config\` shows them). Next: \`cg index\`.`);
    });
}

export function registerIndex(program: Command): void {
  program
    .command('index')
    .description('index the repository: incrementally when an index exists, from scratch the first time or with --full')
    .argument('[path]', PATH_HELP)
    .option(REPO_FLAG, REPO_HELP)
    .option('--full', 'rebuild everything from scratch')
    .option('--json', 'print JSON: {mode, files, symbols, edges, skipped, durationMs, ...}')
    .option('-q, --quiet', 'no progress display')
    .addHelpText('after', examples(['cg index', 'cg index --repo ~/src/shop --full', 'cg index --json --quiet | jq .skippedByReason']))
    .action(async (dir: string | undefined, opts: RepoOptions & { full?: boolean; json?: boolean; quiet?: boolean }) => {
      const root = repoRoot(opts, dir);
      const progress = progressReporter(!opts.json && !opts.quiet);
      let summary: IndexResult;
      try {
        summary = await indexRepository(root, { full: opts.full, waitMs: DEFAULT_WAIT_SECONDS * 1000,
          onWait: opts.quiet ? undefined : waitNotice(DEFAULT_WAIT_SECONDS * 1000), onProgress: (p) => progress.update(p) });
      } finally {
        progress.done();
      }
      const { db, freshness } = openIndex(root);
      db.close();
      emit(opts, { ...summary, freshness }, (r) => `${renderSummary(r)}\n${freshnessLine(freshness)}`);
    });
}

function renderSummary(s: IndexResult): string {
  const langs = Object.entries(s.languages).map(([l, v]) => `${l} ${v.files}`).join(', ');
  const loc = Object.values(s.languages).reduce((a, v) => a + v.loc, 0);
  const c = s.changes;
  const how = s.mode === 'full' ? `Indexed${s.reason ? ` from scratch (${s.reason})` : ''}`
    : s.mode === 'none' ? 'Up to date:'
      : `Updated (${c!.added} added, ${c!.modified} modified, ${c!.deleted} removed; ${plural(c!.resolvedFiles, 'file')} re-resolved):`;
  const lines = [
    `${how} ${plural(s.files, 'file')} (${groupDigits(loc)} lines${langs ? `; ${langs}` : ''}) in ${formatDuration(s.durationMs)}`,
    `  ${plural(s.symbols, 'symbol')}, ${plural(s.edges, 'edge')}`,
  ];
  if (s.partial) lines.push(`  ${plural(s.partial, 'file')} with syntax errors (indexed partially)`);
  if (s.skipped) lines.push(`  skipped ${s.skipped}: ${formatCounts(s.skippedByReason)}`);
  if (s.skippedByReason.secret) {
    lines.push(`  ${plural(s.skippedByReason.secret, 'file')} excluded because they look like they hold credentials: see \`cg status\``);
  }
  const v = s.vectors;
  if (v?.status === 'ok') {
    lines.push(`  vectors: ${plural(v.count, 'symbol')} (${v.embedded} embedded now, ${v.fromCache} from the cache) in ${formatDuration(v.durationMs)}`);
  } else if (v?.status === 'unavailable') {
    lines.push(`  no vectors: ${v.error?.message ?? 'the embedding model is unavailable'}. Queries rank by full-text and the graph.`,
      `  ${v.error?.hint ?? ''}`);
  }
  if (!s.files) lines.push('  No source files found. Supported: Python, TypeScript/TSX, JavaScript, Go, Java, PHP, Rust, Swift.');
  return lines.join('\n');
}
