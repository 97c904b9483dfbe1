/**
 * Execution signals -> file:line references. An agent attaches what it saw (a stack trace, failing
 * test output, log lines, a profile, a coverage report) to `cg query`; this finds the repository
 * locations in it, so retrieval can start from where the failure or the time is. It understands the
 * runtimes' and test runners' own output for cg's eight languages (see SIGNAL_SOURCES), profilers
 * (signals/profiles.ts) and coverage reports (signals/coverage.ts), log lines that name a function
 * (signals/logs.ts), and falls back to any `path.ext:line` that names a repository file.
 *
 * Order: the text's blocks (a trace, a failed test, a log line) in the order it printed them; within a
 * trace, innermost frame first, whether the tool printed it first (V8, Java, Go, Rust, PHP) or last
 * (Python, pytest). Exact duplicates are dropped, keeping the first.
 *
 * It never throws: any input gives a (possibly empty) list, in time linear in its length. At most
 * MAX_INPUT_CHARS are read (the tail of a longer text) and at most `maxRefs` references returned;
 * parseSignalsDetailed says when anything was left out.
 */

import { parseWrittenPath, PathResolver, type RepoFiles } from './signals/paths.js';
import { SignalScanner } from './signals/scan.js';
import { boundedInput, cleanLine, jsonStrings, splitLines } from './signals/text.js';
import type { RawRef } from './signals/types.js';
import { cpuProfile, readProfiles } from './signals/profiles.js';
import { cobertura, readCoverage } from './signals/coverage.js';
import { readLogNames } from './signals/logs.js';

export { MAX_INPUT_CHARS } from './signals/text.js';

export interface SignalRef {
  /** Repo-relative POSIX path when it resolves to a repository file; else the path as written. */
  path: string;
  line: number | null;
  column: number | null;
  /** The function or method the location is in, as cg qualifies names (`Cart.total`), when the format names it. */
  symbol: string | null;
  /**
   * frame: an entry of a call stack, the innermost one (where it was thrown) included.
   * failure: where a tool reports that something failed, outside a stack: a failed assertion or test
   * (pytest, go test, JUnit, PHPUnit, XCTest, Jest/Vitest), a panic (Rust), a fatal error (PHP, Swift),
   * a compiler error (tsc, rustc, javac, go build, swiftc).
   * log: a location in a log line, a warning, a passing test's log, or the generic fallback.
   * hotspot: a profile's entry, hottest first (depth 0). coverage: code a run executed.
   */
  kind: 'frame' | 'failure' | 'log' | 'hotspot' | 'coverage';
  /** Which format matched: one of SIGNAL_SOURCES. */
  source: string;
  /** The file exists in the repository now; false = a stale reference or a library's file (low confidence). */
  exists: boolean;
  /**
   * 0 for the most relevant location of its block; within a trace, how many repository frames are
   * nearer the failure than this one. Library frames do not count, so the innermost frame in the
   * repository has depth 0 even under ten frames of the standard library.
   */
  depth: number;
}

export interface SignalParse {
  refs: SignalRef[];
  /** Something was left out: more than maxRefs references, an input over MAX_INPUT_CHARS, or a trace over 1000 frames. */
  truncated: boolean;
}

export interface SignalOptions {
  /** Default MAX_SIGNAL_REFS. */
  maxRefs?: number;
}

export const MAX_SIGNAL_REFS = 200;

export const SIGNAL_SOURCES = [
  'python-traceback', 'pytest', 'node-stack', 'jest', 'vitest', 'tsc', 'go-panic', 'go-test', 'go-build',
  'java-stack', 'junit', 'javac', 'php-error', 'phpunit', 'rust-panic', 'cargo-test', 'rustc', 'swift-xctest',
  'swift-testing', 'swift-crash', 'swiftc', 'compiler', 'cprofile', 'pprof', 'node-prof', 'cpuprofile', 'profile', 'lcov',
  'cobertura', 'go-cover', 'log-symbol', 'generic',
] as const;

/** The path (as a tool printed it) is inside an installed library or toolchain, not a repository's own tree. */
export function isLibraryPath(written: string): boolean {
  return (parseWrittenPath(written)?.libraryTail ?? 0) > 0;
}

export function parseSignals(text: string, repo: RepoFiles): SignalRef[] {
  return parseSignalsDetailed(text, repo).refs;
}

export function parseSignalsDetailed(text: string, repo: RepoFiles, options: SignalOptions = {}): SignalParse {
  try {
    return parse(text, repo, options);
  } catch {
    // Signals are a hint for retrieval: a parser bug must not cost the agent its query.
    return { refs: [], truncated: true };
  }
}

function parse(text: string, repo: RepoFiles, options: SignalOptions): SignalParse {
  if (typeof text !== 'string' || text.length === 0) return { refs: [], truncated: false };
  const maxRefs = Math.max(0, options.maxRefs ?? MAX_SIGNAL_REFS);
  const input = boundedInput(text);
  const read = readAll(input.text);
  const resolver = new PathResolver({ root: typeof repo?.root === 'string' ? repo.root : '', files: repo?.files ?? new Set() });
  resolver.learnRoots(read.blocks.flatMap((block) => block.map((r) => r.written)));
  const symbolFiles = typeof repo?.symbolFiles === 'function' ? repo.symbolFiles.bind(repo) : () => [];

  const refs: SignalRef[] = [];
  const seen = new Set<string>();
  let truncated = input.cut || read.truncated;
  for (const block of read.blocks) {
    for (const r of resolveBlock(block, resolver, symbolFiles)) {
      const key = refKey(r);
      if (seen.has(key)) continue;
      seen.add(key);
      if (refs.length >= maxRefs) return { refs, truncated: true };
      refs.push(r);
    }
  }
  return { refs, truncated };
}

/**
 * Every reader over the text: a whole document (a CPU profile's JSON, a Cobertura report) is read as
 * that; otherwise profile and coverage tables take their lines, the line scanner reads the rest,
 * and log lines that name functions come last.
 */
function readAll(text: string): { blocks: RawRef[][]; truncated: boolean } {
  const document = readDocument(text);
  if (document) return { blocks: document, truncated: false };
  const lines = splitLines(text);
  const profiles = readProfiles(lines);
  const coverage = readCoverage(lines);
  const taken = new Set([...profiles.lines, ...coverage.lines]);
  const scanner = scan(lines, taken);
  return { blocks: [...profiles.blocks, ...scanner.blocks, ...coverage.blocks, ...readLogNames(lines, taken)], truncated: scanner.truncated };
}

/** A text that is one structured document: a Chrome/V8 CPU profile, a Cobertura XML report. */
function readDocument(text: string): RawRef[][] | null {
  const t = text.trim();
  if (t.startsWith('{') && t.endsWith('}') && t.includes('"callFrame"')) {
    try {
      const refs = cpuProfile(JSON.parse(t));
      if (refs) return refs.length ? [refs] : [];
    } catch {
      // not JSON after all: read it as lines
    }
  }
  if (t.startsWith('<') && t.includes('<coverage')) return cobertura(t);
  return null;
}

function scan(lines: string[], skip: ReadonlySet<number>): SignalScanner {
  const scanner = new SignalScanner();
  for (const [i, raw] of lines.entries()) {
    if (skip.has(i)) continue;
    if (scanner.full) break;
    const strings = startsLikeJson(raw) ? jsonStrings(raw) : null;
    if (strings) feedJsonStrings(scanner, strings);
    else scanner.line(cleanLine(raw));
  }
  scanner.end();
  return scanner;
}

function startsLikeJson(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== ' ' && c !== '\t') return c === '{';
  }
  return false;
}

/** A multi-line string of a JSON record is output in its own right (a stack, `go test -json` output). */
function feedJsonStrings(scanner: SignalScanner, strings: string[]): void {
  for (const s of strings) {
    if (!s.includes('\n') && !s.includes('\r')) {
      scanner.looseLine(cleanLine(s));
      continue;
    }
    const lines = splitLines(s);
    // `go test -json` ends each output with a newline: that is no blank line ending a trace.
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    for (const line of lines) scanner.line(cleanLine(line));
  }
}

function resolveBlock(block: RawRef[], resolver: PathResolver, symbolFiles: (name: string) => string[]): SignalRef[] {
  const out: SignalRef[] = [];
  const inBlock = new Set<string>();
  let repositoryFramesBefore = 0;
  for (const raw of block) {
    // A name without a file (a log line's function, a Go profile's) counts when one file defines it.
    const named = raw.written === '' && raw.symbol ? symbolFiles(raw.symbol) : null;
    if (named && named.length !== 1) continue;
    const where = named ? { path: named[0], exists: true } : resolver.resolve(raw.written, raw.dirHint);
    if (!where || (raw.onlyIfResolved && !where.exists)) continue;
    const r: SignalRef = { path: where.path, line: raw.line, column: raw.column, symbol: raw.symbol, kind: raw.kind,
      source: raw.source, exists: where.exists, depth: repositoryFramesBefore };
    // A trace that names a location twice (PHP's `thrown in` repeats the site) is no deeper for it.
    const key = refKey(r);
    if (inBlock.has(key)) continue;
    inBlock.add(key);
    out.push(r);
    if (where.exists) repositoryFramesBefore++;
  }
  return out;
}

function refKey(r: SignalRef): string {
  return `${r.path}\0${r.line}\0${r.column}\0${r.symbol}\0${r.kind}`;
}
