import { findRoot } from '../repo/root.js';
import { reportError } from '../cli/output.js';
import { parseToolsets } from './registry.js';
import { serveStdio } from './server.js';

/**
 * `cg serve [PATH | --repo DIR] [--no-warm] [--no-auto-index] [--no-watch] [--toolsets LIST]` without
 * loading the rest of the CLI (commander; the working-tree watcher loads once the server runs): an
 * agent's client starts the server often, and start-up is the time it waits. Any other form (--help,
 * unknown flags, --idle-release) returns false and goes through the full CLI, which says what is wrong.
 */
export async function fastServe(args: string[]): Promise<boolean> {
  const rest: string[] = [];
  let toolsets: string[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--no-warm' || a === '--no-auto-index' || a === '--no-watch') continue;
    if (a === '--toolsets' && i + 1 < args.length) toolsets = parseToolsets(args[++i]);
    else if (a.startsWith('--toolsets=')) toolsets = parseToolsets(a.slice('--toolsets='.length));
    // `--repo DIR`, as `cg mcp-config` writes it, is the same as the positional PATH.
    else if (a === '--repo' && i + 1 < args.length) rest.push(args[++i]);
    else rest.push(a);
  }
  if (rest.length > 1 || rest.some((a) => a.startsWith('-'))) return false;
  try {
    await serveStdio(findRoot(rest[0] ?? process.cwd()), {
      warm: !args.includes('--no-warm'), autoIndex: !args.includes('--no-auto-index'), watch: !args.includes('--no-watch'), toolsets,
    });
  } catch (err) {
    process.exitCode = reportError(err, false);
  }
  return true;
}
