/**
 * Coverage reports: which code a run executed. Evidence of the weakest kind (a whole suite covers
 * most of a repository), so each covered function, or each run of covered lines where the report
 * names no functions, is a `coverage` reference of its own, at most MAX_PER_FILE per file.
 *
 *   lcov         `SF:` / `FN:line,name` / `FNDA:hits,name` / `DA:line,hits` / `end_of_record` (c8, nyc,
 *                Istanbul, coverage.py's `coverage lcov`, cargo-llvm-cov, ...)
 *   Cobertura    XML: `<source>`s, `<class filename=...>` with `<method name=...>` and `<line number hits>`
 *                (coverage.py's `coverage xml`, JaCoCo converters, gcovr, ...)
 *   Go           `go test -coverprofile`: `mode: set`, then `pkg/file.go:12.34,15.2 3 1`
 */

import type { RawRef } from './types.js';
import { toLine } from './text.js';
import type { TableRead } from './profiles.js';

/** Covered places kept per file: a run of a whole suite would otherwise name every function. */
export const MAX_PER_FILE = 10;

function covered(written: string, line: number | null, symbol: string | null, source: string): RawRef {
  return { written, line, column: null, symbol, kind: 'coverage', source };
}

/** lcov and Go cover profiles in the text, and the lines they took. */
export function readCoverage(lines: string[]): TableRead {
  const out: TableRead = { blocks: [], lines: new Set() };
  lcov(lines, out);
  goCover(lines, out);
  return out;
}

function lcov(lines: string[], out: TableRead): void {
  let file: string | null = null;
  let fn = new Map<string, number>();
  let fnda = new Map<string, number>();
  let da: [number, number][] = [];
  let start = -1;
  const finish = (end: number) => {
    if (file === null) return;
    for (let i = start; i <= end; i++) out.lines.add(i);
    const refs: RawRef[] = [];
    for (const [name, hits] of fnda) {
      if (hits > 0 && refs.length < MAX_PER_FILE) refs.push(covered(file, fn.get(name) ?? null, name, 'lcov'));
    }
    if (!fn.size) for (const line of runStarts(da)) refs.push(covered(file, line, null, 'lcov'));
    for (const r of refs) out.blocks.push([r]);
    file = null;
  };
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line.startsWith('SF:')) {
      finish(i - 1);
      file = line.slice(3);
      fn = new Map();
      fnda = new Map();
      da = [];
      start = i;
    } else if (file === null) {
      return;
    } else if (line.startsWith('FN:')) {
      // FN:<line>,<name> or, since lcov 2, FN:<line>,<end line>,<name>
      const parts = line.slice(3).split(',');
      const n = toLine(parts[0]);
      if (n !== null) fn.set(parts[parts.length - 1], n);
    } else if (line.startsWith('FNDA:')) {
      const comma = line.indexOf(',');
      fnda.set(line.slice(comma + 1), Number(line.slice(5, comma)) || 0);
    } else if (line.startsWith('DA:')) {
      const [n, hits] = line.slice(3).split(',');
      const at = toLine(n);
      if (at !== null) da.push([at, Number(hits) || 0]);
    } else if (line === 'end_of_record') {
      finish(i);
    }
  });
}

const GO_COVER_MODE = /^mode: (set|count|atomic)$/;
const GO_COVER_BLOCK = /^(.+\.go):(\d+)\.\d+,(\d+)\.\d+ \d+ (\d+)$/;

function goCover(lines: string[], out: TableRead): void {
  const mode = lines.findIndex((l) => GO_COVER_MODE.test(l.trim()));
  if (mode < 0) return;
  out.lines.add(mode);
  const byFile = new Map<string, [number, number][]>();
  for (let i = mode + 1; i < lines.length; i++) {
    const m = GO_COVER_BLOCK.exec(lines[i].trim());
    if (!m) continue;
    out.lines.add(i);
    const list = byFile.get(m[1]) ?? [];
    for (let l = Number(m[2]); l <= Number(m[3]); l++) list.push([l, Number(m[4])]);
    byFile.set(m[1], list);
  }
  for (const [file, da] of byFile) for (const line of runStarts(da)) out.blocks.push([covered(file, line, null, 'go-cover')]);
}

/** The first line of each run of covered lines, at most MAX_PER_FILE. */
function runStarts(da: [number, number][]): number[] {
  const hit = [...new Set(da.filter(([, h]) => h > 0).map(([l]) => l))].sort((a, b) => a - b);
  const out: number[] = [];
  for (let i = 0; i < hit.length && out.length < MAX_PER_FILE; i++) if (i === 0 || hit[i] > hit[i - 1] + 1) out.push(hit[i]);
  return out;
}

/**
 * A Cobertura XML report: per class (a file), each method with a covered line, or else each run of
 * covered lines. Relative file names are under the report's `<source>` directories.
 */
export function cobertura(text: string): RawRef[][] | null {
  if (!/<coverage[\s>]/.test(text) || !/<class\s/.test(text)) return null;
  const sources = [...text.matchAll(/<source>([^<]*)<\/source>/g)].map((m) => xmlText(m[1]).replace(/\/+$/, '')).filter(Boolean);
  const blocks: RawRef[][] = [];
  for (const cls of text.matchAll(/<class\s([^>]*)>([\s\S]*?)<\/class>/g)) {
    const file = attr(cls[1], 'filename');
    if (!file) continue;
    const written = file.startsWith('/') || !sources.length ? file : `${sources[0]}/${file}`;
    const refs: RawRef[] = [];
    for (const m of cls[2].matchAll(/<method\s([^>]*)>([\s\S]*?)<\/method>/g)) {
      const first = coveredLines(m[2])[0];
      if (first !== undefined && refs.length < MAX_PER_FILE) refs.push(covered(written, first, attr(m[1], 'name'), 'cobertura'));
    }
    if (!refs.length) {
      const body = cls[2].replace(/<methods>[\s\S]*?<\/methods>/g, '');
      for (const line of runStarts(coveredLines(body).map((l) => [l, 1]))) refs.push(covered(written, line, null, 'cobertura'));
    }
    for (const r of refs) blocks.push([r]);
  }
  return blocks;
}

function coveredLines(xml: string): number[] {
  const out: number[] = [];
  for (const m of xml.matchAll(/<line\s([^>]*)\/?>/g)) {
    const n = toLine(attr(m[1], 'number') ?? undefined);
    if (n !== null && Number(attr(m[1], 'hits')) > 0) out.push(n);
  }
  return out;
}

function attr(attrs: string, name: string): string | null {
  const m = new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attrs);
  return m ? xmlText(m[1]) : null;
}

function xmlText(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&').trim();
}
