import type Database from 'better-sqlite3';
import { repoMap } from '../graph/structure.js';
import { searchSymbols, type SymbolInfo } from '../store/queries.js';
import { runQuery } from '../retrieve/query.js';

/**
 * Claude Code hooks (`cg install claude --hooks`): at session start the repository map goes into the
 * agent's context; before its Grep and Glob tools run, cg's answer for the same words joins the
 * context (the search itself still runs: the hook never blocks or rewrites it); after it edits or
 * writes a file, the file is recorded as saved, as an editor's `cg notify` does, so the index follows
 * the agent's own edits before any commit (applied by the running `cg serve` when there is one). Each
 * hook command is guarded so that a teammate without cg, or a repository without an index, sees
 * nothing at all.
 */
export interface HookDecl {
  event: 'SessionStart' | 'PreToolUse' | 'PostToolUse';
  /** The matcher group for Claude Code's settings.json, for a given way to run cg. */
  group(cg: string): Record<string, unknown>;
}

const guarded = (cg: string, sub: string) =>
  (cg === 'cg' ? `command -v cg >/dev/null 2>&1 && cg hook ${sub} || true` : `${cg} hook ${sub} || true`);

export const CLAUDE_HOOKS: HookDecl[] = [
  { event: 'SessionStart', group: (cg) => ({ matcher: 'startup|clear|compact', hooks: [{ type: 'command', command: guarded(cg, 'session-start'), timeout: 20 }] }) },
  { event: 'PreToolUse', group: (cg) => ({ matcher: 'Grep|Glob', hooks: [{ type: 'command', command: guarded(cg, 'pre-search'), timeout: 10 }] }) },
  { event: 'PostToolUse', group: (cg) => ({ matcher: 'Edit|MultiEdit|Write|NotebookEdit', hooks: [{ type: 'command', command: guarded(cg, 'post-edit'), timeout: 10 }] }) },
];

/** A matcher group cg wrote: one of its commands runs `… hook session-start|pre-search|post-edit`. */
export function isCgHook(group: unknown): boolean {
  const hooks = (group as { hooks?: { command?: unknown }[] } | null)?.hooks;
  return Array.isArray(hooks) && hooks.some((h) => typeof h?.command === 'string' && /\bhook (session-start|pre-search|post-edit)\b/.test(h.command));
}

export const SESSION_MAP_BUDGET = 1500;
const SEARCH_SYMBOLS = 8;
const SEARCH_PLACES = 5;

/** What the session-start hook adds: the repository map, and what to ask cg for. */
export async function sessionStartContext(db: Database.Database): Promise<string | null> {
  const map = await repoMap(db, { folder: null, budget: SESSION_MAP_BUDGET });
  if (map.status !== 'ok') return null;
  return [`CodeGrapher (cg) repository map: the ${map.files.length} most central of ${map.total_files} files, with their main definitions.`,
    'The cg MCP tools answer "which code does this task need", "who calls X" and "what breaks if I change X" from the same index.',
    '', map.text].join('\n');
}

/**
 * The words of a Grep regex or a Glob pattern as a person would type them: escapes (`\s`, `\b`),
 * wildcards and punctuation dropped, identifiers kept whole (`parse_file`, `getUser`).
 */
export function searchWords(pattern: string): string[] {
  const words = pattern.replace(/\\[a-zA-Z]/g, ' ').split(/[^A-Za-z0-9_]+/).filter((w) => w.length >= 3 && !/^\d+$/.test(w));
  const common = new Set(['def', 'function', 'class', 'func', 'const', 'let', 'var', 'import', 'from', 'return', 'public', 'private', 'static',
    'async', 'interface', 'struct', 'type', 'impl', 'pub', 'the', 'and']);
  // Glob patterns name extensions (`*.ts`) and folders (`src`) far more than code: keep what could be a name.
  return [...new Set(words.filter((w) => !common.has(w.toLowerCase())))].slice(0, 8);
}

/** What the pre-search hook adds for a Grep or Glob call: definitions named by its words, and cg's ranked places. */
export async function preSearchContext(db: Database.Database, root: string, tool: string, pattern: string): Promise<string | null> {
  const words = searchWords(tool === 'Glob' ? pattern.replace(/\*\*?|\{[^}]*\}|\.\w+$/g, ' ') : pattern);
  if (!words.length) return null;
  const defs: SymbolInfo[] = [];
  for (const w of words) {
    for (const s of searchSymbols(db, { pattern: w, limit: SEARCH_SYMBOLS }).symbols) {
      // Whole-name and prefix matches only: a substring match of a short word is noise.
      if (s.name.toLowerCase().startsWith(w.toLowerCase()) && !defs.some((d) => d.id === s.id)) defs.push(s);
    }
  }
  const lines: string[] = [];
  if (defs.length) {
    lines.push(`Definitions named like ${words.map((w) => `"${w}"`).join(', ')} (cg index):`);
    for (const s of defs.slice(0, SEARCH_SYMBOLS)) lines.push(`  ${s.file}:${s.startLine}  ${s.kind} ${s.qualifiedName}`);
  }
  const answer = await runQuery(db, root, { text: words.join(' '), budget: 600, maxRegions: SEARCH_PLACES, preset: 'lexical', depth: 0 });
  if (answer.files.length) {
    lines.push(`Places cg ranks first for "${words.join(' ')}":`);
    for (const f of answer.files) lines.push(`  ${f.path}:${f.line_range[0]}-${f.line_range[1]}  ${f.symbol ?? f.kind}  (${f.rationale})`);
  }
  return lines.length ? lines.join('\n') : null;
}
