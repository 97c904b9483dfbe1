import type { Command } from 'commander';
import { findRoot } from '../../repo/root.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('MCP server over stdio for AI agents (codegraph_query, get_context, search_symbols, get_references, '
      + 'file_context, tests_for, get_blast_radius, get_structure, status); answers from the newest index without restarts')
    .argument('[path]', 'repository (default: the one containing the current directory)')
    .option('--no-warm', 'do not load the tokenizer and embedding model at start (lower idle memory; the first query pays)')
    .action(async (dir: string | undefined, opts: { warm: boolean }) => {
      const root = findRoot(dir ?? process.cwd());
      // Imported here so other commands do not load the MCP SDK.
      const { serveStdio } = await import('../../mcp/server.js');
      await serveStdio(root, { warm: opts.warm });
    });
}
