#!/usr/bin/env node
// A/B of the MCP tools in-process (no stdio): this checkout's spec tools against an older build of cg
// (another checkout's dist/, e.g. main before the spec toolsets), on the same index, calls alternating
// between the two so that a busy machine slows both alike. Reports medians and p95 per tool and the
// ratio new/old; answers are the spec's (new) and the old native tools' (old) for the same questions.
//
// Usage: node eval/ab-mcp.mjs --old /path/to/old/checkout --repo /path/to/indexed/repo [--calls 40]
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const here = path.dirname(fileURLToPath(import.meta.url));
const oldDir = opt('--old');
const root = opt('--repo');
const calls = Number(opt('--calls', '40'));
if (!oldDir || !root) throw new Error('usage: --old DIR --repo DIR');
const fresh = await import(path.join(here, '..', 'dist', 'mcp', 'server.js'));
const old = await import(path.join(oldDir, 'dist', 'mcp', 'server.js'));
const n = fresh.createServer(root, { toolsets: ['all'] });
const o = old.createServer(root);
const tasks = ['render a table with a border style', 'progress bar refresh rate', 'syntax highlighting of code with a theme',
  'markdown headings rendering', 'console width detection on windows terminals', 'traceback with local variables'];
const refs = ['rich/console.py:Console.print', 'rich/text.py:Text.append', 'rich/segment.py:Segment.split_cells', 'rich/style.py:Style.parse',
  'rich/table.py:Table.add_row', 'rich/progress.py:Progress.update'];
const pairs = {
  search_symbols: [(i) => ['search_symbols', { query: ['Cons', 'render', 'split', 'Style', 'add_', 'upd'][i % 6] }], (i) => ['search_symbols', { query: ['Cons', 'render', 'split', 'Style', 'add_', 'upd'][i % 6] }]],
  'get_references (depth 2)': [(i) => ['get_references', { symbol_name: refs[i % 6], depth: 2 }], (i) => ['get_references', { symbol: refs[i % 6], depth: 2 }]],
  get_blast_radius: [(i) => ['get_blast_radius', { symbol_name: refs[i % 6], max_depth: 2 }], (i) => ['get_blast_radius', { symbols: [refs[i % 6]], max_depth: 2 }]],
  codegraph_query: [(i) => ['codegraph_query', { query: tasks[i % 6], include_snippets: true }], (i) => ['codegraph_query', { query: tasks[i % 6] }]],
  'get_context (3500, signatures)': [(i) => ['get_context', { query: tasks[i % 6], token_budget: 3500, include_signatures_only: true, expansion_depth: 1 }],
    (i) => ['get_context', { query: tasks[i % 6] }]],
  'get_context (Bombe defaults: 8000, sources, depth 2) vs old default': [(i) => ['get_context', { query: tasks[i % 6] }], (i) => ['get_context', { query: tasks[i % 6] }]],
};
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: Math.round(s[Math.floor(s.length / 2)] * 100) / 100, p95: Math.round(s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] * 100) / 100 };
};
const out = {};
for (const [name, [nw, ol]] of Object.entries(pairs)) {
  const a = [];
  const b = [];
  for (const [h, f] of [[n, nw], [o, ol]]) await h.call(...f(99));
  for (let i = 0; i < calls; i++) {
    for (const [h, f, xs] of (i % 2 ? [[n, nw, a], [o, ol, b]] : [[o, ol, b], [n, nw, a]])) {
      const t = performance.now();
      const r = await h.call(...f(i));
      xs.push(performance.now() - t);
      if (r.isError && r.structuredContent?.error_type !== 'empty_results' && r.structuredContent?.status !== 'empty_results') throw new Error(`${name}: ${r.content[0].text.slice(0, 200)}`);
    }
  }
  out[name] = { new: stats(a), old: stats(b), ratioP50: Math.round((stats(a).p50 / stats(b).p50) * 100) / 100 };
  console.log(name.padEnd(70), JSON.stringify(out[name]));
}
n.live.close();
o.live.close();
console.log(JSON.stringify(out));
