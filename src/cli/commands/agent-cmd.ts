import type { Command } from 'commander';
import { examples, parseIntInRange } from '../args.js';
import { cgHome } from '../../registry/home.js';

export const DEFAULT_AGENT_PORT = 7411;

export function registerAgent(program: Command): void {
  program
    .command('agent')
    .description('the always-on persistence agent: watches every registered project and keeps its index fresh (through the '
      + "project's change log and a job queue that survives kill -9), writes a heartbeat with health metrics, and serves "
      + `registry-mode MCP to many agents over Streamable HTTP on 127.0.0.1 (registry: ${cgHome()})`)
    .option('--http <port>', `port on 127.0.0.1 for MCP over Streamable HTTP (0 picks a free one)`, String(DEFAULT_AGENT_PORT))
    .option('--no-http', 'do not serve MCP over HTTP (watch and index only)')
    .option('--debounce <ms>', 'wait this long after the last change in a project before applying (50-60000)', '1000')
    .option('--heartbeat <seconds>', 'how often to write the heartbeat and collect expired sessions (1-3600)', '30')
    .addHelpText('after', examples(['cg agent', 'cg agent --http 7777']))
    .action(async (opts: { http: string | false; debounce: string; heartbeat: string }) => {
      const { serveRegistry } = await import('../../registry/agent.js');
      await serveRegistry({
        http: opts.http === false ? null : parseIntInRange('--http', opts.http, 0, 65535),
        watch: true,
        debounceMs: parseIntInRange('--debounce', opts.debounce, 50, 60_000),
        heartbeatSeconds: parseIntInRange('--heartbeat', opts.heartbeat, 1, 3600),
      });
    });
}
