import type Database from 'better-sqlite3';
import type { SignalLocation } from './query.js';
import { isLibraryPath, parseSignals } from './signals.js';

/**
 * The repository places a stack trace, test output or log text names, ready for a query: the CLI reads
 * the text from a file, the MCP server takes it as an argument.
 */
export function signalsFromText(db: Database.Database, root: string, text: string): SignalLocation[] {
  const files = new Set(db.prepare('SELECT path FROM files').pluck().all() as string[]);
  // A frame in an installed library is neither a seed nor stale: it is simply not the repository's code.
  return parseSignals(text, { root, files }).filter((r) => r.exists || !isLibraryPath(r.path));
}
