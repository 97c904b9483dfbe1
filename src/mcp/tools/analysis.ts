import { z } from 'zod';
import { complexity } from '../../analysis/complexity.js';
import { deadCode } from '../../analysis/dead-code.js';
import { cycles } from '../../analysis/cycles.js';
import { communities } from '../../analysis/communities.js';
import { coChange, COCHANGE_DEFAULTS } from '../../analysis/cochange.js';
import { ownership } from '../../analysis/owners.js';
import { fileMatcher } from '../../store/glob.js';
import { declareTools, type ToolAnswer, type ToolContext } from '../registry.js';
import { fitAnswer } from '../respond.js';
import { budgetArg, globArg, repoPath, repoPathArg } from './args.js';
import { DEFAULT_LIST_BUDGET } from './bombe.js';

/**
 * The `analysis` toolset: the same analyses as `cg analyze`, each list fitted whole into the token
 * budget in its own order (most certain, largest or most complex first), with totals and what was left out.
 */
const SPEC = 'CodeGrapher (analysis)';

async function listAnswer(ctx: ToolContext, budget: number, key: string, list: unknown[], head: Record<string, unknown>): Promise<ToolAnswer> {
  return (await fitAnswer(budget, list.length, (k, used) => ({ body: {
    ...head, [key]: list.slice(0, k), total: list.length,
    ...(k < list.length ? { omitted: list.length - k, truncated: true } : {}), tokens_used: used,
  } }), ctx.finish)).answer;
}

const budget = budgetArg(DEFAULT_LIST_BUDGET, 50_000);

const deadSchema = z.object({
  file_pattern: globArg('only definitions in files matching this glob (src/**/*.py)').optional(),
  include_uncertain: z.boolean().default(false).describe('also definitions whose name is written elsewhere in the repository (confidence medium)'),
  include_exported: z.boolean().default(false).describe('also exported definitions and public members of exported types (for applications, whose API nobody else calls)'),
  token_budget: budget,
});

const cycleSchema = z.object({
  level: z.enum(['file', 'symbol']).default('file').describe('file: files importing each other in a loop; symbol: functions calling each other in a loop'),
  edge_kinds: z.array(z.string().min(1).max(40)).max(20).optional().describe('edge kinds to follow (default: imports for files, calls for symbols)'),
  token_budget: budget,
});

const communitySchema = z.object({
  resolution: z.number().min(0.1).max(10).default(1).describe('Louvain resolution: above 1 gives more, smaller communities'),
  include_tests: z.boolean().default(false).describe('place test files too'),
  token_budget: budget,
});

const cochangeSchema = z.object({
  file: repoPathArg('only pairs with this file').optional(),
  commits: z.number().int().min(10).max(20_000).default(COCHANGE_DEFAULTS.commits).describe('newest non-merge commits to read'),
  min_support: z.number().int().min(1).max(1000).default(COCHANGE_DEFAULTS.minSupport).describe('commits a pair must share'),
  token_budget: budget,
});

const complexitySchema = z.object({
  file_pattern: globArg('only functions in files matching this glob').optional(),
  min_cyclomatic: z.number().int().min(1).max(1000).default(1).describe('only functions at least this complex'),
  token_budget: budget,
});

const ownerSchema = z.object({
  file_pattern: globArg('only files matching this glob').optional(),
  token_budget: budget,
});

declareTools([
  {
    name: 'dead_code', title: 'Dead code', spec: SPEC, toolsets: ['analysis'],
    description: 'Definitions nothing refers to: no call, import, inheritance or test edge in the index, not exported (nor a public member of '
      + 'an exported type), not an entry point, test or decorated function. High confidence (default): the name is written nowhere else in '
      + 'the repository. Check a report before deleting: reflection and calls by string are invisible to the index.',
    schema: deadSchema,
    run: async (a: z.infer<typeof deadSchema>, ctx) => {
      const r = deadCode(ctx.snap.db, ctx.snap.root, { includeMedium: a.include_uncertain, includeExported: a.include_exported,
        fileGlob: a.file_pattern ? fileMatcher(a.file_pattern) : undefined });
      return listAnswer(ctx, a.token_budget, 'dead', r.dead.map(({ id: _id, ...d }) => d), { definitions: r.definitions, by_confidence: r.byConfidence });
    },
  },
  {
    name: 'cycles', title: 'Dependency cycles', spec: SPEC, toolsets: ['analysis'],
    description: 'Dependency cycles: files that import each other in a loop (level file), or functions that call each other in a loop '
      + '(level symbol), largest first, each with one concrete loop to break.',
    schema: cycleSchema,
    run: async (a: z.infer<typeof cycleSchema>, ctx) => {
      const r = cycles(ctx.snap.db, a.level, a.edge_kinds);
      return listAnswer(ctx, a.token_budget, 'cycles', r.cycles, { level: r.level, edge_kinds: r.kinds, nodes: r.nodes, edges: r.edges });
    },
  },
  {
    name: 'communities', title: 'Communities', spec: SPEC, toolsets: ['analysis'],
    description: 'Groups of files more connected to each other than to the rest (Louvain over calls, imports and the other edges), largest '
      + 'first, each with a folder label and its internal and external edge weight: the modules the code really has.',
    schema: communitySchema,
    run: async (a: z.infer<typeof communitySchema>, ctx) => {
      const r = communities(ctx.snap.db, { resolution: a.resolution, includeTests: a.include_tests });
      return listAnswer(ctx, a.token_budget, 'communities', r.communities, { modularity: r.modularity, edge_kinds: r.kinds, placed: r.placed, files: r.files });
    },
  },
  {
    name: 'co_change', title: 'Co-change', spec: SPEC, toolsets: ['analysis'],
    description: 'Files that change together in git history (support: shared commits; confidence: share of the rarer file\'s commits), '
      + 'hidden: true where no edge links them in the code. Use it to find the other files a change usually needs.',
    schema: cochangeSchema,
    run: async (a: z.infer<typeof cochangeSchema>, ctx) => {
      const r = coChange(ctx.snap.db, ctx.snap.root, { file: a.file ? repoPath(ctx.snap, a.file) : undefined, commits: a.commits, minSupport: a.min_support });
      return listAnswer(ctx, a.token_budget, 'pairs', r.pairs, { commits: r.commits, skipped_large_commits: r.skippedLarge });
    },
  },
  {
    name: 'complexity', title: 'Function complexity', spec: SPEC, toolsets: ['analysis'],
    description: 'Per-function cyclomatic and cognitive complexity and deepest nesting, from the syntax tree, most complex first.',
    schema: complexitySchema,
    run: async (a: z.infer<typeof complexitySchema>, ctx) => {
      const r = await complexity(ctx.snap.db, ctx.snap.root, { fileGlob: a.file_pattern, min: a.min_cyclomatic });
      return listAnswer(ctx, a.token_budget, 'functions', r.functions, { measured: r.measured, not_measured: r.notMeasured });
    },
  },
  {
    name: 'ownership', title: 'Code owners', spec: SPEC, toolsets: ['analysis'],
    description: 'Who owns which files, from CODEOWNERS (GitHub\'s rules: last matching line wins): owners by lines of code, and per file its '
      + 'owners and the deciding line. Files nobody owns are counted.',
    schema: ownerSchema,
    run: async (a: z.infer<typeof ownerSchema>, ctx) => {
      const r = ownership(ctx.snap.db, ctx.snap.root);
      const match = a.file_pattern ? fileMatcher(a.file_pattern) : () => true;
      return listAnswer(ctx, a.token_budget, 'files', r.files.filter((f) => match(f.path)),
        { codeowners: r.file, rules: r.rules, owners: r.owners, unowned: r.unowned, ...(r.problems.length ? { problems: r.problems } : {}) });
    },
  },
]);
