import os from 'node:os';
import path from 'node:path';

/**
 * The agents `cg install` wires cg's MCP server into, as declarations: where each keeps its MCP
 * servers (per scope), in which format, under which key, and how the server it starts finds the
 * repository. Each entry follows the client's own documentation (README, "Agent wiring").
 *
 * How `cg serve` finds the repository, per client and scope:
 *   - `cwd`: the client starts servers in the project folder (Claude Code, Codex CLI, Gemini CLI,
 *     Zed), so the entry is just `cg serve`, the same on every machine;
 *   - `workspace`: the client expands `${workspaceFolder}` in arguments (VS Code, Cursor);
 *   - `absolute`: the client starts servers elsewhere (Cline starts them in `/`) or its docs name no
 *     folder (Windsurf, Continue's user file): the entry names this repository by path, which only a
 *     user-scoped file (never a team's) may hold.
 */
export const CLIENT_IDS = ['claude', 'cursor', 'vscode', 'windsurf', 'zed', 'codex', 'gemini', 'cline', 'continue'] as const;
export type ClientId = (typeof CLIENT_IDS)[number];
export const SCOPES = ['project', 'user'] as const;
export type Scope = (typeof SCOPES)[number];

/** How the entry is stored: a key inside a JSON(C) object, a TOML table, or a file of its own (YAML). */
export type Format = 'json' | 'toml' | 'yaml-file';
export type RepoArg = 'cwd' | 'workspace' | 'absolute';

export interface ScopeTarget {
  /** The config file: repo-relative for project scope, absolute for user scope. */
  file: string;
  repoArg: RepoArg;
}

export interface ClientDecl {
  id: ClientId;
  name: string;
  format: Format;
  /** Where the server entry sits inside the file (JSON: object keys; TOML: the table's dotted name). */
  key: string[];
  /** The entry for a server `command args…` (each client's own field names). */
  entry(command: string, args: string[]): Record<string, unknown>;
  scopes: Partial<Record<Scope, ScopeTarget>>;
  /** The documentation page the format follows. */
  docs: string;
}

/** The directory a desktop application keeps its per-user settings in (Electron's appData). */
function appData(): string {
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support');
  if (process.platform === 'win32') return process.env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming');
  return process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
}

const home = (...parts: string[]) => path.join(os.homedir(), ...parts);
const stdio = (command: string, args: string[]) => ({ command, args });

/** Declarations are functions of the environment (HOME, platform), so tests can point them at a temporary home. */
export function clientDecls(): Record<ClientId, ClientDecl> {
  const vscodeUser = path.join(appData(), 'Code', 'User');
  return {
    claude: {
      id: 'claude', name: 'Claude Code', format: 'json', key: ['mcpServers', 'cg'], entry: stdio,
      // Project scope is the shared .mcp.json; user scope is the top-level mcpServers of ~/.claude.json.
      scopes: { project: { file: '.mcp.json', repoArg: 'cwd' }, user: { file: home('.claude.json'), repoArg: 'cwd' } },
      docs: 'https://code.claude.com/docs/en/mcp',
    },
    cursor: {
      id: 'cursor', name: 'Cursor', format: 'json', key: ['mcpServers', 'cg'], entry: stdio,
      scopes: { project: { file: '.cursor/mcp.json', repoArg: 'workspace' }, user: { file: home('.cursor', 'mcp.json'), repoArg: 'workspace' } },
      docs: 'https://cursor.com/docs/context/mcp',
    },
    vscode: {
      id: 'vscode', name: 'VS Code', format: 'json', key: ['servers', 'cg'], entry: (command, args) => ({ type: 'stdio', command, args }),
      scopes: { project: { file: '.vscode/mcp.json', repoArg: 'workspace' }, user: { file: path.join(vscodeUser, 'mcp.json'), repoArg: 'workspace' } },
      docs: 'https://code.visualstudio.com/docs/copilot/customization/mcp-servers',
    },
    windsurf: {
      id: 'windsurf', name: 'Windsurf', format: 'json', key: ['mcpServers', 'cg'], entry: stdio,
      scopes: { user: { file: home('.codeium', 'windsurf', 'mcp_config.json'), repoArg: 'absolute' } },
      docs: 'https://docs.windsurf.com/windsurf/cascade/mcp',
    },
    zed: {
      id: 'zed', name: 'Zed', format: 'json', key: ['context_servers', 'cg'], entry: stdio,
      scopes: { project: { file: '.zed/settings.json', repoArg: 'cwd' },
        user: { file: path.join(process.platform === 'win32' ? appData() : process.env.XDG_CONFIG_HOME || home('.config'), 'zed', 'settings.json'), repoArg: 'cwd' } },
      docs: 'https://zed.dev/docs/ai/mcp',
    },
    codex: {
      id: 'codex', name: 'Codex CLI', format: 'toml', key: ['mcp_servers', 'cg'], entry: stdio,
      // Codex reads a project's .codex/config.toml only once the project is trusted.
      scopes: { project: { file: '.codex/config.toml', repoArg: 'cwd' }, user: { file: path.join(process.env.CODEX_HOME || home('.codex'), 'config.toml'), repoArg: 'cwd' } },
      docs: 'https://developers.openai.com/codex/mcp',
    },
    gemini: {
      id: 'gemini', name: 'Gemini CLI', format: 'json', key: ['mcpServers', 'cg'], entry: stdio,
      scopes: { project: { file: '.gemini/settings.json', repoArg: 'cwd' }, user: { file: home('.gemini', 'settings.json'), repoArg: 'cwd' } },
      docs: 'https://geminicli.com/docs/tools/mcp-server',
    },
    cline: {
      id: 'cline', name: 'Cline', format: 'json', key: ['mcpServers', 'cg'],
      entry: (command, args) => ({ command, args, disabled: false, autoApprove: [] }),
      scopes: { user: { file: path.join(vscodeUser, 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'), repoArg: 'absolute' } },
      docs: 'https://docs.cline.bot/mcp/configuring-mcp-servers',
    },
    continue: {
      id: 'continue', name: 'Continue', format: 'yaml-file', key: [], entry: stdio,
      // A block file of its own in .continue/mcpServers/: Continue loads every file there. Its docs do
      // not say which folder it starts servers in, so the user file names the repository by path.
      scopes: { project: { file: '.continue/mcpServers/cg.yaml', repoArg: 'cwd' }, user: { file: home('.continue', 'mcpServers', 'cg.yaml'), repoArg: 'absolute' } },
      docs: 'https://docs.continue.dev/customize/deep-dives/mcp',
    },
  };
}

export function isClient(id: string): id is ClientId {
  return (CLIENT_IDS as readonly string[]).includes(id);
}
