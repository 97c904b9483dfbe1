import type Database from 'better-sqlite3';
import type { SignalLocation } from './query.js';
import { isLibraryPath, parseSignals } from './signals.js';

const NAMED_KINDS = "('function', 'method', 'class', 'struct', 'interface', 'trait', 'enum', 'endpoint')";

/**
 * The repository places a stack trace, test output, log, profile or coverage text names, ready for a
 * query: the CLI reads the text from a file, the MCP server takes it as an argument. A reference to a
 * line past the end of its file is stale, as one to a file that is gone.
 */
export function signalsFromText(db: Database.Database, root: string, text: string): SignalLocation[] {
  const loc = new Map(db.prepare('SELECT path, loc FROM files').raw().all() as [string, number][]);
  const files = new Set(loc.keys());
  const named = db.prepare(`SELECT DISTINCT s.name, s.qualified_name, f.path FROM symbols s JOIN files f ON f.id = s.file_id
    WHERE s.name = ? COLLATE NOCASE AND s.kind IN ${NAMED_KINDS}`).raw();
  const symbolFiles = (name: string): string[] => {
    const last = name.slice(name.lastIndexOf('.') + 1);
    const rows = named.all(last) as [string, string, string][];
    // `save_user` matches by name; `UserService.save` (or `app.views.save_user`) by the end of the qualified name.
    return [...new Set(rows.filter(([n, qn]) => n === last && (name === last || `.${name}`.endsWith(`.${qn}`) || qn === name
      || `.${qn}`.endsWith(`.${name}`))).map((r) => r[2]))];
  };
  // A frame in an installed library is neither a seed nor stale: it is simply not the repository's code.
  return parseSignals(text, { root, files, symbolFiles }).filter((r) => r.exists || !isLibraryPath(r.path))
    .map((r) => (r.exists && r.line !== null && r.line > (loc.get(r.path) ?? Infinity) ? { ...r, exists: false } : r));
}
