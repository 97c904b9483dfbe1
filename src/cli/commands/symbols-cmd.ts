import type { Command } from 'commander';
import { searchSymbols, type SymbolInfo } from '../../store/queries.js';
import { emit, plural, table } from '../output.js';
import { freshnessLine, openIndexRecovering } from '../repo.js';
import { examples, parseIntInRange, parseKind, REPO_FLAG, REPO_HELP, usageError } from '../args.js';

export function registerSymbols(program: Command): void {
  program
    .command('symbols')
    .description('find symbols by name: a substring, a glob (* ?), or a qualified name (Class.method)')
    .argument('<pattern>', 'name, substring, glob or qualified name')
    .option('--kind <kind>', 'only this kind: function, method, class, interface, struct, enum, trait, type, constant, module')
    .option('--file <glob>', 'only in files matching this glob (e.g. "src/**/*.py", "*.go")')
    .option('--limit <n>', 'at most this many results (1-1000)', '50')
    .option(REPO_FLAG, REPO_HELP)
    .option('--json', 'print JSON: {pattern, total, symbols: [...], freshness}')
    .addHelpText('after', examples(['cg symbols parse', 'cg symbols "User*" --kind class', 'cg symbols Cache.get --file "src/**/*.py" --json']))
    .action(async (pattern: string, opts: { kind?: string; file?: string; limit: string; repo?: string; json?: boolean }) => {
      if (!pattern.trim()) throw usageError('The pattern is empty', 'Give part of a name, e.g. `cg symbols parse`.');
      const limit = parseIntInRange('--limit', opts.limit, 1, 1000);
      const kind = opts.kind ? parseKind(opts.kind) : undefined;
      const { db, freshness } = await openIndexRecovering(opts.repo);
      try {
        const res = searchSymbols(db, { pattern, kind, fileGlob: opts.file, limit });
        emit(opts, { pattern, total: res.total, symbols: res.symbols, freshness },
          (r) => `${render(r.symbols, r.total, pattern)}\n${freshnessLine(freshness)}`);
      } finally {
        db.close();
      }
    });
}

function render(symbols: SymbolInfo[], total: number, pattern: string): string {
  if (!symbols.length) return `No symbols match "${pattern}".`;
  const rows = symbols.map((s) => [s.kind, s.qualifiedName, `${s.file}:${s.startLine}`, s.signature]);
  const more = total > symbols.length
    ? `\n(${plural(total - symbols.length, 'more match', 'more matches')}; raise --limit or narrow with --kind/--file)` : '';
  return table(rows) + more;
}
