import path from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';

/**
 * Configuration snippets for MCP clients. By default they go into project-scoped files a team
 * commits (.mcp.json, .cursor/mcp.json, .vscode/mcp.json), so they name no machine path: the command
 * is `cg` from PATH, and the repository is the client's working directory (Claude Code starts servers
 * in the project) or its `${workspaceFolder}` (Cursor, VS Code). `absolute` gives this Node and this
 * checkout's bin/cg.js by path instead, for a user-scoped file on one machine only (a checkout not on
 * PATH), never for a committed one.
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

const WORKSPACE = '${workspaceFolder}';

/** `toolsets`: the `cg serve --toolsets` list; the default set is left implicit. */
export function serveCommand(root: string, client: Client, absolute: boolean, toolsets: readonly string[] = []): { command: string; args: string[] } {
  const sets = toolsets.length && toolsets.join(',') !== 'default' ? ['--toolsets', toolsets.join(',')] : [];
  if (absolute) {
    const cgJs = path.join(PACKAGE_ROOT, 'bin', 'cg.js');
    return { command: process.execPath, args: [cgJs, 'serve', '--repo', root, ...sets] };
  }
  return { command: 'cg', args: [...(client === 'claude' ? ['serve'] : ['serve', '--repo', WORKSPACE]), ...sets] };
}

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function clientConfig(client: Client, root: string, opts: { absolute?: boolean; toolsets?: readonly string[] } = {}): ClientConfig {
  const absolute = !!opts.absolute;
  const { command, args } = serveCommand(root, client, absolute, opts.toolsets);
  const server = { command, args };
  switch (client) {
    case 'claude':
      return { client, file: absolute ? '~/.claude.json (user scope; `claude mcp add --scope user` writes it)' : '.mcp.json (project scope; `claude mcp add` writes it)',
        json: { mcpServers: { cg: server } },
        command: `claude mcp add --scope ${absolute ? 'user' : 'project'} cg -- ${[command, ...args].map(quote).join(' ')}` };
    case 'cursor':
      return { client, file: absolute ? '~/.cursor/mcp.json (this machine only)' : '.cursor/mcp.json (or ~/.cursor/mcp.json for every project)',
        json: { mcpServers: { cg: server } }, command: null };
    case 'vscode':
      return { client, file: absolute ? 'your user mcp.json (MCP: Open User Configuration)' : '.vscode/mcp.json',
        json: { servers: { cg: { type: 'stdio', ...server } } },
        command: `code --add-mcp ${quote(JSON.stringify({ name: 'cg', type: 'stdio', ...server }))}` };
  }
}
