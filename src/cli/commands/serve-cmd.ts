import type { Command } from 'commander';
import { CgError } from '../../errors.js';
import { DEFAULT_IDLE_RELEASE_SECONDS } from '../../mcp/idle.js';
import { examples, PATH_HELP, REPO_FLAG, REPO_HELP, repoRoot, type RepoOptions } from '../args.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('MCP server over stdio for AI agents (codegraph_query, get_context, search_symbols, get_references, '
      + 'file_context, tests_for, get_blast_radius, get_structure, status); answers from the newest index without restarts')
    .argument('[path]', PATH_HELP)
    .option(REPO_FLAG, REPO_HELP)
    .option('--no-warm', 'do not load the tokenizer and embedding model at start (lower idle memory; the first query pays)')
    .option('--idle-release <seconds>', 'after this many seconds without a request, give back the token encoding and the '
      + 'embedding model (~140 MiB; the next query reloads them in ~0.3 s); 0 keeps them', String(DEFAULT_IDLE_RELEASE_SECONDS))
    .addHelpText('after', examples(['cg serve', 'cg serve --repo "$PWD" --no-warm', 'cg mcp-config   # the client configuration that starts it']))
    .action(async (dir: string | undefined, opts: RepoOptions & { warm: boolean; idleRelease: string }) => {
      const seconds = Number(opts.idleRelease);
      if (!/^\d+(\.\d+)?$/.test(opts.idleRelease) || !Number.isFinite(seconds)) {
        throw new CgError('usage', `--idle-release takes a number of seconds, not "${opts.idleRelease}"`,
          'Use e.g. --idle-release 300, or 0 to keep the query path loaded.');
      }
      const root = repoRoot(opts, dir);
      // Imported here so other commands do not load the MCP SDK.
      const { serveStdio } = await import('../../mcp/server.js');
      await serveStdio(root, { warm: opts.warm, idleReleaseSeconds: seconds });
    });
}
