import type { Command } from 'commander';
import { CLIENTS, clientConfig, type Client } from '../../mcp/client-config.js';
import { emit } from '../output.js';
import { examples, REPO_FLAG, REPO_HELP, repoRoot, usageError } from '../args.js';
import { DEFAULT_TOOLSETS, parseToolsets } from '../../mcp/registry.js';

export function registerMcpConfig(program: Command): void {
  program
    .command('mcp-config')
    .description(`print the MCP configuration that runs \`cg serve\` for this repository: ${CLIENTS.join(', ')} (default claude)`)
    .argument('[client]', CLIENTS.join(' | '), 'claude')
    .option(REPO_FLAG, REPO_HELP)
    .option('--toolsets <list>', 'the toolsets the server offers: default, codegrapher, bombe, codemem, analysis, all (comma-separated)', DEFAULT_TOOLSETS.join(','))
    .option('--absolute', 'name this Node and this cg by path (for a user-scoped configuration on this machine; never commit it)')
    .option('--json', 'print JSON: {client, file, json, command}')
    .addHelpText('after', examples(['cg mcp-config', 'cg mcp-config vscode --toolsets default,bombe --json', 'cg mcp-config cursor --absolute   # a checkout that is not on PATH']))
    .action(async (client: string, opts: { repo?: string; absolute?: boolean; json?: boolean; toolsets: string }) => {
      if (!(CLIENTS as readonly string[]).includes(client)) {
        throw usageError(`Unknown MCP client "${client}"`, `Use one of: ${CLIENTS.join(', ')}.`);
      }
      const toolsets = parseToolsets(opts.toolsets);
      // The tools are declared with the server: loaded here only to check the names.
      await import('../../mcp/tools/index.js');
      const { toolsFor } = await import('../../mcp/registry.js');
      toolsFor(toolsets);
      const cfg = clientConfig(client as Client, repoRoot(opts), { absolute: opts.absolute, toolsets });
      emit(opts, cfg, (c) => [
        ...(c.command ? ['# install with:', c.command, ''] : []),
        `# or put this in ${c.file}:`,
        JSON.stringify(c.json, null, 2),
      ].join('\n'));
    });
}
