import type Database from 'better-sqlite3';
import type { IndexedOutcome, SkippedOutcome } from '../extract/types.js';
import { searchText } from '../retrieve/tokenize.js';
import { registrationTarget } from '../extract/registrations.js';
import { documentTerms, PostingsWriter, type PostingsCollection } from './postings.js';

export interface EdgeRow {
  src: number;
  dst: number | null;
  kind: string;
  confidence: number;
  line: number | null;
  fileId: number;
  target: string | null;
}

export { fileOfSymbol, SYMBOLS_PER_FILE, symbolIdBase } from './symbol-ids.js';
import { SYMBOLS_PER_FILE, symbolIdBase } from './symbol-ids.js';

/**
 * Symbols with a full-text row: not modules (their text is the file's path) nor endpoints (their words
 * are the file's own, and counted again they shift every other term's weight), and only of the
 * repository's files (a dependency's declarations get no search terms: src/indexer/external.ts).
 */
export function hasFullText(kind: string): boolean {
  return kind !== 'module' && kind !== 'endpoint';
}
export const FULL_TEXT_KINDS_SQL = "kind NOT IN ('module', 'endpoint')";

/** The path column of a file's full-text rows. */
export function ftsPathWords(path: string): string {
  return searchText(path.replace(/[/\\]/g, ' '));
}

/**
 * A symbol's full-text row (name, qname, signature, doc, path). Exported because the contentless
 * FTS table cannot be read back: a snapshot regenerates it from the symbol rows with this.
 */
export function symbolFtsText(s: { name: string; qualifiedName: string; signature: string; doc: string | null },
  pathWords: string): [string, string, string, string, string] {
  return [searchText(s.name), searchText(s.qualifiedName.replace(/\./g, ' ')), searchText(s.signature), searchText(s.doc ?? ''), pathWords];
}

/** Postings and full-text rows of symbols that replaceFile left in place (by symbol id). */
interface KeptTextRows {
  units: Set<number>;
  fts: Set<number>;
}

const NOTHING_KEPT: KeptTextRows = { units: new Set(), fts: new Set() };

/**
 * What a full build's call references hold until resolution fills their state in (IndexWriter's
 * `fresh`): a text as wide as the states. Inserted without one, every row grew when its state was
 * written, and SQLite split the pages, leaving 13 % of the refs table's pages empty (Django's refs table
 * is 2.92 MB that way, 2.67 MB this way). No state is this text, and setResolutions clears what
 * resolution left.
 */
const PENDING_RESOLUTION = '(pending)!';

/** Typed inserts for the index tables. */
export class IndexWriter {
  private readonly stmt;
  private readonly touched = { rows: new Set<number>(), edges: new Set<number>() };
  private readonly postings: PostingsWriter;

  /**
   * `fresh`: a full build into an empty database, which resolves every call before it commits: call
   * references go in at about their final width (see PENDING_RESOLUTION).
   */
  constructor(private readonly db: Database.Database, private readonly fresh = false) {
    this.postings = new PostingsWriter(db);
    this.stmt = {
      file: db.prepare(`INSERT INTO files (id, path, language, hash, size, loc, partial, error_count, is_test, warnings, tokens, external, package)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      fts: db.prepare('INSERT INTO symbol_fts (rowid, name, qname, signature, doc, path) VALUES (?, ?, ?, ?, ?, ?)'),
      symbol: db.prepare(`INSERT INTO symbols (id, file_id, parent_id, name, qualified_name, kind, start_line, end_line,
        signature, doc, params, visibility, is_async, is_static, mutates, annotations, exported, is_test, in_error, scoped, tokens)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      importRow: db.prepare(`INSERT INTO imports (file_id, module, names, alias, wildcard, reexport, line, in_error)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      ref: db.prepare(`INSERT INTO refs (file_id, symbol_id, kind, name, receiver, receiver_type, line, in_error, detail)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      call: db.prepare(`INSERT INTO refs (file_id, symbol_id, kind, name, receiver, receiver_type, line, in_error, detail, resolution)
        VALUES (?, ?, 'call', ?, ?, ?, ?, ?, ?, ${fresh ? `'${PENDING_RESOLUTION}'` : 'NULL'})`),
      edge: db.prepare(`INSERT INTO edges (src_id, dst_id, kind, confidence, line, file_id, target) VALUES (?, ?, ?, ?, ?, ?, ?)`),
      skipped: db.prepare(`INSERT OR REPLACE INTO skipped (path, reason, detail, is_dir, language, hash) VALUES (?, ?, ?, ?, ?, ?)`),
      secret: db.prepare(`INSERT INTO secret_findings (path, rule, line, fingerprint) VALUES (?, ?, ?, ?)`),
      meta: db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`),
    };
  }

  /**
   * Stores one file's extraction: the file row, its symbols with contains edges, imports and refs.
   * `ids` gives each symbol's id when an update keeps the ids of symbols that did not change;
   * otherwise ids follow from the file id and the symbol's position. `external` (the package, `zod@3.22.4`)
   * marks a dependency's declaration file (src/indexer/external.ts): it gets no search terms.
   */
  addFile(o: IndexedOutcome, fileId: number, ids?: number[], kept: KeptTextRows = NOTHING_KEPT, external: string | null = null): void {
    const x = o.extract;
    if (x.symbols.length >= SYMBOLS_PER_FILE) throw new Error(`${x.path} has more than ${SYMBOLS_PER_FILE - 1} symbols`);
    this.touched.rows.add(fileId);
    const base = symbolIdBase(fileId);
    const id = ids ? (i: number) => ids[i] : (i: number) => base + i;
    this.stmt.file.run(fileId, x.path, x.language, o.hash, o.size, x.loc, +x.partial, x.errorCount, +x.isTest,
      o.warnings.length ? JSON.stringify(o.warnings) : null, x.terms?.file.tokens ?? 0, +(external !== null), external);
    // A unit's search-term count goes in with its symbol row (src/retrieve/terms.ts).
    const unitTokens = new Map<number, number>();
    for (const u of x.terms?.units ?? []) unitTokens.set(u.symbol, u.counts.tokens);
    x.symbols.forEach((s, i) => {
      const parent = s.parent >= 0 ? id(s.parent) : null;
      this.stmt.symbol.run(id(i), fileId, parent, s.name, s.qualifiedName, s.kind, s.startLine, s.endLine, s.signature,
        s.doc, JSON.stringify(s.params), s.visibility, +s.isAsync, +s.isStatic, JSON.stringify(s.mutates),
        JSON.stringify(s.annotations), +s.exported, +s.isTest, +s.inError, +!!s.scoped, unitTokens.get(i) ?? 0);
      if (parent !== null) this.stmt.edge.run(parent, id(i), 'contains', 1, s.startLine, fileId, null);
    });
    this.addTerms(x, fileId, id, kept);
    for (const imp of x.imports) {
      this.stmt.importRow.run(fileId, imp.module, JSON.stringify(imp.names), imp.alias ?? null, +!!imp.wildcard,
        +!!imp.reexport, imp.line, +imp.inError);
    }
    for (const c of x.calls) {
      this.stmt.call.run(fileId, id(c.caller), c.name, c.receiver, c.receiverType, c.line, +c.inError,
        c.local !== undefined ? `{"local":${c.local}}` : c.receiverHead ? JSON.stringify({ head: c.receiverHead }) : null);
    }
    for (const f of o.secrets ?? []) this.stmt.secret.run(o.path, f.rule, f.line, f.fingerprint);
    for (const h of x.inherits) {
      // For a supertype the receiver column holds the subtype's name when the extraction could not bind it.
      this.stmt.ref.run(fileId, id(h.symbol), h.kind, h.name, h.ownerName ?? null, null, h.line, +h.inError, null);
    }
    for (const r of x.registrations) {
      const detail = { target: registrationTarget(r.kind, r.name), ...(r.handler >= 0 ? { handler: x.symbols[r.handler].qualifiedName } : {}),
        ...(r.callback?.literal ? { literal: true } : {}) };
      this.stmt.ref.run(fileId, id(r.symbol), 'register', r.callback?.name ?? '', r.callback?.receiver ?? null, r.callbackType, r.line,
        +r.inError, JSON.stringify(detail));
    }
    for (const f of x.fires) {
      this.stmt.ref.run(fileId, id(f.symbol), 'fire', f.name, null, null, f.line, +f.inError, JSON.stringify({ target: registrationTarget(f.kind, f.name) }));
    }
    for (const a of x.accesses) {
      this.stmt.ref.run(fileId, id(a.symbol), a.kind, a.name, a.receiver, a.receiverType, a.line, +a.inError, JSON.stringify({ what: a.what }));
    }
    for (const t of x.tables) this.stmt.ref.run(fileId, id(t.symbol), 'table', t.table, null, null, t.line, 0, null);
  }

  addSkipped(path: string, reason: string, detail: string | null, isDir: boolean, language: string | null,
    hash: string | null = null): void {
    this.stmt.skipped.run(path, reason, detail, +isDir, language, hash);
  }

  addSkippedOutcome(o: SkippedOutcome): void {
    this.addSkipped(o.path, o.reason, o.detail, false, o.language, o.hash);
    for (const s of o.secrets ?? []) this.stmt.secret.run(o.path, s.rule, s.line, s.fingerprint);
  }

  /** Postings and full-text rows of a file (see src/retrieve/terms.ts). */
  private addTerms(x: IndexedOutcome['extract'], fileId: number, id: (i: number) => number, kept: KeptTextRows = NOTHING_KEPT): void {
    if (!x.terms) return;
    this.postings.add('files', fileId, x.terms.file.terms);
    for (const u of x.terms.units) {
      const sid = id(u.symbol);
      if (!kept.units.has(sid)) this.postings.add('units', sid, u.counts.terms);
    }
    const pathWords = ftsPathWords(x.path);
    x.symbols.forEach((s, i) => {
      if (!hasFullText(s.kind) || kept.fts.has(id(i))) return;
      this.stmt.fts.run(id(i), ...symbolFtsText(s, pathWords));
    });
  }

  /**
   * A changed file's rows replaced by its new extraction (`ids` as for addFile). A symbol that kept its
   * id and whose postings or full-text row are what they were keeps those rows: an edit changes a few
   * functions of a file, and deleting and re-inserting every posting and full-text row of the rest
   * was most of an update's write step. Everything else is removed and written as addFile writes it.
   */
  replaceFile(o: IndexedOutcome, fileId: number, path: string, ids?: number[]): void {
    const x = o.extract;
    const base = symbolIdBase(fileId);
    const id = ids ? (i: number) => ids[i] : (i: number) => base + i;
    const kept: KeptTextRows = { units: new Set(), fts: new Set() };
    // Postings: the old rows of each symbol against the new list, both in term order (a snapshot's
    // canonical copy stores rows in another order than they were written). Any one order does, so it is
    // JavaScript's own: compareBinary encodes both strings at every comparison (0.36 s of a catch-up's
    // write step on sqlalchemy, 53 large files).
    const byTerm = (a: [string, number], b: [string, number]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
    const fresh = new Map((x.terms?.units ?? []).map((u) => [id(u.symbol), JSON.stringify([...u.counts.terms].sort(byTerm))]));
    for (const [sid, rows] of documentTerms(this.db, 'units', 'main', [base, base + SYMBOLS_PER_FILE])) {
      if (fresh.get(sid) === JSON.stringify(rows.sort(byTerm))) kept.units.add(sid);
      else this.postings.remove('units', sid);
    }
    // Full-text rows: the old text (rebuilt from the old symbol rows) against the new.
    const pathWords = ftsPathWords(x.path);
    const freshText = new Map<number, string>();
    x.symbols.forEach((s, i) => {
      if (hasFullText(s.kind)) freshText.set(id(i), JSON.stringify(symbolFtsText(s, pathWords)));
    });
    this.deleteFts(fileId, (sid, text) => {
      if (freshText.get(sid) !== JSON.stringify(text)) return true;
      kept.fts.add(sid);
      return false;
    });
    this.removeRows(fileId, path);
    this.addFile(o, fileId, ids, kept);
  }

  /** Removes everything stored for a file (rows, its edges, its skip and secret records). */
  removeFile(fileId: number, path: string): void {
    const first = symbolIdBase(fileId);
    this.deleteFts(fileId);
    this.postings.remove('units', first, first + SYMBOLS_PER_FILE);
    this.removeRows(fileId, path);
  }

  /** The file's rows but its postings and full-text rows (removeFile and replaceFile deal with those). */
  private removeRows(fileId: number, path: string): void {
    this.touched.rows.add(fileId);
    this.postings.remove('files', fileId);
    for (const table of ['symbols', 'refs', 'imports', 'edges', 'external_modules']) {
      this.db.prepare(`DELETE FROM ${table} WHERE file_id = ?`).run(fileId);
    }
    this.db.prepare('DELETE FROM files WHERE id = ?').run(fileId);
    this.forgetPath(path);
  }

  /**
   * Removes a file's full-text rows with FTS5's 'delete' command and the rows' original text (rebuilt
   * from the symbols, as addTerms wrote it), which also subtracts their tokens from the table's totals.
   * (Schema 7's contentless_delete table allowed a plain DELETE, which left BM25's document count and
   * average length counting removed rows, so an updated index ranked differently from a full build.)
   */
  private deleteFts(fileId: number, which: (symbolId: number, text: string[]) => boolean = () => true): void {
    const row = this.db.prepare('SELECT path, external FROM files WHERE id = ?').raw().get(fileId) as [string, number] | undefined;
    // An external file has no full-text rows (addFile gave it none): deleting absent rows would corrupt the table.
    if (row === undefined || row[1] === 1) return;
    const file = row[0];
    const rows = this.db.prepare(`SELECT id, name, qualified_name AS qualifiedName, signature, doc FROM symbols
      WHERE file_id = ? AND ${FULL_TEXT_KINDS_SQL} ORDER BY id`).all(fileId) as
      { id: number; name: string; qualifiedName: string; signature: string; doc: string | null }[];
    if (!rows.length) return;
    const del = this.db.prepare(`INSERT INTO symbol_fts (symbol_fts, rowid, name, qname, signature, doc, path)
      VALUES ('delete', ?, ?, ?, ?, ?, ?)`);
    const words = ftsPathWords(file);
    for (const r of rows) {
      const text = symbolFtsText(r, words);
      if (which(r.id, text)) del.run(r.id, ...text);
    }
  }

  /** Drops a path's skip reason and secret findings (before it is recorded afresh). */
  forgetPath(path: string): void {
    this.db.prepare('DELETE FROM skipped WHERE path = ?').run(path);
    this.db.prepare('DELETE FROM secret_findings WHERE path = ?').run(path);
  }

  /**
   * Records how each reference and import of the resolved files was resolved (for statistics). Rows
   * already holding that state are left alone: an update that re-resolves every file changes few.
   */
  setResolutions(refs: Map<number, string>, imports: Map<number, string>, opts: { fresh: boolean } = { fresh: false }): void {
    for (const [table, states] of [['refs', refs], ['imports', imports]] as const) {
      // Reading every row back pays off only for many states; a few are written as they are.
      const now = opts.fresh || states.size < 5000 ? null
        : new Map(this.db.prepare(`SELECT id, resolution FROM ${table}`).raw().all() as [number, string | null][]);
      const update = this.db.prepare(`UPDATE ${table} SET resolution = ? WHERE id = ?`);
      for (const [id, r] of states) if (now?.get(id) !== r) update.run(r, id);
    }
    // A call that resolution did not reach (none in a build, which resolves every file) holds no state, as after an update.
    if (this.fresh) this.db.prepare('UPDATE refs SET resolution = NULL WHERE resolution = ?').run(PENDING_RESOLUTION);
  }

  /**
   * Replaces the resolved edges (all kinds but contains) written in the given files, or in every file
   * when `fileIds` is null, with `edges`, rewriting only the files whose edges differ: after a few
   * files changed, most re-resolved files resolve to the same edges, and deleting and re-inserting
   * them (four B-trees per row) was most of an update's resolve step on large repositories. A file's
   * edges are compared as a multiset, by count and two 32-bit sums of per-row hashes.
   */
  replaceResolvedEdges(edges: EdgeRow[], fileIds: Iterable<number> | null = null): void {
    const rows = (fileIds === null
      ? this.db.prepare("SELECT src_id, dst_id, kind, confidence, line, file_id, target FROM edges WHERE kind != 'contains'").raw().all()
      : this.db.prepare(`SELECT src_id, dst_id, kind, confidence, line, file_id, target FROM edges
          WHERE file_id IN (SELECT value FROM json_each(?)) AND kind != 'contains'`).raw().all(JSON.stringify([...fileIds]))) as
      [number, number | null, string, number, number | null, number, string | null][];
    const before = new EdgeDigests();
    for (const [src, dst, kind, confidence, line, fileId, target] of rows) before.add(fileId, src, dst, kind, confidence, line, target);
    const after = new EdgeDigests();
    const byFile = new Map<number, EdgeRow[]>();
    for (const e of edges) {
      after.add(e.fileId, e.src, e.dst, e.kind, e.confidence, e.line, e.target);
      const list = byFile.get(e.fileId);
      if (list) list.push(e);
      else byFile.set(e.fileId, [e]);
    }
    const del = this.db.prepare("DELETE FROM edges WHERE file_id = ? AND kind != 'contains'");
    for (const f of new Set([...(fileIds ?? before.files()), ...after.files()])) {
      if (before.same(after, f)) continue;
      del.run(f);
      for (const e of byFile.get(f) ?? []) this.stmt.edge.run(e.src, e.dst, e.kind, e.confidence, e.line, e.fileId, e.target);
      this.touched.edges.add(f);
    }
  }

  /**
   * Writes the postings that addFile, replaceFile and removeFile buffered (src/store/postings.ts):
   * call it before the transaction that holds those changes commits.
   */
  flushPostings(): void {
    this.postings.flush();
  }

  /** A document's postings as they are (a snapshot's canonical copy moves them to new ids). */
  addPostings(c: PostingsCollection, doc: number, terms: [string, number][]): void {
    this.postings.add(c, doc, terms);
  }

  addEdges(edges: EdgeRow[]): void {
    for (const e of edges) this.touched.edges.add(e.fileId);
    for (const e of edges) this.stmt.edge.run(e.src, e.dst, e.kind, e.confidence, e.line, e.fileId, e.target);
  }

  /**
   * Files whose rows this writer rewrote (removed or added) and files whose resolved edges changed,
   * so rank refreshing can re-read just those.
   */
  touchedFiles(): { rows: Set<number>; edges: Set<number> } {
    return { rows: this.touched.rows, edges: this.touched.edges };
  }

  /**
   * PageRank of symbols (call graph) and files (call and import graph): the given rows only; the
   * others keep theirs (the caller gives every rank that moved).
   */
  setPageranks(symbols: Iterable<[number, number]>, files: Iterable<[number, number]>): void {
    const s = this.db.prepare('UPDATE symbols SET pagerank = ? WHERE id = ?');
    const f = this.db.prepare('UPDATE files SET pagerank = ? WHERE id = ?');
    for (const [id, r] of symbols) s.run(r, id);
    for (const [id, r] of files) f.run(r, id);
  }

  /** Last-commit time and commit count per path (git history); paths not given keep their values. */
  setHistory(history: Iterable<[string, { last: number | null; commits: number }]>): void {
    const f = this.db.prepare('UPDATE files SET last_commit = ?, commits = ? WHERE path = ?');
    for (const [path, h] of history) f.run(h.last, h.commits, path);
  }

  setMeta(values: Record<string, string | number>): void {
    for (const [k, v] of Object.entries(values)) this.stmt.meta.run(k, String(v));
  }
}

/** Per file: how many edge rows, and two order-independent sums of row hashes (see replaceResolvedEdges). */
class EdgeDigests {
  private readonly byFile = new Map<number, [number, number, number]>();
  private static readonly float = new Float64Array(1);
  private static readonly words = new Uint32Array(EdgeDigests.float.buffer);

  add(fileId: number, src: number, dst: number | null, kind: string, confidence: number, line: number | null, target: string | null): void {
    EdgeDigests.float[0] = confidence;
    const fields = [src >>> 0, Math.floor(src / 2 ** 32), dst === null ? 0xffffffff : dst >>> 0, dst === null ? 0xffffffff : Math.floor(dst / 2 ** 32),
      EdgeDigests.words[0], EdgeDigests.words[1], line ?? 0xffffffff, stringHash(kind), target === null ? 0xffffffff : stringHash(target)];
    let h1 = 0x811c9dc5;
    let h2 = 0x9e3779b9;
    for (const x of fields) {
      h1 = Math.imul(h1 ^ x, 0x01000193);
      h2 = Math.imul((h2 ^ x) + 0x7f4a7c15, 0x85ebca6b);
      h2 ^= h2 >>> 13;
    }
    const d = this.byFile.get(fileId);
    if (d) {
      d[0]++;
      d[1] = (d[1] + (h1 >>> 0)) >>> 0;
      d[2] = (d[2] + (h2 >>> 0)) >>> 0;
    } else this.byFile.set(fileId, [1, h1 >>> 0, h2 >>> 0]);
  }

  files(): Iterable<number> {
    return this.byFile.keys();
  }

  same(other: EdgeDigests, fileId: number): boolean {
    const a = this.byFile.get(fileId);
    const b = other.byFile.get(fileId);
    if (!a || !b) return !a && !b;
    return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
  }
}

/** FNV-1a over UTF-16 code units. */
function stringHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
