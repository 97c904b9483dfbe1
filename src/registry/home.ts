import os from 'node:os';
import path from 'node:path';

/**
 * Where the global registry lives: `$CG_HOME` when set, else `$XDG_DATA_HOME/codegrapher`, else
 * `~/.local/share/codegrapher` (the XDG default). It holds the registry database, the agent's
 * heartbeat and its log; every project's index stays in that project's own `.codegraph/`.
 */
export function cgHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CG_HOME) return path.resolve(env.CG_HOME);
  const data = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
  return path.join(data, 'codegrapher');
}

export const REGISTRY_FILE = 'registry.db';
export const HEARTBEAT_FILE = 'agent.heartbeat.json';
export const AGENT_LOG = 'agent.log';
