import fs from 'node:fs';
import type { Command } from 'commander';
import { blastRadius, CHANGE_TYPES, DEFAULT_IMPACT_DEPTH, MAX_IMPACT_DEPTH, type BlastRadius, type ChangeType, type TestsForResult, testsFor } from '../../graph/blast.js';
import { repoMap, SYMBOLS_PER_FILE } from '../../graph/structure.js';
import type { ChangeInput } from '../../graph/targets.js';
import { resolveInRepo, toRepoPath } from '../../repo/root.js';
import { renderBlastMermaid, renderStructureMermaid } from '../../graph/mermaid.js';
import { CgError, errorMessage } from '../../errors.js';
import { emit, plural } from '../output.js';
import { freshnessLine, openIndex } from '../repo.js';
import { examples, parseIntInRange, REPO_FLAG, REPO_HELP } from '../args.js';
import { loadConfig } from '../../config/config.js';

const MAX_DIFF_BYTES = 20 * 1024 * 1024;
const collect = (v: string, prev: string[] = []) => [...prev, v];

interface ChangeOpts { symbol?: string[]; file?: string[]; diff?: string; depth: string; repo?: string; json?: boolean }

function changeInput(root: string, opts: ChangeOpts): ChangeInput {
  let diff: string | undefined;
  if (opts.diff) {
    try {
      diff = fs.readFileSync(opts.diff === '-' ? 0 : opts.diff, 'utf8');
    } catch (err) {
      throw new CgError('usage', `Cannot read the diff ${opts.diff}: ${errorMessage(err)}`, 'Pass a file with `git diff` output, or - for stdin.');
    }
    if (diff.length > MAX_DIFF_BYTES) throw new CgError('usage', `The diff is larger than ${MAX_DIFF_BYTES} bytes`, 'Pass a smaller diff.');
  }
  return { symbols: opts.symbol, files: opts.file?.map((f) => toRepoPath(root, f)), diff };
}

function changeOptions(cmd: Command): Command {
  return cmd
    .option('--symbol <name>', 'a changed symbol (repeatable): qualified name, name, or file:name', collect)
    .option('--file <path>', 'a changed file (repeatable)', collect)
    .option('--diff <file>', 'a unified diff (`git diff` output); - reads stdin')
    .option('--depth <n>', `steps to follow (1-${MAX_IMPACT_DEPTH})`, String(DEFAULT_IMPACT_DEPTH))
    .option(REPO_FLAG, REPO_HELP);
}

export function registerImpact(program: Command): void {
  changeOptions(program
    .command('tests-for')
    .description('the tests to run first for a change (symbols, files or a diff), each with the chain that links it to the change'))
    .option('--json', 'print JSON: {changed, unmatched, tests: [{symbol, file, depth, confidence, path}], testFiles, ...}')
    .addHelpText('after', examples(['cg tests-for --symbol parse_config', 'git diff | cg tests-for --diff - --json', 'cg tests-for --file src/auth.py --depth 3']))
    .action((opts: ChangeOpts) => {
      const depth = parseIntInRange('--depth', opts.depth, 1, MAX_IMPACT_DEPTH);
      const { root, db, freshness } = openIndex(opts.repo);
      try {
        const res = testsFor(db, changeInput(root, opts), depth, (p) => resolveInRepo(root, p), loadConfig(root).warnings.lowConfidence);
        emit(opts, { ...res, freshness }, (r) => `${renderTests(r)}\n${freshnessLine(freshness)}`);
      } finally {
        db.close();
      }
    });
  changeOptions(program
    .command('impact')
    .description('what a change can break: dependents by relation and depth, affected files, tests, a risk summary'))
    .option('--change-type <type>', 'signature: the call sites, overrides and registrations break; behavior: callers, '
      + 'registrations, readers and writers, and the tests that reach them; delete: every reference, imports, subtypes and '
      + 'overrides included; any: every relation, and imports of the enclosing class or module', 'any')
    .option('--mermaid', 'print a Mermaid flowchart of the dependents (for a pull request)')
    .option('--json', 'print JSON: {targets, direct: {callers, importers, subtypes, registrations, dataAccess, tests}, transitive, affectedFiles, tests, risk, warnings, ...}')
    .addHelpText('after', examples(['cg impact --symbol User.save', 'git diff main | cg impact --diff - --mermaid', 'cg impact --file src/db.py --depth 2 --json']))
    .action((opts: ChangeOpts & { mermaid?: boolean; changeType: string }) => {
      const depth = parseIntInRange('--depth', opts.depth, 1, MAX_IMPACT_DEPTH);
      if (!(CHANGE_TYPES as readonly string[]).includes(opts.changeType)) {
        throw new CgError('usage', `Unknown --change-type "${opts.changeType}"`, `Use one of: ${CHANGE_TYPES.join(', ')}.`);
      }
      const { root, db, freshness } = openIndex(opts.repo);
      try {
        const res = blastRadius(db, changeInput(root, opts), depth, (p) => resolveInRepo(root, p),
          { changeType: opts.changeType as ChangeType, lowConfidence: loadConfig(root).warnings.lowConfidence });
        emit(opts, { ...res, freshness }, (r) => (opts.mermaid ? renderBlastMermaid(r) : `${renderImpact(r)}\n${freshnessLine(freshness)}`));
      } finally {
        db.close();
      }
    });
  program
    .command('map')
    .description('a repository map: files by PageRank, each with its most central definitions, within a token budget')
    .argument('[folder]', 'only files under this folder')
    .option('--budget <tokens>', 'token budget (100-50000; cl100k_base tokens)', '2000')
    .option('--symbols <n>', `definitions per file (1-50)`, String(SYMBOLS_PER_FILE))
    .option('--mermaid', 'print a Mermaid flowchart of the files and the calls/imports between them')
    .option(REPO_FLAG, REPO_HELP)
    .option('--json', 'print JSON: {files: [{path, language, loc, rank, symbols}], text, tokens_used, ...}')
    .addHelpText('after', examples(['cg map', 'cg map src/api --budget 4000', 'cg map --mermaid > map.md']))
    .action(async (folder: string | undefined, opts: { budget: string; symbols: string; mermaid?: boolean; repo?: string; json?: boolean }) => {
      const budget = parseIntInRange('--budget', opts.budget, 100, 50_000);
      const per = parseIntInRange('--symbols', opts.symbols, 1, 50);
      const { root, db, freshness } = openIndex(opts.repo);
      try {
        const res = await repoMap(db, { folder: folder ? toRepoPath(root, folder) || null : null, budget, symbolsPerFile: per, links: opts.mermaid });
        if (opts.mermaid && !opts.json) {
          process.stdout.write(`${renderStructureMermaid(res)}\n`);
          return;
        }
        emit(opts, { ...res, freshness }, (r) => (r.status === 'ok' ? r.text : `No indexed files under ${r.folder}/.`)
          + `\n(${r.files.length} of ${r.total_files} files, ${r.tokens_used}/${r.token_budget} tokens)\n${freshnessLine(freshness)}`);
      } finally {
        db.close();
      }
    });
}

function renderTests(r: TestsForResult): string {
  const out = [`Changed: ${r.changed.map((c) => `${c.symbol} (${c.file})`).join(', ') || 'nothing matched'}`];
  for (const u of r.unmatched) out.push(`  not matched: ${u.input}: ${u.reason}`);
  for (const f of r.testFiles) out.push(`${f.file}  ${plural(f.tests, 'test')}, confidence ${f.confidence.toFixed(2)}`);
  for (const t of r.tests) out.push(`  ${t.symbol}:${t.startLine}  ${t.path.map((p) => p.symbol).join(' -> ')}`);
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}

function renderImpact(r: BlastRadius): string {
  const out = [`Targets: ${r.targets.map((t) => `${t.symbol} (${t.file})`).join(', ') || 'nothing matched'}`];
  for (const [rel, list] of Object.entries(r.direct)) {
    if (list.length) out.push(`Direct ${rel} (${list.length}): ${list.map((d) => `${d.symbol} ${d.file}:${d.line ?? d.startLine}`).join(', ')}`);
  }
  if (r.transitive.length) out.push(`Transitive (${r.transitive.length}): ${r.transitive.map((d) => `${d.symbol} [${d.depth}]`).join(', ')}`);
  out.push(`Files: ${r.affectedFiles.map((f) => f.file).join(', ') || 'none'}`);
  out.push(`Risk: ${r.risk.level} (${r.risk.reasons.join('; ')})`);
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}
