import type { Command } from 'commander';
import { CgError } from '../../errors.js';
import { DEFAULT_IDLE_RELEASE_SECONDS } from '../../mcp/idle.js';
import { examples, parseIntInRange, PATH_HELP, REPO_FLAG, REPO_HELP, repoRoot, type RepoOptions } from '../args.js';
import { DEFAULT_TOOLSETS, parseToolsets } from '../../mcp/registry.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('MCP server over stdio for AI agents: the tools of the PRD (codegraph_query), Bombe (search_symbols, get_references, '
      + 'get_context, get_structure, get_blast_radius), CodeMem (search, symbols, references, file_context, impact, status) and '
      + 'tests_for, and the analyses (dead_code, cycles, communities, co_change, complexity, ownership), in toolsets; answers from the newest index '
      + 'without restarts, restores or builds one when there is none')
    .argument('[path]', PATH_HELP)
    .option(REPO_FLAG, REPO_HELP)
    .option('--toolsets <list>', 'comma-separated toolsets to serve: default, codegrapher, bombe, codemem, analysis, all', DEFAULT_TOOLSETS.join(','))
    .option('--no-auto-index', 'with no usable index and no snapshot to restore, do not build one in the background')
    .option('--no-warm', 'do not load the tokenizer and embedding model at start (lower idle memory; the first query pays)')
    .option('--no-watch', 'do not watch the working tree for saves (then edits reach the index through the git hooks, '
      + 'the agent\'s edit hook, `cg notify` or `cg update`)')
    .option('--idle-release <seconds>', 'after this many seconds without a request, give back the token encoding and the '
      + 'embedding model (~140 MiB; the next query reloads them in ~0.3 s); 0 keeps them', String(DEFAULT_IDLE_RELEASE_SECONDS))
    .option('--registry', 'registry mode over stdio: every registered project, each call checked against a session (CG_SESSION, or session_id)')
    .option('--http <port>', 'registry mode over MCP Streamable HTTP on 127.0.0.1:PORT, for many agents at once (0 picks a free port)')
    .addHelpText('after', examples(['cg serve', 'cg serve --repo "$PWD" --toolsets default,bombe --no-warm', 'cg mcp-config   # the client configuration that starts it',
      'cg serve --http 7777   # every registered project, for many agents']))
    .action(async (dir: string | undefined, opts: RepoOptions & { warm: boolean; watch: boolean; idleRelease: string; toolsets: string; autoIndex: boolean;
      registry?: boolean; http?: string }) => {
      if (opts.registry || opts.http !== undefined) {
        if (dir || opts.repo) throw new CgError('usage', 'Registry mode serves every registered project; it takes no path', 'Register projects with `cg project add PATH`.');
        const { serveRegistry } = await import('../../registry/agent.js');
        await serveRegistry({ http: opts.http === undefined ? null : parseIntInRange('--http', opts.http, 0, 65535), watch: false, stdio: !!opts.registry });
        return;
      }
      const seconds = Number(opts.idleRelease);
      if (!/^\d+(\.\d+)?$/.test(opts.idleRelease) || !Number.isFinite(seconds)) {
        throw new CgError('usage', `--idle-release takes a number of seconds, not "${opts.idleRelease}"`,
          'Use e.g. --idle-release 300, or 0 to keep the query path loaded.');
      }
      const root = repoRoot(opts, dir);
      // Imported here so other commands do not load the MCP SDK.
      const { serveStdio } = await import('../../mcp/server.js');
      const { toolsFor } = await import('../../mcp/registry.js');
      const toolsets = parseToolsets(opts.toolsets);
      toolsFor(toolsets); // an unknown toolset is a usage error before the server starts
      await serveStdio(root, { warm: opts.warm, watch: opts.watch, idleReleaseSeconds: seconds, toolsets, autoIndex: opts.autoIndex });
    });
}
