// The warm-latency plan of eval/bench-mcp.mjs, shared with eval/ab-serve.mjs: per tool, the arguments of
// call i, varied and taken from the indexed corpus itself (methods outside the tests whose names pick one
// symbol; fifteen tasks in words).
import { spawnSync } from 'node:child_process';

export const TASKS = ['render a table with a border style', 'progress bar refresh rate', 'syntax highlighting of code with a theme',
  'markdown headings rendering', 'console width detection on windows terminals', 'traceback with local variables',
  'live display refresh while printing', 'text wrapping and justification', 'prompt for a password without echo',
  'emoji replacement in text', 'logging handler that prints rich output', 'tree with guide lines', 'measure the width of renderables',
  'color downgrade to 256 colors', 'export console output as html'];

/** `cg` is the CLI entry to ask (`node CG symbols ...`), `dir` the indexed repository. */
export function warmPlan(cg, dir) {
  const out = spawnSync(process.execPath, [cg, 'symbols', '*', '--kind', 'method', '--limit', '1000', '--json'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (out.status !== 0) throw new Error(`cg symbols: ${out.stderr}`);
  const names = JSON.parse(out.stdout).symbols;
  // Names that pick one symbol (a property's getter and setter share theirs), outside the tests.
  const counts = new Map();
  for (const s of names) counts.set(`${s.file}:${s.qualifiedName}`, (counts.get(`${s.file}:${s.qualifiedName}`) ?? 0) + 1);
  const unique = [...new Map(names.map((s) => [s.qualifiedName, s])).values()]
    .filter((s) => !s.file.startsWith('tests/') && counts.get(`${s.file}:${s.qualifiedName}`) === 1);
  const pick = (i) => unique[(i * 37) % unique.length];
  const files = [...new Set(unique.map((s) => s.file))];
  const ref = (i) => `${pick(i).file}:${pick(i).qualifiedName}`;
  const tasks = TASKS;
  return {
    search_symbols: (i) => ({ query: pick(i).name.slice(0, Math.max(3, pick(i).name.length - 2)) }),
    get_references: (i) => ({ symbol_name: ref(i), depth: 2 }),
    file_context: (i) => ({ file_path: files[i % files.length] }),
    status: () => ({}),
    get_structure: (i) => (i % 2 ? { path: 'rich', token_budget: 1500 } : { token_budget: 1500 }),
    tests_for: (i) => ({ symbols: [ref(i)] }),
    get_blast_radius: (i) => ({ symbol_name: ref(i), max_depth: 2 }),
    symbols: (i) => ({ query: `${pick(i).name.slice(0, 3)}*` }),
    references: (i) => ({ symbol_name: ref(i) }),
    impact: (i) => ({ symbol_name: ref(i) }),
    codegraph_query: (i) => ({ query: tasks[i % tasks.length] }),
    'codegraph_query (include_snippets true)': (i) => ({ query: tasks[i % tasks.length], include_snippets: true }),
    search: (i) => ({ query: tasks[i % tasks.length] }),
    get_context: (i) => ({ query: tasks[i % tasks.length] }),
    'get_context (3500 tokens, signatures only)': (i) => ({ query: tasks[i % tasks.length], token_budget: 3500, include_signatures_only: true }),
  };
}

export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
