import type Database from 'better-sqlite3';
import { fileMatcher } from './glob.js';
import { DOCUMENT_KINDS } from '../lang/types.js';
import { cachedForVersion } from './version-cache.js';

/** A symbol as every command and tool returns it (JSON, camelCase, repo-relative POSIX paths). */
export interface SymbolInfo {
  id: number;
  name: string;
  qualifiedName: string;
  kind: string;
  language: string;
  file: string;
  startLine: number;
  endLine: number;
  signature: string;
  doc: string | null;
  params: string[];
  visibility: string;
  isAsync: boolean;
  isStatic: boolean;
  mutates: string[];
  annotations: string[];
  exported: boolean;
  isTest: boolean;
  inError: boolean;
  parentId: number | null;
}

const SYMBOL_COLUMNS = `s.id, s.name, s.qualified_name, s.kind, f.language, f.path, s.start_line, s.end_line, s.signature,
  s.doc, s.params, s.visibility, s.is_async, s.is_static, s.mutates, s.annotations, s.exported, s.is_test, s.in_error,
  s.parent_id`;

type SymbolRow = [number, string, string, string, string, string, number, number, string, string | null, string, string,
  number, number, string, string, number, number, number, number | null];

function toSymbol(r: SymbolRow): SymbolInfo {
  return {
    id: r[0], name: r[1], qualifiedName: r[2], kind: r[3], language: r[4], file: r[5], startLine: r[6], endLine: r[7],
    signature: r[8], doc: r[9], params: JSON.parse(r[10]), visibility: r[11], isAsync: r[12] === 1, isStatic: r[13] === 1,
    mutates: JSON.parse(r[14]), annotations: JSON.parse(r[15]), exported: r[16] === 1, isTest: r[17] === 1,
    inError: r[18] === 1, parentId: r[19],
  };
}

export { prepared } from './prepared.js';
import { prepared } from './prepared.js';

export function symbolsWhere(db: Database.Database, where: string, params: unknown[] = [], tail = ''): SymbolInfo[] {
  const rows = prepared(db, `SELECT ${SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE ${where} ${tail}`)
    .raw().all(...params) as SymbolRow[];
  return rows.map(toSymbol);
}

export function symbolById(db: Database.Database, id: number): SymbolInfo | null {
  return symbolsWhere(db, 's.id = ?', [id])[0] ?? null;
}

/** What an answer listing many symbols shows of each: enough to name it and open it. */
export type SymbolBrief = Pick<SymbolInfo, 'id' | 'name' | 'qualifiedName' | 'kind' | 'file' | 'startLine' | 'endLine'>;

/**
 * symbolsByIds with the brief's columns only: a hub symbol's few hundred callers are read ~2.5x
 * faster than whole records (their docs, signatures and parameter lists are not shown).
 */
export function symbolBriefsByIds(db: Database.Database, ids: Iterable<number>): Map<number, SymbolBrief> {
  const rows = prepared(db, `SELECT s.id, s.name, s.qualified_name, s.kind, f.path, s.start_line, s.end_line FROM symbols s
    JOIN files f ON f.id = s.file_id WHERE s.id IN (SELECT value FROM json_each(?))`).raw().all(JSON.stringify([...new Set(ids)])) as
    [number, string, string, string, string, number, number][];
  return new Map(rows.map((r) => [r[0], { id: r[0], name: r[1], qualifiedName: r[2], kind: r[3], file: r[4], startLine: r[5], endLine: r[6] }]));
}

/**
 * Many symbols by id in one statement, keyed by id (ids not in the index are absent): a hub's few
 * hundred callers cost one query instead of one each.
 */
export function symbolsByIds(db: Database.Database, ids: Iterable<number>): Map<number, SymbolInfo> {
  const rows = symbolsWhere(db, 's.id IN (SELECT value FROM json_each(?))', [JSON.stringify([...new Set(ids)])]);
  return new Map(rows.map((s) => [s.id, s]));
}

export interface SymbolSearch {
  pattern: string;
  kind?: string;
  /** Any of these kinds (with `kind`, either matches). */
  kinds?: string[];
  /** Only symbols in files of these languages. */
  languages?: string[];
  fileGlob?: string;
  limit: number;
}

/**
 * Symbols by name. A pattern with `*` or `?` is a glob; otherwise a case-insensitive substring.
 * A pattern with a dot (`Environment.get_template`) matches qualified names. Exact matches rank
 * first, then prefixes, then the rest; ties go to shorter names and then to paths.
 */
export function searchSymbols(db: Database.Database, q: SymbolSearch): { total: number; symbols: SymbolInfo[] } {
  const column = /[.]|::/.test(q.pattern) ? 's.qualified_name' : 's.name';
  const pattern = q.pattern.replace(/::/g, '.');
  const isGlob = /[*?]/.test(pattern);
  const like = isGlob
    ? pattern.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%').replace(/\?/g, '_')
    : `%${pattern.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // The names that match, then their rows (a scan of the table itself read every symbol's row: Go's standard
  // library 20 ms). A long-running process keeps the names in memory while the index does not change (~1 ms
  // a search there); a one-shot process scans the name index, which holds names and ids only (~5 ms), rather
  // than reading them all into memory for one search (~0.1 s).
  const conds = ["s.kind != 'module'", 'f.external = 0'];
  const params: unknown[] = [];
  if (namesInMemory) {
    const matcher = likeMatcher(like);
    const names = nameColumn(db, column === 's.name' ? 'name' : 'qualified_name');
    const matched: number[] = [];
    for (let i = 0; i < names.lowered.length; i++) if (matcher(names.lowered[i])) matched.push(names.ids[i]);
    conds.unshift('s.id IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(matched));
  } else {
    conds.unshift(`s.id IN (SELECT id FROM symbols WHERE ${column.slice(2)} LIKE ? ESCAPE '\\')`);
    params.push(like);
  }
  const kinds = [...(q.kind ? [q.kind] : []), ...(q.kinds ?? [])];
  if (kinds.length) {
    conds.push(`s.kind IN (${kinds.map(() => '?').join(',')})`);
    params.push(...kinds);
  } else {
    // Document sections and keys (a package.json "main") are not what a name search for code means; --kind section|key finds them.
    conds.push(`s.kind NOT IN (${[...DOCUMENT_KINDS].map((k) => `'${k}'`).join(', ')})`);
  }
  if (q.languages?.length) {
    conds.push(`f.language IN (${q.languages.map(() => '?').join(',')})`);
    params.push(...q.languages.map((l) => l.toLowerCase()));
  }
  // Ranked in SQL and only the page materialised: a short pattern can match thousands of symbols, and
  // a long-running server answers it in milliseconds only if it does not build every one of them.
  const escaped = pattern.replace(/[\\%_]/g, (c) => `\\${c}`);
  const order = isGlob ? [] : [`CASE WHEN lower(${column}) = ? THEN 0 WHEN ${column} LIKE ? ESCAPE '\\' THEN 1 ELSE 2 END`];
  const orderParams = isGlob ? [] : [pattern.toLowerCase(), `${escaped}%`];
  let ids = db.prepare(`SELECT s.id, f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE ${conds.join(' AND ')}
    ORDER BY ${[...order, 'length(s.name)', 'f.path', 's.start_line', 's.id'].join(', ')}`).raw().all(...params, ...orderParams) as [number, string][];
  if (q.fileGlob) {
    const match = fileMatcher(q.fileGlob);
    ids = ids.filter(([, file]) => match(file));
  }
  const page = ids.slice(0, q.limit).map(([id]) => id);
  const byId = symbolsByIds(db, page);
  return { total: ids.length, symbols: page.map((id) => byId.get(id)!) };
}

/** Whether symbol searches keep the names in memory (a long-running server: primeSymbolSearch). */
let namesInMemory = false;

/**
 * For a long-running process (cg serve's warm-up): symbol searches keep the names in memory from now on,
 * and the connection's are read now (~0.1 s for Go's standard library's 95k) rather than at its first search.
 */
export function primeSymbolSearch(db: Database.Database): void {
  namesInMemory = true;
  nameColumn(db, 'name');
}

/** Every symbol's name (or qualified name), ASCII letters lowered as SQLite's LIKE compares them, with its id. */
function nameColumn(db: Database.Database, column: 'name' | 'qualified_name'): { lowered: string[]; ids: number[] } {
  return cachedForVersion(db, `names:${column}`, () => {
    const rows = db.prepare(`SELECT id, ${column} FROM symbols`).raw().all() as [number, string][];
    return { ids: rows.map((r) => r[0]), lowered: rows.map((r) => asciiLower(r[1])) };
  });
}

/** SQLite's LIKE folds the case of ASCII letters only. */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/**
 * A test of an ASCII-lowered name against a LIKE pattern with `\` as its escape, as SQLite decides it: `%`
 * any run of characters, `_` one character, other characters themselves, ASCII letters in either case.
 */
export function likeMatcher(like: string): (lowered: string) => boolean {
  const parts: string[] = [];
  let literal = true;
  for (let i = 0; i < like.length; i++) {
    const c = like[i];
    if (c === '\\' && i + 1 < like.length) parts.push(asciiLower(like[++i]).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    else if (c === '%') {
      parts.push('[^]*');
      if (i !== 0 && i !== like.length - 1) literal = false;
    } else if (c === '_') {
      parts.push('[^]');
      literal = false;
    } else parts.push(asciiLower(c).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  }
  // `%text%`, the plain substring search: a string search.
  if (literal && like.length >= 2 && like.startsWith('%') && like.endsWith('%') && !like.endsWith('\\%')) {
    const text = unescapeLike(like.slice(1, -1));
    if (text !== null) return (name) => name.includes(text);
  }
  const re = new RegExp(`^${parts.join('')}$`, 'u');
  return (name) => re.test(name);
}

/** The text of a LIKE pattern without wildcards (escapes removed, lowered), or null when it has one. */
function unescapeLike(p: string): string | null {
  let out = '';
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\' && i + 1 < p.length) out += p[++i];
    else if (p[i] === '%' || p[i] === '_') return null;
    else out += p[i];
  }
  return asciiLower(out);
}

/**
 * The symbols a command-line argument names: `file.py:Name`, a qualified name (`Env.get`), or a
 * plain name. Exact qualified matches win over plain-name matches.
 */
export function findSymbolsByRef(db: Database.Database, ref: string, fileGlob?: string): SymbolInfo[] {
  let name = ref.replace(/::/g, '.');
  let file: string | null = null;
  const colon = /^(.+\.[A-Za-z0-9]+):([^/]+)$/.exec(ref);
  if (colon) {
    file = colon[1];
    name = colon[2].replace(/::/g, '.');
  }
  const conds: string[] = [];
  const params: unknown[] = [];
  if (file) {
    conds.push('f.path = ?');
    params.push(file);
  }
  let rows = symbolsWhere(db, [...conds, 's.qualified_name = ? COLLATE NOCASE'].join(' AND '), [...params, name]);
  if (!rows.length && !name.includes('.')) rows = symbolsWhere(db, [...conds, 's.name = ? COLLATE NOCASE'].join(' AND '), [...params, name]);
  if (rows.some((s) => s.qualifiedName === name || s.name === name)) rows = rows.filter((s) => s.qualifiedName === name || s.name === name);
  if (rows.some((s) => s.kind !== 'module')) rows = rows.filter((s) => s.kind !== 'module');
  // Code before documents: `main` is the function, not package.json's "main" key.
  if (rows.some((s) => !DOCUMENT_KINDS.has(s.kind))) rows = rows.filter((s) => !DOCUMENT_KINDS.has(s.kind));
  if (fileGlob) {
    const match = fileMatcher(fileGlob);
    rows = rows.filter((s) => match(s.file));
  }
  return rows;
}

/** Per symbol: its PageRank and how many distinct symbols call it and it calls (Bombe's importance_score, callers_count, callees_count). */
export function symbolStats(db: Database.Database, ids: number[]): Map<number, { pagerank: number; callers: number; callees: number }> {
  const json = JSON.stringify(ids);
  const out = new Map<number, { pagerank: number; callers: number; callees: number }>();
  for (const [id, pr] of prepared(db, 'SELECT id, pagerank FROM symbols WHERE id IN (SELECT value FROM json_each(?))').raw().all(json) as [number, number][]) {
    out.set(id, { pagerank: pr, callers: 0, callees: 0 });
  }
  for (const [id, n] of prepared(db, `SELECT dst_id, COUNT(DISTINCT src_id) FROM edges WHERE kind = 'calls'
      AND dst_id IN (SELECT value FROM json_each(?)) GROUP BY dst_id`).raw().all(json) as [number, number][]) out.get(id)!.callers = n;
  for (const [id, n] of prepared(db, `SELECT src_id, COUNT(DISTINCT dst_id) FROM edges WHERE kind = 'calls' AND dst_id IS NOT NULL
      AND src_id IN (SELECT value FROM json_each(?)) GROUP BY src_id`).raw().all(json) as [number, number][]) out.get(id)!.callees = n;
  return out;
}

export interface EdgeInfo {
  src: number;
  dst: number | null;
  kind: string;
  confidence: number;
  line: number | null;
  target: string | null;
}

const EDGE_COLUMNS = 'src_id, dst_id, kind, confidence, line, target';
type EdgeRow = [number, number | null, string, number, number | null, string | null];
/** Edges are read as arrays and made into objects here: better-sqlite3's row objects cost ~1.5x (a hub's walk reads ~350). */
const toEdge = (r: EdgeRow): EdgeInfo => ({ src: r[0], dst: r[1], kind: r[2], confidence: r[3], line: r[4], target: r[5] });
const edgeRows = (st: Database.Statement, ...params: unknown[]) => (st.raw().all(...params) as EdgeRow[]).map(toEdge);
/**
 * A node's edges come in a stated order: by line, then kind, then the order they were written (rowid).
 * It is the order SQLite gave for `ORDER BY line` alone on these indexes (checked on every node of an
 * index of rich), stated so that a walk reading a whole frontier's edges at once (edgesToEach) gets each
 * node's edges in the same order as one node's query, and so the same answer.
 */
const EDGE_ORDER = 'line, kind, rowid';
const kindList = (kinds: string[]) => kinds.map(() => '?').join(',');

export function edgesTo(db: Database.Database, id: number, kinds: string[]): EdgeInfo[] {
  return edgeRows(prepared(db, `SELECT ${EDGE_COLUMNS} FROM edges WHERE dst_id = ? AND kind IN (${kindList(kinds)}) ORDER BY ${EDGE_ORDER}`), id, ...kinds);
}

export function edgesFrom(db: Database.Database, id: number, kinds: string[]): EdgeInfo[] {
  return edgeRows(prepared(db, `SELECT ${EDGE_COLUMNS} FROM edges WHERE src_id = ? AND kind IN (${kindList(kinds)}) ORDER BY ${EDGE_ORDER}`), id, ...kinds);
}

/**
 * edgesTo of many nodes in one statement, keyed by node (a node without such edges is absent), each
 * node's edges in the same order: a walk's frontier of a hub's callers costs one query, not one each.
 */
export function edgesToEach(db: Database.Database, ids: number[], kinds: string[]): Map<number, EdgeInfo[]> {
  return byNode(edgeRows(prepared(db, `SELECT ${EDGE_COLUMNS} FROM edges WHERE dst_id IN (SELECT value FROM json_each(?))
    AND kind IN (${kindList(kinds)}) ORDER BY dst_id, ${EDGE_ORDER}`), JSON.stringify(ids), ...kinds), (e) => e.dst!);
}

/** edgesFrom of many nodes in one statement (as edgesToEach). */
export function edgesFromEach(db: Database.Database, ids: number[], kinds: string[]): Map<number, EdgeInfo[]> {
  return byNode(edgeRows(prepared(db, `SELECT ${EDGE_COLUMNS} FROM edges WHERE src_id IN (SELECT value FROM json_each(?))
    AND kind IN (${kindList(kinds)}) ORDER BY src_id, ${EDGE_ORDER}`), JSON.stringify(ids), ...kinds), (e) => e.src);
}

function byNode(edges: EdgeInfo[], node: (e: EdgeInfo) => number): Map<number, EdgeInfo[]> {
  const out = new Map<number, EdgeInfo[]>();
  for (const e of edges) {
    const list = out.get(node(e));
    if (list) list.push(e);
    else out.set(node(e), [e]);
  }
  return out;
}

/** Edges of a kind with a given target (`registers` and `fires` share `kind:name` targets: src/extract/registrations.ts). */
export function edgesWithTarget(db: Database.Database, kind: string, target: string): EdgeInfo[] {
  return edgeRows(prepared(db, `SELECT ${EDGE_COLUMNS} FROM edges WHERE target = ? AND kind = ? ORDER BY file_id, line`), target, kind);
}

export interface FileRow {
  id: number;
  path: string;
  language: string;
  hash: string;
  size: number;
  loc: number;
  partial: boolean;
  errorCount: number;
  isTest: boolean;
  warnings: string[];
}

export function fileByPath(db: Database.Database, p: string): FileRow | null {
  const r = prepared(db, 'SELECT id, path, language, hash, size, loc, partial, error_count, is_test, warnings FROM files WHERE path = ?')
    .raw().get(p) as [number, string, string, string, number, number, number, number, number, string | null] | undefined;
  if (!r) return null;
  return {
    id: r[0], path: r[1], language: r[2], hash: r[3], size: r[4], loc: r[5], partial: r[6] === 1, errorCount: r[7],
    isTest: r[8] === 1, warnings: r[9] ? JSON.parse(r[9]) : [],
  };
}

export function skippedByPath(db: Database.Database, p: string): { reason: string; detail: string | null } | null {
  return (db.prepare('SELECT reason, detail FROM skipped WHERE path = ?').get(p) as { reason: string; detail: string | null }) ?? null;
}

export interface ImportRow {
  module: string;
  names: { name: string; alias?: string }[];
  alias: string | null;
  wildcard: boolean;
  reexport: boolean;
  line: number;
}

export function importsOfFile(db: Database.Database, fileId: number): ImportRow[] {
  return (db.prepare('SELECT module, names, alias, wildcard, reexport, line FROM imports WHERE file_id = ? ORDER BY line, id')
    .all(fileId) as { module: string; names: string; alias: string | null; wildcard: number; reexport: number; line: number }[])
    .map((r) => ({ ...r, names: JSON.parse(r.names), wildcard: r.wildcard === 1, reexport: r.reexport === 1 }));
}

export function importEdgesOfFile(db: Database.Database, fileId: number): { line: number; dst: number | null; target: string | null;
  confidence: number; file: string | null; qualifiedName: string | null; kind: string | null }[] {
  return db.prepare(`SELECT e.line, e.dst_id AS dst, e.target, e.confidence, f.path AS file, s.qualified_name AS qualifiedName,
      s.kind AS kind
    FROM edges e LEFT JOIN symbols s ON s.id = e.dst_id LEFT JOIN files f ON f.id = s.file_id
    WHERE e.file_id = ? AND e.kind = 'imports' ORDER BY e.line`).all(fileId) as never;
}

export function countRows(db: Database.Database, sql: string, params: unknown[] = []): number {
  return (db.prepare(sql).raw().get(...params) as [number])[0];
}

export interface ImportEntry {
  /** The importing file's module symbol (what references and impact take as symbol_id). */
  moduleId: number | null;
  file: string;
  line: number;
  module: string;
  names: string[];
}

/**
 * Import statements whose module or imported names match a pattern (a glob with * and ?, else a
 * case-insensitive substring), as CodeMem's symbols lists kind "import"; with the total before `limit`.
 */
export function searchImports(db: Database.Database, q: { pattern: string; fileGlob?: string; languages?: string[]; limit: number }):
  { total: number; imports: ImportEntry[] } {
  const glob = /[*?]/.test(q.pattern);
  const esc = (t: string) => t.replace(/[\\%_]/g, (c) => `\\${c}`);
  const like = glob ? esc(q.pattern).replace(/\*/g, '%').replace(/\?/g, '_') : `%${esc(q.pattern)}%`;
  const langs = q.languages?.length ? ` AND f.language IN (${q.languages.map(() => '?').join(',')})` : '';
  let rows = db.prepare(`SELECT i.module, i.names, i.line, f.path,
      (SELECT s.id FROM symbols s WHERE s.file_id = f.id AND s.kind = 'module' AND s.parent_id IS NULL) AS moduleId
    FROM imports i JOIN files f ON f.id = i.file_id
    WHERE i.module != '' AND (i.module LIKE ? ESCAPE '\\' OR i.names LIKE ? ESCAPE '\\')${langs} ORDER BY f.path, i.line, i.id`)
    .all(like, like, ...(q.languages ?? []).map((l) => l.toLowerCase())) as { module: string; names: string; line: number; path: string; moduleId: number | null }[];
  if (q.fileGlob) {
    const match = fileMatcher(q.fileGlob);
    rows = rows.filter((r) => match(r.path));
  }
  return { total: rows.length, imports: rows.slice(0, q.limit).map((r) => ({ moduleId: r.moduleId, file: r.path, line: r.line, module: r.module,
    names: (JSON.parse(r.names) as { name: string; alias?: string }[]).map((n) => n.alias ?? n.name) })) };
}
