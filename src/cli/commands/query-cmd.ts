import type { Command } from 'commander';
import { RANKING_PRESETS, type RankingPreset } from '../../config/config.js';
import { CgError } from '../../errors.js';
import { runQuery, DEFAULT_BUDGET, DEFAULT_MAX_REGIONS, truncationNote, type QueryResponse } from '../../retrieve/query.js';
import { emit, plural } from '../output.js';
import { freshnessLine, openIndexRecovering } from '../repo.js';
import { examples, parseIntInRange, REPO_FLAG, REPO_HELP } from '../args.js';
import { toRepoPath } from '../../repo/root.js';
import { readSignals } from './signals.js';
import { buildContext, MAX_FILES, type ContextBundle } from '../../retrieve/context.js';
import { FILTER_TYPES, type FilterType } from '../../extract/documents/formats.js';

export function registerQuery(program: Command): void {
  program
    .command('query')
    .description('the code a task needs, ranked, within a token budget, each place with a reason and a confidence (the probability that the task edits its file; '
      + 'when nothing matches well it says so and which words to grep instead)')
    .argument('<text...>', 'the task in words (a bug report, a feature, a commit message)')
    .option('--cursor-file <file>', 'the file being edited: files it imports or is imported by rank higher')
    .option('--budget <tokens>', `token budget for the answer (${DEFAULT_BUDGET} by default; cl100k_base tokens)`, String(DEFAULT_BUDGET))
    .option('--depth <n>', 'hops of calls and tests to follow from the best matches (0-3)', '1')
    .option('--snippets', 'include the source lines of each place (otherwise signatures only)')
    .option('--signal-file <file>', 'a stack trace, test output, log, profile or coverage report: the places it names rank first')
    .option('--no-recorded-signals', 'leave out the failures `cg signal record` kept from a run')
    .option('--preset <name>', `ranking preset: ${RANKING_PRESETS.join(', ')} (default: retrieval.preset in cg.config.json, else learned)`)
    .option('--type <type>', 'code (the default), documents (Markdown, YAML, JSON, PDF, text), or all (both, merged by rank; '
      + 'the default with --collection)')
    .option('--collection <name>', 'ask every project of this registered collection (`cg collection list`) and merge the answers')
    .option('--all-projects', 'ask every registered project and merge the answers')
    .option('--limit <n>', 'with --collection/--all-projects: at most this many results (1-100)', '10')
    .option(REPO_FLAG, REPO_HELP)
    .option('--json', 'print JSON (the PRD §6 response: status, files[{path, line_range, symbol, excerpt, score, rationale, confidence}], ...)')
    .addHelpText('after', examples(['cg query "how is an incremental update applied"', 'cg query token expiry is not checked --cursor-file src/auth.py --snippets',
      'pytest 2>&1 | tee /tmp/fail.log; cg query fix the failing test --signal-file /tmp/fail.log --json',
      'cg query "where is the REST route registered" --collection my-plugins --type all']))
    .action(async (words: string[], opts: TaskOptions & { snippets?: boolean; type?: string; collection?: string; allProjects?: boolean; limit: string }) => {
      const filterType = parseFilterType(opts.type ?? (opts.collection || opts.allProjects ? 'all' : 'code'));
      if (opts.collection || opts.allProjects) {
        const { federatedQuery } = await import('../federated-query.js');
        await federatedQuery(words.join(' '), { collection: opts.collection, limit: parseIntInRange('--limit', opts.limit, 1, 100), filterType,
          json: opts.json });
        return;
      }
      const { root, db, freshness, task } = await openForTask(words, opts);
      try {
        const res = await runQuery(db, root, { ...task, snippets: !!opts.snippets, filterType });
        emit(opts, { ...res, freshness }, (r) => `${render(r)}\n${freshnessLine(freshness)}`);
      } finally {
        db.close();
      }
    });
}

interface TaskOptions {
  cursorFile?: string;
  budget: string;
  depth: string;
  signalFile?: string;
  recordedSignals: boolean;
  preset?: string;
  repo?: string;
  json?: boolean;
}

/** The options `cg query` and `cg context` share, checked, and the index they read. */
async function openForTask(words: string[], opts: TaskOptions) {
  const budget = parseIntInRange('--budget', opts.budget, 100, 200_000);
  const depth = parseIntInRange('--depth', opts.depth, 0, 3);
  const preset = parsePreset(opts.preset);
  const { root, db, freshness } = await openIndexRecovering(opts.repo);
  try {
    const cursorFile = opts.cursorFile ? toRepoPath(root, opts.cursorFile) : null;
    const signals = opts.signalFile ? readSignals(root, opts.signalFile, db) : undefined;
    return { root, db, freshness, task: { text: words.join(' '), budget, depth, cursorFile, signals, preset, recordedSignals: opts.recordedSignals } };
  } catch (err) {
    db.close();
    throw err;
  }
}

function parseFilterType(value: string): FilterType {
  if (!(FILTER_TYPES as readonly string[]).includes(value)) {
    throw new CgError('usage', `Unknown --type "${value}"`, `Use ${FILTER_TYPES.join(', ')}.`);
  }
  return value as FilterType;
}

function parsePreset(name: string | undefined): RankingPreset | undefined {
  if (name === undefined) return undefined;
  if (!(RANKING_PRESETS as readonly string[]).includes(name)) {
    throw new CgError('usage', `Unknown ranking preset "${name}"`, `Use one of ${RANKING_PRESETS.join(', ')}; README.md, "Ranking presets", compares them.`);
  }
  return name as RankingPreset;
}

function render(r: QueryResponse): string {
  const place = (e: QueryResponse['files'][number]) => `${e.path}:${e.line_range[0]}-${e.line_range[1]}  ${e.symbol ?? '(file)'}  `
    + `score ${e.score.toFixed(2)}, confidence ${e.confidence.toFixed(2)}${e.weak ? ' (weak)' : ''}`;
  if (r.status === 'empty_results') {
    const weak = r.weak_candidates ?? [];
    return [`No results. ${r.suggestion ?? ''}`, ...(weak.length ? ['Weak guesses (likely unrelated):', ...weak.map((e) => `  ${place(e)}`)] : [])].join('\n');
  }
  const out: string[] = r.confidence_level === 'low' ? [r.suggestion ?? '', ''] : [];
  for (const e of r.files) {
    out.push(place(e));
    out.push(`    ${e.rationale}`);
    if (e.excerpt) out.push(e.excerpt.split('\n').map((l) => `    | ${l}`).join('\n'));
    else if (e.signature) out.push(`    ${e.signature}`);
  }
  if (r.more_files.length) out.push(`more files, best first: ${r.more_files.join(', ')}`);
  out.push(`${plural(r.files.length, 'place')}, ${r.tokens_used}/${r.token_budget} tokens${r.truncated ? ` (${truncationNote(r.truncated_by, '--budget', DEFAULT_MAX_REGIONS)})` : ''}; `
    + `${plural(r.total_candidates, 'candidate file')} of ${plural(r.total_symbols, 'symbol')}`);
  for (const w of r.warnings) out.push(`warning: ${w}`);
  for (const s of r.stale_references) out.push(`stale reference in the signal: ${s.path}${s.line ? `:${s.line}` : ''} is not in the repository`);
  return out.join('\n');
}

export function registerContext(program: Command): void {
  program
    .command('context')
    .description('a reading bundle for a task: summary, relations, full source of the entry points (cut to fit when too long) and signatures of the rest, at most 12 files, within a token budget')
    .argument('<text...>', 'the task in words')
    .option('--cursor-file <file>', 'the file being edited')
    .option('--budget <tokens>', `token budget (${DEFAULT_BUDGET} by default; cl100k_base tokens)`, String(DEFAULT_BUDGET))
    .option('--depth <n>', 'hops of calls and tests to follow (0-3)', '1')
    .option('--signal-file <file>', 'a stack trace, test output, log, profile or coverage report')
    .option('--no-recorded-signals', 'leave out the failures `cg signal record` kept from a run')
    .option('--preset <name>', `ranking preset: ${RANKING_PRESETS.join(', ')}`)
    .option(REPO_FLAG, REPO_HELP)
    .option('--json', 'print JSON: {summary, relationships, files: [{path, form, places, text}], more_files, tokens_used, ...}')
    .addHelpText('after', examples(['cg context add a retry to the HTTP client', 'cg context "why does login fail" --budget 8000 --json']))
    .action(async (words: string[], opts: TaskOptions) => {
      const { root, db, freshness, task } = await openForTask(words, opts);
      try {
        const res = await buildContext(db, root, task);
        emit(opts, { ...res, freshness }, (r) => `${renderContext(r)}\n${freshnessLine(freshness)}`);
      } finally {
        db.close();
      }
    });
}

/** `cg context`'s text: what an agent reading the bundle sees (eval/token-savings.mjs counts it). */
export function renderContext(r: ContextBundle): string {
  const out = [`# ${r.summary}`];
  if (r.relationships.length) out.push('', '## Relations', ...r.relationships.map((x) => `- ${x}`));
  for (const f of r.files) out.push('', `## ${f.path} (${f.form})`, f.text);
  if (r.more_files.length) out.push('', `more files, ranked but unlikely to need a change: ${r.more_files.join(', ')}`);
  out.push('', `${r.tokens_used}/${r.token_budget} tokens${r.truncated ? `; ${truncationNote(r.truncated_by, '--budget', MAX_FILES)}` : ''}`);
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}
