import type Database from 'better-sqlite3';
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
  symbols: { symbol: string; kind: string; line: number; signature: string }[];
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

export async function repoMap(db: Database.Database, opts: { folder: string | null; budget: number; symbolsPerFile?: number; links?: boolean }):
  Promise<RepoMap> {
  const per = opts.symbolsPerFile ?? SYMBOLS_PER_FILE;
  const folder = opts.folder ? opts.folder.replace(/\/+$/, '') : null;
  const like = folder ? `${folder.replace(/[\\%_]/g, (c) => `\\${c}`)}/%` : '%';
  const rows = db.prepare(`SELECT id, path, language, loc, pagerank FROM files WHERE path LIKE ? ESCAPE '\\' AND external = 0
    ORDER BY pagerank DESC, path`).raw().all(like) as [number, string, string, number, number][];
  const count = await tokenCounter();
  const files: RepoMapFile[] = [];
  const blocks: string[] = [];
  let used = 0;
  let truncated = false;
  const top = rows[0]?.[4] || 1;
  for (const [id, path, language, loc, rank] of rows) {
    const syms = symbolsWhere(db, "s.file_id = ? AND s.kind != 'module'", [id, per], 'ORDER BY s.pagerank DESC, s.start_line LIMIT ?')
      .sort((a, b) => a.startLine - b.startLine);
    const entry: RepoMapFile = {
      path, language, loc, rank: Math.round((rank / top) * 1000) / 1000,
      symbols: syms.map((s) => ({ symbol: s.qualifiedName, kind: s.kind, line: s.startLine, signature: oneLine(s.signature) || `${s.kind} ${s.name}` })),
    };
    const depthOf = (q: string) => q.split('.').length - 1;
    const block = [`${path} (${language}, ${loc} lines)`, ...entry.symbols.map((s) => `  ${String(s.line).padStart(5)} ${'  '.repeat(depthOf(s.symbol))}${s.signature}`)].join('\n');
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

function oneLine(sig: string): string {
  const s = sig.replace(/\s+/g, ' ').trim();
  return s.length > SIGNATURE_CHARS ? `${s.slice(0, SIGNATURE_CHARS - 1)}…` : s;
}
