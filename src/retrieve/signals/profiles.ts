/**
 * Profiler output: where the time went, hottest first. Each profile is one block, so the hottest
 * function in the repository has depth 0 and library or runtime entries do not count (src/retrieve/signals.ts).
 *
 *   cProfile / pstats   `ncalls tottime percall cumtime percall filename:lineno(function)`, by own time
 *   go tool pprof -top  `flat flat% sum% cum cum%` rows naming `pkg.(*T).Method`, with `file:line` under `-lines`
 *   node --prof-process the `[JavaScript]:` section, `ticks total nonlib name` rows with `JS: *fn file:line:col`
 *   a plain listing      `web/api.ts formatName 83%`
 *   Chrome / V8 .cpuprofile JSON: nodes' own samples summed per function (documents.ts reads the JSON)
 */

import type { RawRef } from './types.js';
import { splitLocation, toLine } from './text.js';
import { goSymbol, pythonSymbol, v8Symbol } from './symbols.js';

/** Entries of a profile kept: the rest of a long tail is noise for a query. */
export const MAX_HOTSPOTS = 20;

const CPROFILE_HEADER = /^\s*ncalls\s+tottime\s+percall\s+cumtime\s+percall\s+filename:lineno\(function\)\s*$/;
const CPROFILE_ROW = /^\s*[\d/]+\s+([\d.]+)\s+[\d.]+\s+([\d.]+)\s+[\d.]+\s+(?:(.+):(\d+)\((.+)\)|\{.*\})\s*$/;
const PPROF_HEADER = /^\s*flat\s+flat%\s+sum%\s+cum\s+cum%\s*$/;
const PPROF_ROW = /^\s*([\d.]+)(\w*)\s+([\d.]+)%\s+[\d.]+%\s+[\d.]+\w*\s+[\d.]+%\s+(\S+)(?:\s+(\S+:\d+))?(?:\s+\(inline\))?\s*$/;
const NODE_SECTION = /^ \[([^\]]+)\]:\s*$/;
const NODE_ROW = /^\s+(\d+)\s+([\d.]+)%\s+(?:[\d.]+%\s+)?(.+?)\s*$/;
const NODE_NAME = /^(?:(?:JS|LazyCompile|Function|Script|Builtin|BytecodeHandler|Handler|Stub|RegExp|Code|Eval):\s*)?[*~^+]?(.*)$/;
const PLAIN_ROW = /^\s*(\S+\.[A-Za-z]{1,5})\s+([\w.$:<>]+)\s+([\d.]+)%\s*$/;

export interface TableRead {
  blocks: RawRef[][];
  /** Indexes of the lines the tables took: the line scanner skips them. */
  lines: Set<number>;
}

function hotspot(written: string, line: number | null, column: number | null, symbol: string | null, source: string): RawRef {
  return { written, line, column, symbol, kind: 'hotspot', source };
}

/** The profile tables in the text, and the lines they took. */
export function readProfiles(lines: string[]): TableRead {
  const out: TableRead = { blocks: [], lines: new Set() };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.includes('tottime') && CPROFILE_HEADER.test(line)) i = cprofile(lines, i, out);
    else if (line.includes('flat%') && PPROF_HEADER.test(line)) i = pprof(lines, i, out);
    else if (line.startsWith(' [JavaScript]')) i = nodeProf(lines, i, out);
  }
  plainRows(lines, out);
  return out;
}

/** cProfile: rows until the first line that is not one; ranked by own time (the sort order is the caller's choice). */
function cprofile(lines: string[], header: number, out: TableRead): number {
  const rows: { ref: RawRef; own: number; cum: number }[] = [];
  out.lines.add(header);
  let i = header + 1;
  for (; i < lines.length; i++) {
    const m = CPROFILE_ROW.exec(lines[i]);
    if (!m) {
      if (lines[i].trim() === '' && rows.length === 0) continue;
      break;
    }
    out.lines.add(i);
    // `{built-in method builtins.exec}`, `~:0(<built-in method ...>)`: no file of the program's.
    if (m[3] === undefined || m[3] === '~') continue;
    rows.push({ ref: hotspot(m[3], toLine(m[4]), null, pythonSymbol(m[5]), 'cprofile'), own: Number(m[1]), cum: Number(m[2]) });
  }
  rows.sort((a, b) => b.own - a.own || b.cum - a.cum);
  const kept = rows.filter((r) => r.own > 0 || r.cum > 0).slice(0, MAX_HOTSPOTS);
  if (kept.length) out.blocks.push(kept.map((r) => r.ref));
  return i - 1;
}

/**
 * `go tool pprof -top` (and `-lines`): rows as printed, by flat (own) time, then the rows with no
 * own time in the order printed (pprof sorts them by cumulative time): a function of the program
 * often spends its time in the runtime's.
 */
function pprof(lines: string[], header: number, out: TableRead): number {
  const own: RawRef[] = [];
  const rest: RawRef[] = [];
  out.lines.add(header);
  let i = header + 1;
  for (; i < lines.length; i++) {
    const m = PPROF_ROW.exec(lines[i]);
    if (!m) break;
    out.lines.add(i);
    const where = m[5] ? splitLocation(m[5]) : null;
    (Number(m[1]) > 0 ? own : rest).push(hotspot(where?.path ?? '', where?.line ?? null, null, goSymbol(m[4]), 'pprof'));
  }
  const refs = [...own, ...rest].slice(0, MAX_HOTSPOTS);
  if (refs.length) out.blocks.push(refs);
  return i - 1;
}

/**
 * `node --prof-process`: the [JavaScript] section's rows, by ticks as printed. The other sections
 * (shared libraries, C++, the bottom-up profile) are the same output: their lines are taken too, so
 * the locations they repeat are not read again as log lines.
 */
function nodeProf(lines: string[], header: number, out: TableRead): number {
  const refs: RawRef[] = [];
  for (let s = header - 1; s >= 0 && !lines[s].startsWith('Statistical profiling result'); s--) out.lines.add(s);
  for (let s = header; s < lines.length && !(lines[s].trim() === '' && lines[s + 1]?.trim() === ''); s++) out.lines.add(s);
  let i = header + 1;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (NODE_SECTION.test(line)) break;
    const m = NODE_ROW.exec(line);
    if (!m) continue;
    out.lines.add(i);
    if (refs.length >= MAX_HOTSPOTS) continue;
    const name = NODE_NAME.exec(m[3])![1];
    const space = name.lastIndexOf(' ');
    const where = splitLocation(space >= 0 ? name.slice(space + 1) : name);
    if (!where) continue;
    refs.push(hotspot(where.path, where.line, where.column, v8Symbol(space >= 0 ? name.slice(0, space) : null), 'node-prof'));
  }
  if (refs.length) out.blocks.push(refs);
  return i - 1;
}

/** `web/api.ts formatName 83%`: a listing of hot functions by share, as an agent pastes one. */
function plainRows(lines: string[], out: TableRead): void {
  const rows: { ref: RawRef; share: number }[] = [];
  lines.forEach((line, i) => {
    if (out.lines.has(i) || !line.includes('%')) return;
    const m = PLAIN_ROW.exec(line);
    if (!m) return;
    out.lines.add(i);
    rows.push({ ref: hotspot(m[1], null, null, m[2].replace(/::/g, '.'), 'profile'), share: Number(m[3]) });
  });
  rows.sort((a, b) => b.share - a.share);
  if (rows.length) out.blocks.push(rows.slice(0, MAX_HOTSPOTS).map((r) => r.ref));
}

interface CpuProfileNode {
  id: number;
  callFrame?: { functionName?: string; url?: string; lineNumber?: number; columnNumber?: number };
  hitCount?: number;
}

/**
 * A Chrome DevTools / V8 CPU profile (`node --cpu-prof`, the Performance panel): each node's own
 * samples (hitCount, or the samples that name it), summed per function, hottest first.
 */
export function cpuProfile(value: unknown): RawRef[] | null {
  const v = value as { nodes?: unknown; samples?: unknown };
  if (!v || !Array.isArray(v.nodes) || !v.nodes.every((n) => n && typeof n === 'object' && 'callFrame' in n)) return null;
  const nodes = v.nodes as CpuProfileNode[];
  const hits = new Map<number, number>();
  const fromSamples = nodes.every((n) => n.hitCount === undefined) && Array.isArray(v.samples);
  if (fromSamples) for (const id of v.samples as number[]) hits.set(id, (hits.get(id) ?? 0) + 1);
  const byFunction = new Map<string, { ref: RawRef; hits: number }>();
  for (const n of nodes) {
    const own = fromSamples ? hits.get(n.id) ?? 0 : n.hitCount ?? 0;
    const f = n.callFrame ?? {};
    if (!own || !f.url || typeof f.url !== 'string') continue;
    const line = typeof f.lineNumber === 'number' && f.lineNumber >= 0 ? f.lineNumber + 1 : null;
    const column = typeof f.columnNumber === 'number' && f.columnNumber >= 0 ? f.columnNumber + 1 : null;
    const key = `${f.url}\0${line}\0${f.functionName}`;
    const entry = byFunction.get(key) ?? { ref: hotspot(f.url, line, column, v8Symbol(f.functionName || null), 'cpuprofile'), hits: 0 };
    entry.hits += own;
    byFunction.set(key, entry);
  }
  return [...byFunction.values()].sort((a, b) => b.hits - a.hits).slice(0, MAX_HOTSPOTS).map((e) => e.ref);
}
