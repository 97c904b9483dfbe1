import type Database from 'better-sqlite3';
import { documentTerms, postingsProblem, type PostingsCollection } from './postings.js';

/**
 * The index's content without its internal ids: every row keyed by paths and qualified names, sorted.
 * Two indexes of the same tree are equal exactly when their dumps are, however each was built
 * (a full build, or any sequence of incremental updates).
 */
export interface IndexDump {
  files: unknown[][];
  symbols: unknown[][];
  imports: unknown[][];
  refs: unknown[][];
  edges: unknown[][];
  skipped: unknown[][];
  secrets: unknown[][];
  /** Search postings: per file and per function (src/retrieve/terms.ts), with their token counts. */
  fileTerms: unknown[][];
  unitTerms: unknown[][];
  /** Null per collection when its two directions (term → documents, document → terms) hold the same postings. */
  postingsProblems: (string | null)[];
  /** The contentless full-text table cannot be read back: its per-row token counts and its totals stand in for it. */
  ftsSizes: unknown[][];
  ftsTotals: unknown[][];
}

export function dumpIndex(db: Database.Database): IndexDump {
  const rows = (sql: string) => (db.prepare(sql).raw().all() as unknown[][]).map((r) => r.map((v) => v ?? null));
  const sorted = (xs: unknown[][]) => xs.map((x) => JSON.stringify(x)).sort().map((x) => JSON.parse(x) as unknown[]);
  // A symbol's key: file, qualified name, kind, start line (unique within a file).
  const key = (alias: string, fileAlias: string) =>
    `${fileAlias}.path || ':' || ${alias}.qualified_name || ':' || ${alias}.kind || ':' || ${alias}.start_line`;
  return {
    files: sorted(rows('SELECT path, language, hash, size, loc, partial, error_count, is_test, warnings FROM files')),
    symbols: sorted(rows(`SELECT ${key('s', 'f')}, s.name, s.signature, s.doc, s.params, s.visibility, s.is_async,
        s.is_static, s.mutates, s.annotations, s.exported, s.is_test, s.in_error, s.scoped, s.end_line,
        CASE WHEN p.id IS NULL THEN NULL ELSE ${key('p', 'pf')} END
      FROM symbols s JOIN files f ON f.id = s.file_id
      LEFT JOIN symbols p ON p.id = s.parent_id LEFT JOIN files pf ON pf.id = p.file_id`)),
    imports: sorted(rows(`SELECT f.path, i.module, i.names, i.alias, i.wildcard, i.reexport, i.line, i.in_error, i.resolution
      FROM imports i JOIN files f ON f.id = i.file_id`)),
    refs: sorted(rows(`SELECT f.path, ${key('s', 'sf')}, r.kind, r.name, r.receiver, r.receiver_type, r.line, r.in_error, r.resolution
      FROM refs r JOIN files f ON f.id = r.file_id JOIN symbols s ON s.id = r.symbol_id JOIN files sf ON sf.id = s.file_id`)),
    edges: sorted(rows(`SELECT ${key('s', 'sf')}, CASE WHEN d.id IS NULL THEN NULL ELSE ${key('d', 'df')} END, e.kind,
        e.confidence, e.line, f.path, e.target
      FROM edges e JOIN symbols s ON s.id = e.src_id JOIN files sf ON sf.id = s.file_id
      LEFT JOIN symbols d ON d.id = e.dst_id LEFT JOIN files df ON df.id = d.file_id JOIN files f ON f.id = e.file_id`)),
    skipped: sorted(rows('SELECT path, reason, detail, language, hash FROM skipped WHERE is_dir = 0')),
    secrets: sorted(rows('SELECT path, rule, line, fingerprint FROM secret_findings')),
    fileTerms: sorted(postingRows(db, 'files', 'SELECT f.path, f.tokens FROM files f WHERE f.id = ?')),
    unitTerms: sorted(postingRows(db, 'units', `SELECT ${key('s', 'f')}, s.tokens FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id = ?`)),
    // Both directions of the postings must agree: a term's documents are the documents that hold the term.
    postingsProblems: [postingsProblem(db, 'files'), postingsProblem(db, 'units')],
    ftsSizes: sorted(rows(`SELECT ${key('s', 'f')}, hex(d.sz) FROM symbol_fts_docsize d
      LEFT JOIN symbols s ON s.id = d.id LEFT JOIN files f ON f.id = s.file_id`)),
    ftsTotals: [ftsTotals(db)],
  };
}

/** A collection's postings as rows: the document's columns (by `docSql`), then term and tf. */
function postingRows(db: Database.Database, c: PostingsCollection, docSql: string): unknown[][] {
  const doc = db.prepare(docSql).raw();
  const out: unknown[][] = [];
  for (const [id, terms] of documentTerms(db, c)) {
    const cols = (doc.get(id) as unknown[] | undefined) ?? [null, null];
    for (const [term, tf] of terms) out.push([...cols, term, tf]);
  }
  return out;
}

/**
 * The full-text table's totals (rows, then tokens per column), which BM25 reads: FTS5's averages
 * record, a run of SQLite varints. A table that never held a row has no record; that reads as zeros.
 */
function ftsTotals(db: Database.Database): number[] {
  const block = db.prepare('SELECT block FROM symbol_fts_data WHERE id = 1').pluck().get() as Buffer | undefined;
  const out: number[] = [];
  for (let i = 0; block && i < block.length;) {
    let v = 0;
    for (let n = 0; i < block.length; n++) {
      const b = block[i++];
      if (n === 8) {
        v = v * 256 + b;
        break;
      }
      v = v * 128 + (b & 0x7f);
      if (!(b & 0x80)) break;
    }
    out.push(v);
  }
  while (out.length && out[out.length - 1] === 0) out.pop();
  return out.every((x) => x === 0) ? [] : out;
}
