import type Database from 'better-sqlite3';
import { Allowlist } from '../secrets/allowlist.js';
import { scanSecrets } from '../secrets/scan.js';
import { runQuery, type QueryInput, type QueryEntry, type QueryResponse } from './query.js';
import { excerptOf } from './regions.js';
import { TOKENIZER, tokenCounter } from './tokens.js';

/**
 * `cg context`: a bundle an agent can read instead of opening files. The first few places (the entry
 * points) come with their full source, the rest with signatures; a summary and the relations between
 * the places come first. Packing keeps whole files together: a file's places go in or stay out as one
 * group, so the reader never gets half of a file's story.
 */
export const ENTRY_POINTS = 3;

export interface ContextSection {
  path: string;
  /** What of the file is shown: full source of its entry points, or signatures. */
  form: 'source' | 'signatures';
  places: { symbol: string | null; line_range: [number, number]; rationale: string }[];
  text: string;
}

export interface ContextBundle {
  status: 'ok' | 'empty_results';
  query: string;
  summary: string;
  relationships: string[];
  files: ContextSection[];
  tokens_used: number;
  token_budget: number;
  tokenizer: string;
  truncated: boolean;
  preset: QueryResponse['preset'];
  warnings: string[];
}

export async function buildContext(db: Database.Database, root: string, input: QueryInput): Promise<ContextBundle> {
  const budget = input.budget ?? 3500;
  // Rank more places than fit; packing decides what goes in.
  const found = await runQuery(db, root, { ...input, budget: 200_000, snippets: false, maxRegions: input.maxRegions ?? 12 });
  const count = await tokenCounter();
  const base = { query: input.text, token_budget: budget, tokenizer: TOKENIZER, preset: found.preset, warnings: found.warnings };
  if (found.status === 'empty_results') {
    return { ...base, status: 'empty_results', summary: found.suggestion ?? 'Nothing matched.', relationships: [], files: [], tokens_used: 0, truncated: false };
  }
  const groups = groupByFile(found.files);
  const entryPoints = new Set(found.files.slice(0, ENTRY_POINTS).map((e) => `${e.path}:${e.line_range[0]}`));
  const summary = summarize(input.text, found.files);
  const relationships = found.files.filter((e) => /^(called by|calls|test of) /.test(e.rationale))
    .map((e) => `${e.symbol ?? e.path} ${e.rationale}`);
  let used = count(summary) + count(relationships.join('\n'));
  const files: ContextSection[] = [];
  let truncated = false;
  const noSecrets = Allowlist.empty();
  for (const [path, entries] of groups) {
    const full = entries.some((e) => entryPoints.has(`${e.path}:${e.line_range[0]}`));
    const text = entries.map((e) => {
      const head = `// ${path}:${e.line_range[0]}-${e.line_range[1]} ${e.symbol ?? ''} (${e.rationale})`;
      if (!full) return `${head}\n${e.signature ?? ''}`;
      const src = excerptOf(root, { path, startLine: e.line_range[0], endLine: e.line_range[1] });
      return `${head}\n${src && !scanSecrets(path, src, noSecrets).length ? src : e.signature ?? ''}`;
    }).join('\n\n');
    const tokens = count(text) + count(path) + 8;
    if (used + tokens > budget) {
      truncated = true;
      continue;
    }
    used += tokens;
    files.push({ path, form: full ? 'source' : 'signatures', text,
      places: entries.map((e) => ({ symbol: e.symbol, line_range: e.line_range, rationale: e.rationale })) });
  }
  return { ...base, status: 'ok', summary, relationships, files, tokens_used: used, truncated };
}

function groupByFile(entries: QueryEntry[]): Map<string, QueryEntry[]> {
  const groups = new Map<string, QueryEntry[]>();
  for (const e of entries) {
    const list = groups.get(e.path) ?? [];
    list.push(e);
    groups.set(e.path, list);
  }
  return groups;
}

function summarize(task: string, entries: QueryEntry[]): string {
  const main = entries.slice(0, ENTRY_POINTS).map((e) => `${e.symbol ?? e.path} (${e.path})`);
  const files = new Set(entries.map((e) => e.path)).size;
  const subject = task.split('\n')[0].slice(0, 160);
  return `For "${subject}": start with ${main.join(', ')}. ${entries.length} places in ${files} files, best first; `
    + `entry points with their source, the rest as signatures.`;
}
