/**
 * Log lines that name a function instead of a file: `ERROR in save_user: duplicate key`,
 * `WARN [UserService.save] retrying`, `render_invoice() failed`, `Exception in Cart::total`. Only
 * lines with a level or failure word are read, and a name counts only if the repository defines a
 * function, method or type of that name (the caller's `symbolFiles`, src/retrieve/signal-input.ts),
 * so prose does not turn into places.
 */

import type { RawRef } from './types.js';

const LEVEL = /\b(?:ERROR|ERR|WARN|WARNING|FATAL|CRITICAL|SEVERE|PANIC|EXCEPTION|FAIL(?:ED|URE)?|Error|Exception|error|failed|failure|panic(?:ked)?)\b/;
const NAME = String.raw`[A-Za-z_$][\w$]*(?:(?:\.|::|#|->)[A-Za-z_$][\w$]*)*`;
const PATTERNS = [
  new RegExp(String.raw`\b(?:in|at|from|inside|calling)\s+(${NAME})(?=\(|:|\s|,|$)`, 'g'),
  new RegExp(String.raw`(${NAME})\(\)`, 'g'),
  new RegExp(String.raw`\[(${NAME})\]`, 'g'),
];
/** Words a log line uses around names that are never the names meant. */
const NOT_NAMES = new Set(['ERROR', 'WARN', 'WARNING', 'INFO', 'DEBUG', 'FATAL', 'CRITICAL', 'main', 'thread', 'line', 'file',
  'the', 'this', 'that', 'function', 'method', 'module', 'request', 'response', 'handler', 'test', 'tests', 'error', 'at', 'in']);
/** Names read per line, and in all, before the rest is skipped. */
const MAX_PER_LINE = 3;
const MAX_NAMES = 200;

/** Symbol references (no path: written is empty) from log lines; `skip` holds lines another reader took. */
export function readLogNames(lines: string[], skip: ReadonlySet<number>): RawRef[][] {
  const blocks: RawRef[][] = [];
  const seen = new Set<string>();
  for (let i = 0; i < lines.length && seen.size < MAX_NAMES; i++) {
    const line = lines[i];
    if (skip.has(i) || line.length > 2000 || !LEVEL.test(line)) continue;
    let found = 0;
    for (const p of PATTERNS) {
      p.lastIndex = 0;
      for (let m = p.exec(line); m && found < MAX_PER_LINE; m = p.exec(line)) {
        const name = m[1].replace(/::|#|->/g, '.');
        if (name.length < 3 || NOT_NAMES.has(name) || /^\d/.test(name) || seen.has(name)) continue;
        seen.add(name);
        found++;
        blocks.push([{ written: '', line: null, column: null, symbol: name, kind: 'log', source: 'log-symbol' }]);
      }
    }
  }
  return blocks;
}
