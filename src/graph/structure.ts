import type Database from 'better-sqlite3';
import { DOCUMENT_FORMATS } from '../extract/documents/formats.js';
import { symbolsWhere } from '../store/queries.js';
import { fileGraph } from '../store/graph-data.js';
import { TOKENIZER, tokenCounter } from '../retrieve/tokens.js';

/**
 * A repository map (Bombe §5 get_structure): files in PageRank order over the call and import graph,
 * each with its most central definitions as one-line signatures, packed whole into a token budget.
 * It answers "what is this codebase, and where is its centre" before any search.
 */
export interface RepoMapFile {
  path: string;
  language: string;
  loc: number;
  rank: number;
  symbols: { symbol: string; kind: string; line: number; signature: string; name: string; depth: number;
    /** With `ranks`: 1 for the most central definition of the map's scope (PageRank over calls and imports). */
    rank?: number }[];
  /** With `ranks`: definitions of the file not shown, by kind. */
  hidden?: Record<string, number>;
}

export interface RepoMap {
  status: 'ok' | 'empty_results';
  folder: string | null;
  files: RepoMapFile[];
  text: string;
  total_files: number;
  tokens_used: number;
  token_budget: number;
  tokenizer: string;
  truncated: boolean;
  /** With `links`: calls and imports between the files shown, summed confidence (for a Mermaid picture). */
  links?: { from: string; to: string; weight: number }[];
}

export const SYMBOLS_PER_FILE = 12;
const SIGNATURE_CHARS = 160;

export async function repoMap(db: Database.Database, opts: { folder: string | null; budget: number; symbolsPerFile?: number; links?: boolean;
  ranks?: boolean }): Promise<RepoMap> {
  const per = opts.symbolsPerFile ?? SYMBOLS_PER_FILE;
  const folder = opts.folder ? opts.folder.replace(/\/+$/, '') : null;
  const like = folder ? `${folder.replace(/[\\%_]/g, (c) => `\\${c}`)}/%` : '%';
  // The map is of code: documents (indexed for search) have no calls or imports to rank them by, and external
  // declarations (installed dependencies) are not the repository's.
  const rows = db.prepare(`SELECT id, path, language, loc, pagerank FROM files WHERE path LIKE ? ESCAPE '\\' AND external = 0
    AND language NOT IN (SELECT value FROM json_each(?)) ORDER BY pagerank DESC, path`).raw().all(like, JSON.stringify(DOCUMENT_FORMATS)) as
    [number, string, string, number, number][];
  const count = await tokenCounter();
  const files: RepoMapFile[] = [];
  const blocks: string[] = [];
  let used = 0;
  let truncated = false;
  const top = rows[0]?.[4] || 1;
  const rankOf = opts.ranks ? symbolRanks(db, like) : null;
  for (const [id, path, language, loc, rank] of rows) {
    const syms = symbolsWhere(db, "s.file_id = ? AND s.kind != 'module'", [id, per], 'ORDER BY s.pagerank DESC, s.start_line LIMIT ?')
      .sort((a, b) => a.startLine - b.startLine);
    const entry: RepoMapFile = {
      path, language, loc, rank: Math.round((rank / top) * 1000) / 1000,
      symbols: syms.map((s) => ({ symbol: s.qualifiedName, kind: s.kind, line: s.startLine, signature: oneLine(s.signature) || `${s.kind} ${s.name}`,
        name: s.name, depth: s.qualifiedName.split('.').length - 1, ...(rankOf ? { rank: rankOf.get(s.id) } : {}) })),
    };
    if (rankOf) entry.hidden = hiddenKinds(db, id, new Set(syms.map((s) => s.id)));
    const block = [`${path} (${language}, ${loc} lines)`, ...entry.symbols.map((s) => `  ${String(s.line).padStart(5)} ${'  '.repeat(s.depth)}${s.signature}`)].join('\n');
    const tokens = count(block) + 1;
    if (used + tokens > opts.budget) {
      truncated = true;
      // Smaller files further down may still fit, but a map that skips around is harder to read: stop.
      break;
    }
    used += tokens;
    files.push(entry);
    blocks.push(block);
  }
  const out: RepoMap = {
    status: rows.length ? 'ok' : 'empty_results', folder, files, text: blocks.join('\n'), total_files: rows.length,
    tokens_used: used, token_budget: opts.budget, tokenizer: TOKENIZER, truncated,
  };
  if (opts.links) {
    const shown = new Map(rows.filter(([, p]) => files.some((f) => f.path === p)).map(([id, p]) => [id, p]));
    out.links = fileGraph(db).edges.filter((e) => shown.has(e.src) && shown.has(e.dst))
      .map((e) => ({ from: shown.get(e.src)!, to: shown.get(e.dst)!, weight: Math.round(e.weight * 100) / 100 }))
      .sort((a, b) => b.weight - a.weight);
  }
  return out;
}

/** 1-based rank of every definition under the scope by PageRank (ties by position). */
function symbolRanks(db: Database.Database, like: string): Map<number, number> {
  const ids = db.prepare(`SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.kind != 'module' AND f.path LIKE ? ESCAPE '\\'
    ORDER BY s.pagerank DESC, f.path, s.start_line`).pluck().all(like) as number[];
  return new Map(ids.map((id, i) => [id, i + 1]));
}

function hiddenKinds(db: Database.Database, fileId: number, shown: Set<number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [id, kind] of db.prepare("SELECT id, kind FROM symbols WHERE file_id = ? AND kind != 'module'").raw().all(fileId) as [number, string][]) {
    if (!shown.has(id)) out[kind] = (out[kind] ?? 0) + 1;
  }
  return out;
}

function oneLine(sig: string): string {
  const s = sig.replace(/\s+/g, ' ').trim();
  return s.length > SIGNATURE_CHARS ? `${s.slice(0, SIGNATURE_CHARS - 1)}…` : s;
}
