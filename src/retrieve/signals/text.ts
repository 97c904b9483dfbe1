/**
 * Turning pasted tool output into lines the format matchers can trust: bounded in size, without
 * colour codes, control bytes or CI timestamps, and with JSON log lines opened up.
 */

/** Beyond this, only the tail is read: CI logs end with the failure summary. */
export const MAX_INPUT_CHARS = 16 * 1024 * 1024;
/** Longer lines are minified code or data; their start is kept, so matching stays cheap. */
export const MAX_LINE_CHARS = 8192;
const MAX_JSON_LINE_CHARS = 1024 * 1024;
const MAX_JSON_DEPTH = 16;
/** A line number this large is an address or a count, not a line. */
const MAX_LINE_NUMBER = 10_000_000;

const ANSI = /\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;
// GitHub Actions prefixes every line of a downloaded log with its time.
const CI_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;

export function boundedInput(text: string): { text: string; cut: boolean } {
  if (text.length <= MAX_INPUT_CHARS) return { text, cut: false };
  const tail = text.slice(text.length - MAX_INPUT_CHARS);
  const firstBreak = tail.indexOf('\n');
  return { text: firstBreak >= 0 ? tail.slice(firstBreak + 1) : tail, cut: true };
}

export function splitLines(text: string): string[] {
  return text.split(/\r\n|\n|\r/);
}

export function cleanLine(raw: string): string {
  let line = raw.length > MAX_LINE_CHARS ? raw.slice(0, MAX_LINE_CHARS) : raw;
  if (line.includes('\x1b')) line = line.replace(ANSI, '');
  line = line.replace(CONTROL, '');
  if (line.length > 20 && line.charCodeAt(0) >= 48 && line.charCodeAt(0) <= 57) line = line.replace(CI_TIMESTAMP, '');
  return line.trimEnd();
}

/**
 * The string values of a JSON log line (`{"level":"error","stack":"Error: x\n    at f (...)"}`,
 * `go test -json`), or null when the line is not a JSON object. Stack traces hide in these strings.
 */
export function jsonStrings(line: string): string[] | null {
  const t = line.trim();
  if (t.length < 2 || t.length > MAX_JSON_LINE_CHARS || t[0] !== '{' || t[t.length - 1] !== '}') return null;
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch {
    return null;
  }
  const out: string[] = [];
  collectStrings(value, out, 0);
  return out;
}

function collectStrings(value: unknown, out: string[], depth: number): void {
  if (typeof value === 'string') out.push(value);
  else if (depth >= MAX_JSON_DEPTH || value === null || typeof value !== 'object') return;
  else for (const v of Array.isArray(value) ? value : Object.values(value)) collectStrings(v, out, depth + 1);
}

export function toLine(digits: string | undefined): number | null {
  if (digits === undefined || digits.length > 8) return null;
  const n = Number(digits);
  return Number.isInteger(n) && n <= MAX_LINE_NUMBER ? n : null;
}

export interface Location {
  path: string;
  line: number;
  column: number | null;
}

/** `path:12:5` or `path:12`; the path keeps colons of its own (a Windows drive, a URL scheme). */
export function splitLocation(text: string): Location | null {
  const m = /:(\d+)(?::(\d+))?$/.exec(text);
  if (!m || m.index === 0) return null;
  const line = toLine(m[1]);
  if (line === null) return null;
  return { path: text.slice(0, m.index), line, column: m[2] === undefined ? null : toLine(m[2]) };
}

/** The index of the `(` that opens the group a text ends with, or -1. Linear, nesting-aware. */
export function openingParen(text: string): number {
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text[i];
    if (c === ')') depth++;
    else if (c === '(' && --depth === 0) return i;
  }
  return -1;
}
