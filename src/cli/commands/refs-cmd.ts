import type { Command } from 'commander';
import { symbolReferences, type RefsResult, type RefEntry } from '../../graph/refs.js';
import { emit } from '../output.js';
import { freshnessLine, openIndexRecovering } from '../repo.js';
import { examples, parseIntInRange, REPO_FLAG, REPO_HELP } from '../args.js';
import { loadConfig } from '../../config/config.js';

export function registerRefs(program: Command): void {
  program
    .command('refs')
    .description('who calls a symbol and what it calls, up to 5 levels deep, with call-site lines and confidence')
    .argument('<symbol>', 'a name, a qualified name (Class.method) or file:name (src/app.py:App.run)')
    .option('--callers', 'only callers')
    .option('--callees', 'only callees')
    .option('--both', 'callers and callees (the default)')
    .option('--hierarchy', 'also subtypes (implementors, subclasses) and supertypes; for a method, what overrides it and what it overrides')
    .option('--depth <n>', 'levels to follow, 1-5', '1')
    .option('--file <glob>', 'pick the symbol among those in files matching this glob')
    .option(REPO_FLAG, REPO_HELP)
    .option('--json', 'print JSON: {target, callers, callees, subtypes?, supertypes?, readers?, writers?, reads?, writes?, warnings, freshness}')
    .addHelpText('after', examples(['cg refs parse_config', 'cg refs App.run --callers --depth 3', 'cg refs src/app.py:App.run --hierarchy --json']))
    .action(async (ref: string, opts: { callers?: boolean; callees?: boolean; both?: boolean; hierarchy?: boolean; depth: string; file?: string;
      repo?: string; json?: boolean }) => {
      const depth = parseIntInRange('--depth', opts.depth, 1, 5);
      const both = opts.both || (!opts.callers && !opts.callees);
      const { root, db, freshness } = await openIndexRecovering(opts.repo);
      try {
        const res = symbolReferences(db, ref, {
          callers: both || !!opts.callers, callees: both || !!opts.callees, depth, fileGlob: opts.file, hierarchy: opts.hierarchy,
          lowConfidence: loadConfig(root).warnings.lowConfidence,
        });
        emit(opts, { ...res, freshness }, (r) => `${render(r)}\n${freshnessLine(freshness)}`);
      } finally {
        db.close();
      }
    });
}

function render(r: RefsResult): string {
  const t = r.target;
  const out = [`${t.kind} ${t.qualifiedName}  ${t.file}:${t.startLine}  ${t.signature}`];
  // A hierarchy edge's line is in the subtype's file: a supertype is shown at its own definition.
  const section = (title: string, list: RefEntry[] | undefined, atDefinition = false) => {
    if (!list) return;
    out.push(`${title} (${list.length}):`);
    if (!list.length) out.push('  none found');
    for (const e of list) {
      const indent = '  '.repeat(e.depth);
      const how = e.relation === 'calls' || atDefinition ? '' : `  (${e.relation}${e.target ? ` ${e.target}` : ''})`;
      out.push(`${indent}${e.qualifiedName}  ${e.file}:${atDefinition ? e.startLine : e.line ?? e.startLine}  confidence ${e.confidence.toFixed(2)}${how}`);
    }
  };
  section('Callers', r.callers);
  section('Callees', r.callees);
  const method = t.kind === 'method' || t.kind === 'function';
  section(method ? 'Overridden by' : 'Subtypes', r.subtypes, true);
  section(method ? 'Overrides' : 'Supertypes', r.supertypes, true);
  // Data access is shown where there is some: most symbols hold or touch no data.
  for (const [title, list] of [['Read by', r.readers], ['Written by', r.writers], ['Reads', r.reads], ['Writes', r.writes]] as const) {
    if (list?.length) section(title, list);
  }
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}
