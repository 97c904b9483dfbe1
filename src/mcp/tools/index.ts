import { declareToolset } from '../registry.js';

/**
 * The toolsets, then the tools that fill them. `default` is small enough for an agent to choose well
 * (its tools/list size is measured in eval/results/bench-mcp.json); each spec's set serves that spec's
 * clients unchanged; `all` (implicit) serves every tool. Tools of other parts join with declareTools.
 */
declareToolset({ name: 'default', description: 'the tools an agent needs most: find code for a task, name symbols, references, blast radius, tests for a change' });
declareToolset({ name: 'codegrapher', description: "CodeGrapher's own: the PRD's codegraph_query and tests_for" });
declareToolset({ name: 'bombe', description: "Bombe §5's five tools: search_symbols, get_references, get_context, get_structure, get_blast_radius" });
declareToolset({ name: 'codemem', description: "CodeMem Appendix E's single-project tools: search, symbols, references, file_context, impact, status" });
declareToolset({ name: 'analysis', description: 'whole-repository analyses: dead_code, cycles, communities, co_change, complexity, ownership (as `cg analyze`)' });

await import('./prd.js');
await import('./bombe.js');
await import('./codemem.js');
await import('./native.js');
await import('./analysis.js');
