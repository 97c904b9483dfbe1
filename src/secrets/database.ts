import Database from 'better-sqlite3';
import { CgError } from '../errors.js';
import { Allowlist } from './allowlist.js';
import { repoPolicy } from './read.js';
import { mayHoldSecret, scanSecrets } from './scan.js';
import { documentTerms } from '../store/postings.js';

/** No rule finds a secret shorter than this (credential-assignment's 6 characters). */
const MIN_SECRET = 6;

/** A credential found in a stored database (a snapshot's, before it is trusted). */
export interface StoredSecret {
  table: string;
  /** The file the rows belong to ('' for rows of no file: meta). */
  path: string;
  rule: string;
  fingerprint: string;
}

/**
 * Scans every text value of every ordinary table of an index database with the rule set, each value
 * under the path of the file its row belongs to (so the allowlist's fingerprints, which name the file,
 * apply as they did at index time). An index cg wrote holds none: its texts were scrubbed before they
 * were stored. A database that holds one was written by something else, or by a cg with other rules
 * or another allowlist, and `cg snapshot verify` refuses it. The full-text table is contentless (it
 * stores terms, not text) and BLOBs (vectors) hold no text, so neither is read.
 */
export function findSecretsInDatabase(file: string, allow: Allowlist): StoredSecret[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const has = (t: string) => !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t);
    const paths = new Map<number, string>();
    if (has('files')) for (const [id, p] of db.prepare('SELECT id, path FROM files').raw().all() as [number, string][]) paths.set(id, p);
    // Rows of a symbol (its search terms) belong to the symbol's file.
    const symbolFile = new Map<number, string>();
    if (has('symbols')) {
      for (const [id, f] of db.prepare('SELECT id, file_id FROM symbols').raw().all() as [number, number][]) symbolFile.set(id, paths.get(f) ?? '');
    }
    // A search term is stored once (src/store/postings.ts): it belongs to every file that holds it
    // (read only when a term needs scanning under its files' paths).
    let termPaths: Map<string, Set<string>> | null = null;
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'
      AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts_%' ORDER BY name`).pluck().all() as string[];
    const out: StoredSecret[] = [];
    // Most stored texts repeat (names, kinds, a call's name in every file that makes it): SQLite lists
    // each column's distinct texts, each is checked once under no path (mayHoldSecret: a superset of
    // every path's findings), and only a text that check flags is scanned under the paths of the rows
    // holding it. A text in several columns is checked once; long ones are rarely repeated and not kept.
    const verdicts = new Map<string, boolean>();
    const mayHold = (text: string): boolean => {
      let v = verdicts.get(text);
      if (v === undefined) {
        v = mayHoldSecret(text, allow);
        if (text.length <= 512) verdicts.set(text, v);
      }
      return v;
    };
    const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
    for (const table of tables) {
      const cols = (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]);
      const owner = cols.includes('file_id') ? 'file_id' : cols.includes('path') ? 'path' : cols.includes('symbol_id') ? 'symbol_id' : null;
      const ownersOf = (col: string, value: string): string[] => {
        if (table === 'terms' && col === 'term') {
          termPaths ??= termOwners(db, paths, symbolFile);
          return [...termPaths.get(value) ?? ['']];
        }
        if (owner === null) return [''];
        const keys = db.prepare(`SELECT DISTINCT ${quote(owner)} FROM ${quote(table)} WHERE ${quote(col)} = ?`).pluck().all(value) as unknown[];
        return [...new Set(keys.map((k) => (owner === 'file_id' ? paths.get(k as number) ?? '' : owner === 'path' ? String(k)
          : symbolFile.get(k as number) ?? '')))];
      };
      // Texts wherever they are stored (a column declared INTEGER can hold one too); bytes, not characters,
      // against the shortest secret, so no text JavaScript counts as long enough is left out.
      for (const col of cols) {
        const values = db.prepare(`SELECT DISTINCT ${quote(col)} FROM ${quote(table)} WHERE typeof(${quote(col)}) = 'text'
          AND length(CAST(${quote(col)} AS BLOB)) >= ${MIN_SECRET}`).pluck().iterate() as Iterable<string>;
        const flagged: [string, string[]][] = [];
        for (const v of values) {
          if (v.length < MIN_SECRET) continue;
          // Each value on its own, as it was stored: joined values could read as `name: value` pairs no file held.
          const texts = sourceTexts(v).filter((text) => text.length >= MIN_SECRET && mayHold(text));
          if (texts.length) flagged.push([v, texts]);
        }
        // After the column's scan: the connection runs one statement at a time.
        for (const [v, texts] of flagged) {
          for (const p of ownersOf(col, v)) {
            for (const text of texts) for (const f of scanSecrets(p, text, allow)) out.push({ table, path: p, rule: f.rule, fingerprint: f.fingerprint });
          }
        }
      }
    }
    return out;
  } finally {
    db.close();
  }
}

/**
 * The pieces of source text a stored value holds: a JSON list or object (a symbol's parameters, an
 * import's names, a reference's details) holds one per string in it, scanned apart as the file's text
 * was; anything else is one piece. Read as one string, the JSON's own quotes made secrets of code:
 * `["self","key","default=NO_ARG"]`, sqlalchemy's `pop(self, key, default=NO_ARG)`, reads as a quoted
 * value assigned to a key.
 */
function sourceTexts(v: string): string[] {
  if (v[0] !== '[' && v[0] !== '{') return [v];
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    return [v];
  }
  const out: string[] = [];
  const visit = (x: unknown) => {
    if (typeof x === 'string') out.push(x);
    else if (Array.isArray(x)) x.forEach(visit);
    else if (x && typeof x === 'object') Object.values(x).forEach(visit);
  };
  visit(parsed);
  return out;
}

/** Each search term → the paths of the files (and of the units' files) that hold it; none when the postings do not decode. */
function termOwners(db: Database.Database, paths: Map<number, string>, symbolFile: Map<number, string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  try {
    for (const [c, pathOf] of [['files', paths], ['units', symbolFile]] as const) {
      for (const [doc, terms] of documentTerms(db, c)) {
        const p = pathOf.get(doc) ?? '';
        for (const [t] of terms) (out.get(t) ?? out.set(t, new Set()).get(t)!).add(p);
      }
    }
  } catch {
    // Damaged postings (the database check refuses those): every term is scanned under no path.
    out.clear();
  }
  return out;
}

/**
 * For `cg snapshot verify` (and restore, which verifies first): refuses a snapshot whose database
 * holds a credential. The repository's allowlist applies when the repository is known.
 */
export function refuseStoredSecrets(snapshot: string, dbFile: string, root?: string): void {
  const found = findSecretsInDatabase(dbFile, root ? repoPolicy(root).allow : Allowlist.empty());
  if (!found.length) return;
  const list = found.slice(0, 5).map((f) => `${f.rule} in ${f.table}${f.path ? ` (${f.path})` : ''}, fingerprint ${f.fingerprint}`).join('; ');
  throw new CgError('snapshot_invalid', `The snapshot ${snapshot} holds ${found.length} credential(s) in its database: ${list}${found.length > 5 ? '; …' : ''}`,
    'Do not share or restore it. Build the index again with this cg (`cg index`, which redacts credentials) and create a new snapshot; '
    + 'if a finding is a false positive, add its fingerprint to .cgsecrets first.', { reason: 'secrets' });
}
