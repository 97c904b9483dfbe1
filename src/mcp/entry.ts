import { findRoot } from '../repo/root.js';
import { reportError } from '../cli/output.js';
import { serveStdio } from './server.js';

/**
 * `cg serve [PATH | --repo DIR] [--no-warm]` without loading the rest of the CLI (commander, the indexer, the
 * watcher): an agent's client starts the server often, and start-up is the time it waits. Any other
 * form (--help, unknown flags) returns false and goes through the full CLI, which says what is wrong.
 */
export async function fastServe(args: string[]): Promise<boolean> {
  let rest = args.filter((a) => a !== '--no-warm');
  // `--repo DIR`, as `cg mcp-config` writes it, is the same as the positional PATH.
  const at = rest.indexOf('--repo');
  if (at >= 0 && at + 1 < rest.length) rest = [...rest.slice(0, at), ...rest.slice(at + 2), rest[at + 1]];
  if (rest.length > 1 || rest.some((a) => a.startsWith('-'))) return false;
  try {
    await serveStdio(findRoot(rest[0] ?? process.cwd()), { warm: !args.includes('--no-warm') });
  } catch (err) {
    process.exitCode = reportError(err, false);
  }
  return true;
}
