import { z } from 'zod';
import { DEFAULT_IMPACT_DEPTH, MAX_IMPACT_DEPTH, testsFor } from '../../graph/blast.js';
import { declareTools, type ToolAnswer, type ToolContext } from '../registry.js';
import { fitAnswer, keepCounts } from '../respond.js';
import { budgetArg, lowConfidence, MAX_DIFF, MAX_NAME, repoPath, repoPathArg } from './args.js';
import { DEFAULT_LIST_BUDGET } from './bombe.js';

/**
 * CodeGrapher's own tool beyond the PRD (spec 004, user story 5: test selection): the tests to run
 * first for a change, over the same walk as `cg tests-for` and the blast radius.
 */
const schema = z.object({
  files: z.array(repoPathArg('a changed file')).max(500).optional().describe('changed files (every definition in them counts as changed)'),
  symbols: z.array(z.string().min(1).max(MAX_NAME)).max(200).optional()
    .describe('changed symbols: qualified names (Service.run), plain names, or file:name (src/app.py:Service.run)'),
  diff: z.string().max(MAX_DIFF).optional().describe('a unified diff (`git diff` output): the definitions around its changed lines count as changed'),
  max_depth: z.number().int().min(1).max(MAX_IMPACT_DEPTH).default(DEFAULT_IMPACT_DEPTH)
    .describe(`steps to follow from the change (1-${MAX_IMPACT_DEPTH}, default ${DEFAULT_IMPACT_DEPTH})`),
  token_budget: budgetArg(DEFAULT_LIST_BUDGET, 50_000),
});

async function run(a: z.infer<typeof schema>, ctx: ToolContext): Promise<ToolAnswer> {
  const res = testsFor(ctx.snap.db, { files: a.files, symbols: a.symbols, diff: a.diff }, a.max_depth, (p) => repoPath(ctx.snap, p),
    lowConfidence(ctx.snap));
  const testFiles = res.testFiles;
  const tests = res.tests.map((t) => ({ name: t.symbol, file: t.file, line: t.startLine, depth: t.depth, confidence: t.confidence,
    path: t.path.map((p) => `${p.symbol}${p.relation ? ` -${p.relation}->` : ''}`).join(' ') }));
  const lengths = [[testFiles.length], [tests.length]];
  return (await fitAnswer(a.token_budget, testFiles.length + tests.length, (k, used) => {
    const [[f], [t]] = keepCounts(lengths, k);
    const omitted = Object.fromEntries(Object.entries({ test_files: testFiles.length - f, tests: tests.length - t }).filter(([, n]) => n > 0));
    return { body: {
      changed: res.changed.map((c) => ({ name: c.symbol, file: c.file, line: c.startLine, reason: c.reason })),
      ...(res.unmatched.length ? { unmatched: res.unmatched } : {}),
      test_files: testFiles.slice(0, f), tests: tests.slice(0, t),
      totals: { test_files: testFiles.length, tests: tests.length },
      ...(Object.keys(omitted).length ? { omitted, truncated: true } : {}),
      ...(res.warnings.length ? { warnings: res.warnings } : {}), depth: res.depth, tokens_used: used,
    } };
  }, ctx.finish)).answer;
}

declareTools([{
  name: 'tests_for', title: 'Tests for a change', spec: 'CodeGrapher (spec 004 §5: test selection)', toolsets: ['default', 'codegrapher'],
  description: 'The tests to run first for a change: given changed files, symbols or a unified diff, the test files and the '
    + 'tests that reach the changed code through calls, imports or test edges, strongest link first, each with the chain '
    + 'that links it. Use it after editing, before the whole suite. It cannot see tests that reach code dynamically '
    + '(fixtures by name, subprocesses): when it finds none, grep the tests for the changed names or run the whole suite.',
  schema,
  run,
}]);
