import type { Command } from 'commander';
import { complexity } from '../../analysis/complexity.js';
import { deadCode } from '../../analysis/dead-code.js';
import { cycles, type CycleLevel } from '../../analysis/cycles.js';
import { communities } from '../../analysis/communities.js';
import { coChange, COCHANGE_DEFAULTS } from '../../analysis/cochange.js';
import { ownership } from '../../analysis/owners.js';
import { fileMatcher } from '../../store/glob.js';
import { toRepoPath } from '../../repo/root.js';
import { emit, groupDigits, plural, table } from '../output.js';
import { freshnessLine, openIndex, type OpenIndex } from '../repo.js';
import { examples, parseIntInRange, usageError } from '../args.js';

interface Common { repo?: string; json?: boolean; limit: string }

/** Opens the index, runs `fn`, prints JSON or text with the freshness line, closes. */
async function withIndex<T>(opts: Common, fn: (ix: OpenIndex) => T | Promise<T>, text: (r: T) => string): Promise<void> {
  const ix = openIndex(opts.repo);
  try {
    const res = await fn(ix);
    emit(opts, { ...res, freshness: ix.freshness }, (r) => `${text(r)}\n${freshnessLine(ix.freshness)}`);
  } finally {
    ix.db.close();
  }
}

function common(cmd: Command, json: string): Command {
  return cmd
    .option('--limit <n>', 'at most this many entries in the text output (JSON has all)', '40')
    .option('--repo <dir>', 'repository (default: the one containing the current directory)')
    .option('--json', `print JSON: ${json}`);
}

const more = (shown: number, total: number) => (total > shown ? `\n(${total - shown} more: raise --limit or use --json)` : '');

export function registerAnalyze(program: Command): void {
  const analyze = program.command('analyze')
    .description('whole-repository analyses over the index: dead-code, cycles, communities, co-change, complexity, owners (also MCP tools, toolset "analysis")');

  common(analyze.command('dead-code').description('definitions nothing refers to: not exported, not an entry point, test or decorated; high confidence = the name is written nowhere else'),
    '{dead: [{symbol, kind, file, startLine, endLine, confidence, mentions, reason}], definitions, byConfidence, filesScanned}')
    .option('--uncertain', 'also report definitions whose name is written elsewhere in the repository (confidence medium)')
    .option('--include-exported', 'also exported definitions and public members of exported types (an application, whose API nobody else calls)')
    .option('--file <glob>', 'only definitions in files matching this glob')
    .addHelpText('after', examples(['cg analyze dead-code', 'cg analyze dead-code --uncertain --file \'src/**\' --json']))
    .action((opts: Common & { uncertain?: boolean; includeExported?: boolean; file?: string }) => {
      const limit = parseIntInRange('--limit', opts.limit, 1, 100_000);
      return withIndex(opts, ({ db, root }) => deadCode(db, root, { includeMedium: opts.uncertain, includeExported: opts.includeExported,
        fileGlob: opts.file ? fileMatcher(opts.file) : undefined }), (r) => [
        `${plural(r.dead.length, 'definition')} with no reference (of ${groupDigits(r.definitions)}; high confidence ${r.byConfidence.high}, medium ${r.byConfidence.medium}${opts.uncertain ? '' : ': --uncertain shows those'})`,
        table(r.dead.slice(0, limit).map((d) => [`${d.file}:${d.startLine}`, d.kind, d.symbol, d.confidence === 'high' ? '' : `named ${d.mentions}x elsewhere`])),
      ].join('\n') + more(limit, r.dead.length));
    });

  common(analyze.command('cycles').description('dependency cycles: files importing each other in a loop, or (--level symbol) functions calling each other'),
    '{level, kinds, cycles: [{members, size, loop}], nodes, edges}')
    .option('--level <level>', 'file or symbol', 'file')
    .option('--edges <kinds>', 'edge kinds to follow, comma-separated (default: imports for files, calls for symbols)')
    .addHelpText('after', examples(['cg analyze cycles', 'cg analyze cycles --level symbol --json']))
    .action((opts: Common & { level: string; edges?: string }) => {
      const limit = parseIntInRange('--limit', opts.limit, 1, 100_000);
      if (opts.level !== 'file' && opts.level !== 'symbol') throw usageError(`Unknown --level "${opts.level}"`, 'Use file or symbol.');
      const kinds = opts.edges?.split(',').map((k) => k.trim()).filter(Boolean);
      return withIndex(opts, ({ db }) => cycles(db, opts.level as CycleLevel, kinds?.length ? kinds : undefined), (r) => [
        `${plural(r.cycles.length, 'cycle')} among ${plural(r.nodes, r.level === 'file' ? 'file' : 'symbol')} linked by ${r.kinds.join(', ')}`,
        ...r.cycles.slice(0, limit).map((c) => `  ${c.size} ${r.level}s: ${c.loop.join(' -> ')}`),
      ].join('\n') + more(limit, r.cycles.length));
    });

  common(analyze.command('communities').description('groups of files more connected to each other than to the rest (Louvain modularity over the edges)'),
    '{communities: [{id, label, files, size, internal, external}], modularity, kinds, placed, files}')
    .option('--resolution <r>', 'above 1: more, smaller communities', '1')
    .option('--tests', 'place test files too')
    .addHelpText('after', examples(['cg analyze communities', 'cg analyze communities --resolution 1.5']))
    .action((opts: Common & { resolution: string; tests?: boolean }) => {
      const limit = parseIntInRange('--limit', opts.limit, 1, 100_000);
      const resolution = Number(opts.resolution);
      if (!(resolution >= 0.1 && resolution <= 10)) throw usageError(`--resolution must be a number from 0.1 to 10, not "${opts.resolution}"`, 'The default is 1.');
      return withIndex(opts, ({ db }) => communities(db, { resolution, includeTests: opts.tests }), (r) => [
        `${plural(r.communities.length, 'community', 'communities')} of ${r.placed} connected files (of ${r.files}), modularity ${r.modularity}`,
        ...r.communities.slice(0, limit).map((c) => `  #${c.id} ${c.label}  ${plural(c.size, 'file')}, weight ${c.internal} inside / ${c.external} outside: ${c.files.slice(0, 6).join(', ')}${c.size > 6 ? ', ...' : ''}`),
      ].join('\n') + more(limit, r.communities.length));
    });

  common(analyze.command('co-change').description('files that change together in git history; hidden = no edge links them in the code'),
    '{pairs: [{a, b, support, confidence, hidden}], commits, skippedLarge, minSupport}')
    .option('--file <path>', 'only pairs with this file')
    .option('--commits <n>', 'newest non-merge commits to read', String(COCHANGE_DEFAULTS.commits))
    .option('--min-support <n>', 'commits a pair must share', String(COCHANGE_DEFAULTS.minSupport))
    .addHelpText('after', examples(['cg analyze co-change', 'cg analyze co-change --file src/app.py --commits 500']))
    .action((opts: Common & { file?: string; commits: string; minSupport: string }) => {
      const limit = parseIntInRange('--limit', opts.limit, 1, 100_000);
      const commits = parseIntInRange('--commits', opts.commits, 10, 100_000);
      const minSupport = parseIntInRange('--min-support', opts.minSupport, 1, 10_000);
      return withIndex(opts, ({ db, root }) => coChange(db, root, { file: opts.file ? toRepoPath(root, opts.file) : undefined, commits, minSupport }), (r) => [
        `${plural(r.pairs.length, 'pair')} of files changed together in at least ${r.minSupport} of ${r.commits} commits (${r.skippedLarge} large commits left out)`,
        table(r.pairs.slice(0, limit).map((p) => [p.a, p.b, `${p.support} commits`, `${Math.round(p.confidence * 100)}%`, p.hidden ? 'hidden' : ''])),
      ].join('\n') + more(limit, r.pairs.length));
    });

  common(analyze.command('complexity').description('per-function cyclomatic and cognitive complexity from the syntax tree, most complex first'),
    '{functions: [{symbol, kind, file, startLine, endLine, cyclomatic, cognitive, maxNesting}], measured, files, notMeasured}')
    .option('--file <glob>', 'only functions in files matching this glob')
    .option('--min <n>', 'only functions with at least this cyclomatic complexity', '1')
    .addHelpText('after', examples(['cg analyze complexity', 'cg analyze complexity --min 10 --json']))
    .action((opts: Common & { file?: string; min: string }) => {
      const limit = parseIntInRange('--limit', opts.limit, 1, 100_000);
      const min = parseIntInRange('--min', opts.min, 1, 10_000);
      return withIndex(opts, ({ db, root }) => complexity(db, root, { fileGlob: opts.file, min }), (r) => [
        `${plural(r.functions.length, 'function')} (of ${r.measured} measured in ${plural(r.files, 'file')})${Object.keys(r.notMeasured).length ? `; not measured: ${Object.entries(r.notMeasured).map(([l, n]) => `${l} (${plural(n, 'file')})`).join(', ')}` : ''}`,
        table([['cognitive', 'cyclomatic', 'nesting', 'function', 'where'],
          ...r.functions.slice(0, limit).map((f) => [String(f.cognitive), String(f.cyclomatic), String(f.maxNesting), f.symbol, `${f.file}:${f.startLine}`])]),
      ].join('\n') + more(limit, r.functions.length));
    });

  common(analyze.command('owners').description('code ownership from CODEOWNERS: owners by lines of code, files nobody owns'),
    '{file, rules, files: [{path, owners, rule}], owners: [{owner, files, loc}], unowned, problems}')
    .option('--file <glob>', 'list the owners of the files matching this glob')
    .addHelpText('after', examples(['cg analyze owners', 'cg analyze owners --json']))
    .action((opts: Common & { file?: string }) => {
      const limit = parseIntInRange('--limit', opts.limit, 1, 100_000);
      return withIndex(opts, ({ db, root }) => ownership(db, root), (r) => {
        if (!r.file) return 'No CODEOWNERS file (.github/CODEOWNERS, CODEOWNERS or docs/CODEOWNERS).';
        const out = [`${r.file}: ${plural(r.rules, 'rule')}, ${plural(r.owners.length, 'owner')}, ${plural(r.unowned, 'file')} nobody owns`,
          table(r.owners.slice(0, limit).map((o) => [o.owner, plural(o.files, 'file'), `${groupDigits(o.loc)} lines`]))];
        if (opts.file) {
          const match = fileMatcher(opts.file);
          for (const f of r.files.filter((x) => match(x.path)).slice(0, limit)) out.push(`  ${f.path}: ${f.owners.join(' ') || '(nobody)'}${f.rule ? ` (line ${f.rule})` : ''}`);
        }
        for (const p of r.problems) out.push(`warning: ${r.file}:${p.line}: ${p.reason}`);
        return out.join('\n');
      });
    });
}
