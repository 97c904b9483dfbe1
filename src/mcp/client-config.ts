import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Configuration snippets for MCP clients. The command is this Node and this checkout's bin/cg.js by
 * absolute path, so the snippet works whether or not `cg` is on the client's PATH.
 */
export const CLIENTS = ['claude', 'cursor', 'vscode'] as const;
export type Client = (typeof CLIENTS)[number];

export interface ClientConfig {
  client: Client;
  /** Where the JSON goes. */
  file: string;
  json: Record<string, unknown>;
  /** A command that installs it, where the client has one. */
  command: string | null;
}

/** `toolsets`: the `cg serve --toolsets` list; the default set is left implicit. */
export function serveCommand(root: string, toolsets: readonly string[] = []): { command: string; args: string[] } {
  const cgJs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'cg.js');
  const sets = toolsets.length && toolsets.join(',') !== 'default' ? ['--toolsets', toolsets.join(',')] : [];
  return { command: process.execPath, args: [cgJs, 'serve', root, ...sets] };
}

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function clientConfig(client: Client, root: string, toolsets: readonly string[] = []): ClientConfig {
  const { command, args } = serveCommand(root, toolsets);
  const server = { command, args };
  switch (client) {
    case 'claude':
      return { client, file: '.mcp.json (project scope; `claude mcp add` writes it)', json: { mcpServers: { cg: server } },
        command: `claude mcp add --scope project cg -- ${[command, ...args].map(quote).join(' ')}` };
    case 'cursor':
      return { client, file: '.cursor/mcp.json (or ~/.cursor/mcp.json for every project)', json: { mcpServers: { cg: server } }, command: null };
    case 'vscode':
      return { client, file: '.vscode/mcp.json', json: { servers: { cg: { type: 'stdio', ...server } } },
        command: `code --add-mcp ${quote(JSON.stringify({ name: 'cg', type: 'stdio', ...server }))}` };
  }
}
