import type { Command } from 'commander';
import { fileOverview, type FileOverview } from '../../store/file-info.js';
import { emit, plural } from '../output.js';
import { freshnessLine, openIndexRecovering } from '../repo.js';
import { examples, REPO_FLAG, REPO_HELP } from '../args.js';

export function registerFile(program: Command): void {
  program
    .command('file')
    .description("a file's symbols (as a tree), imports (resolved to files or external modules) and exports")
    .argument('<path>', 'file path, relative to the current directory or to the repository root')
    .option(REPO_FLAG, REPO_HELP)
    .option('--json', 'print JSON: {file, language, symbols, imports, exports, freshness}')
    .addHelpText('after', examples(['cg file src/app.py', 'cg file app.py --repo ~/src/shop --json']))
    .action(async (p: string, opts: { repo?: string; json?: boolean }) => {
      const { root, db, freshness } = await openIndexRecovering(opts.repo);
      try {
        emit(opts, { ...fileOverview(db, root, p), freshness }, (r) => `${render(r)}\n${freshnessLine(freshness)}`);
      } finally {
        db.close();
      }
    });
}

function render(f: FileOverview): string {
  const out = [`${f.file}  ${f.language}, ${f.loc} lines${f.partial ? `, PARTIAL: ${plural(f.errorCount, 'syntax error region')}` : ''}${f.isTest ? ', test file' : ''}`];
  out.push(`Imports (${f.imports.length}):`);
  for (const i of f.imports) {
    const names = i.names.length ? ` {${i.names.map((n) => (n.alias ? `${n.name} as ${n.alias}` : n.name)).join(', ')}}` : '';
    const where = i.resolved.length ? ` -> ${[...new Set(i.resolved.map((r) => r.file))].join(', ')}` : i.external ? ' (external)' : ' (not found)';
    out.push(`  ${i.line}: ${i.module}${i.wildcard ? ' *' : ''}${names}${i.alias ? ` as ${i.alias}` : ''}${where}`);
  }
  out.push(`Exports (${f.exports.length}): ${f.exports.join(', ')}`);
  out.push(`Symbols (${f.symbols.length}):`);
  for (const s of f.symbols) out.push(`  ${'  '.repeat(s.depth)}${s.kind} ${s.name}  ${s.startLine}-${s.endLine}  ${s.signature}`);
  return out.join('\n');
}
