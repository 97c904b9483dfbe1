import type Database from 'better-sqlite3';

/**
 * What the analyses (src/analysis) read from the index. Edges are read by kind, and "every kind but
 * contains" means every kind: a new edge kind (overrides, reads, registers…) counts as a reference and
 * can take part in cycles without a change here.
 */
export const STRUCTURAL_KINDS = ['contains'];

export function edgeKinds(db: Database.Database): string[] {
  return db.prepare('SELECT DISTINCT kind FROM edges ORDER BY kind').pluck().all() as string[];
}

/** Symbol-to-symbol edges of the given kinds (internal targets only), self-loops left out. */
export function symbolEdges(db: Database.Database, kinds: string[]): { src: number; dst: number; kind: string; confidence: number }[] {
  return db.prepare(`SELECT src_id AS src, dst_id AS dst, kind, confidence FROM edges
    WHERE dst_id IS NOT NULL AND src_id != dst_id AND kind IN (SELECT value FROM json_each(?))`).all(JSON.stringify(kinds)) as never;
}

/** File-to-file edges of the given kinds between different files: how many symbol edges, summed confidence. */
export function fileEdges(db: Database.Database, kinds: string[]): { src: string; dst: string; edges: number; weight: number }[] {
  return db.prepare(`SELECT sf.path AS src, df.path AS dst, COUNT(*) AS edges, SUM(e.confidence) AS weight FROM edges e
      JOIN symbols s ON s.id = e.src_id JOIN symbols d ON d.id = e.dst_id JOIN files sf ON sf.id = s.file_id JOIN files df ON df.id = d.file_id
    WHERE e.kind IN (SELECT value FROM json_each(?)) AND s.file_id != d.file_id GROUP BY 1, 2 ORDER BY 1, 2`).all(JSON.stringify(kinds)) as never;
}

export interface DefinitionRow {
  id: number;
  name: string;
  qualifiedName: string;
  kind: string;
  file: string;
  language: string;
  startLine: number;
  endLine: number;
  visibility: string;
  exported: boolean;
  isTest: boolean;
  fileIsTest: boolean;
  annotations: string[];
  parentId: number | null;
  parentKind: string | null;
  parentExported: boolean | null;
  /** It names supertypes (extends/implements, resolved or not): its methods may override theirs. */
  hasSupertypes: boolean;
  /** Edges into it from other symbols, by kind (contains left out). */
  incoming: Record<string, number>;
}

/** Every definition (modules left out) with what points at it. */
export function definitions(db: Database.Database): DefinitionRow[] {
  const incoming = new Map<number, Record<string, number>>();
  for (const [dst, kind, n] of db.prepare(`SELECT dst_id, kind, COUNT(*) FROM edges WHERE dst_id IS NOT NULL AND src_id != dst_id
      AND kind NOT IN (SELECT value FROM json_each(?)) GROUP BY 1, 2`).raw().all(JSON.stringify(STRUCTURAL_KINDS)) as [number, string, number][]) {
    const m = incoming.get(dst) ?? {};
    m[kind] = n;
    incoming.set(dst, m);
  }
  const withSupertypes = new Set(db.prepare("SELECT DISTINCT symbol_id FROM refs WHERE kind IN ('extends', 'implements')").pluck().all() as number[]);
  return (db.prepare(`SELECT s.id, s.name, s.qualified_name, s.kind, f.path, f.language, s.start_line, s.end_line, s.visibility, s.exported,
      s.is_test, f.is_test, s.annotations, s.parent_id, p.kind, p.exported
    FROM symbols s JOIN files f ON f.id = s.file_id LEFT JOIN symbols p ON p.id = s.parent_id
    WHERE s.kind != 'module' ORDER BY f.path, s.start_line`).raw().all() as
    [number, string, string, string, string, string, number, number, string, number, number, number, string, number | null, string | null, number | null][])
    .map((r) => ({
      id: r[0], name: r[1], qualifiedName: r[2], kind: r[3], file: r[4], language: r[5], startLine: r[6], endLine: r[7], visibility: r[8],
      exported: r[9] === 1, isTest: r[10] === 1, fileIsTest: r[11] === 1, annotations: JSON.parse(r[12]), parentId: r[13],
      parentKind: r[14], parentExported: r[15] === null ? null : r[15] === 1, hasSupertypes: withSupertypes.has(r[0]), incoming: incoming.get(r[0]) ?? {},
    }));
}

export function indexedFiles(db: Database.Database): { id: number; path: string; language: string; isTest: boolean; hash: string }[] {
  return (db.prepare('SELECT id, path, language, is_test, hash FROM files ORDER BY path').raw().all() as [number, string, string, number, string][])
    .map(([id, path, language, isTest, hash]) => ({ id, path, language, isTest: isTest === 1, hash }));
}

/** Functions and methods of a file by position, for per-function measures. */
export function functionsOfFile(db: Database.Database, fileId: number): { id: number; qualifiedName: string; kind: string; startLine: number; endLine: number }[] {
  return db.prepare(`SELECT id, qualified_name AS qualifiedName, kind, start_line AS startLine, end_line AS endLine FROM symbols
    WHERE file_id = ? AND kind IN ('function', 'method') ORDER BY start_line`).all(fileId) as never;
}

/** Nodes for a whole-graph export: files (with size and rank) or definitions (modules left out). */
export function graphNodes(db: Database.Database, level: 'file' | 'symbol'): { id: string; label: string; kind: string; file: string; language: string;
  line: number | null; loc: number | null; rank: number }[] {
  if (level === 'file') {
    return (db.prepare('SELECT path, language, loc, pagerank FROM files ORDER BY path').raw().all() as [string, string, number, number][])
      .map(([p, language, loc, rank]) => ({ id: p, label: p, kind: 'file', file: p, language, line: null, loc, rank }));
  }
  return (db.prepare(`SELECT s.id, s.qualified_name, s.kind, f.path, f.language, s.start_line, s.end_line - s.start_line + 1, s.pagerank
      FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.kind != 'module' ORDER BY f.path, s.start_line`).raw().all() as
      [number, string, string, string, string, number, number, number][])
    .map(([id, label, kind, file, language, line, loc, rank]) => ({ id: String(id), label, kind, file, language, line, loc, rank }));
}
