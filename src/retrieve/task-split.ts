import type Database from 'better-sqlite3';
import type { SignalLocation } from './query.js';
import { signalsFromText } from './signal-input.js';

/**
 * A task written as an issue report carries two things: the words of the task, and execution output
 * pasted into it (tracebacks, stack traces, panics, log lines). The output's lines are mostly paths
 * of libraries, frame numbers, addresses and line numbers: as words they pull the ranking towards
 * whatever file shares `site-packages`, `line`, `File` or `node_modules`; as locations they are the
 * best evidence there is. So the output is read as execution signals (src/retrieve/signals.ts) and
 * left out of the words; the exception's message line stays, as it says what went wrong.
 */

// A frame or location line of the runtimes' output (the signal scanner knows them in detail; here only
// whether a line is output, not words).
const OUTPUT_LINES = [
  /^\s*Traceback \(most recent call last\):\s*$/,
  /^\s*File "[^"]+", line \d+/, // Python
  /^\s+at \S.*(?:\(.*:\d+(?::\d+)?\)|:\d+(?::\d+)?)\s*$/, // V8, Java, Rust backtraces
  /^\s*#\d+ (?:\S+\.php\(\d+\)|\{main\}|\[internal function\])/, // PHP
  /^\s*#\d+\s+0x[0-9a-f]+ /, // gdb, lldb
  /^\s*\d+:\s+(?:0x[0-9a-f]+ - )?<?\w+::/, // Rust backtrace frames
  /^\s*\d+\s+\S+\s+0x[0-9a-f]+ \S+ \+ \d+\s*$/, // Swift and native crash frames
];
// Go prints `goroutine 1 [running]:` and then frames (a call line, a location line) up to a blank line.
const GOROUTINE = /^goroutine \d+ \[.*\]:\s*$/;
// A line that names a source file with a line number anywhere (`src/x.ts:12:5`, `x.py, line 3`).
const LOCATION = /[\w.@/\\-]+\.(?:py|pyi|[cm]?[jt]sx?|go|rs|java|kt|php|swift|rb|c|cc|cpp|h)\b["')]?(?::\d+|, line \d+)/;

export interface SplitTask {
  /** The task's words: the text without its execution output. */
  words: string;
  /** The repository locations the output names. */
  signals: SignalLocation[];
  /** Lines read as execution output and left out of the words. */
  outputLines: number;
}

export function splitTask(db: Database.Database, root: string, text: string): SplitTask {
  const lines = text.split('\n');
  const output = new Set<number>();
  let goroutine = false;
  for (const [i, line] of lines.entries()) {
    if (i === 0) continue; // the subject stays whatever it holds
    if (GOROUTINE.test(line)) goroutine = true;
    else if (!line.trim()) goroutine = false;
    if (goroutine || OUTPUT_LINES.some((re) => re.test(line)) || LOCATION.test(line)) {
      output.add(i);
      // Python prints the frame's source line under it, indented further: code of wherever the frame is.
      const next = lines[i + 1];
      if (/^\s*File "/.test(line) && next !== undefined && indent(next) > indent(line) && next.trim()) output.add(i + 1);
    }
  }
  if (!output.size) return { words: text, signals: [], outputLines: 0 };
  const signals = signalsFromText(db, root, text);
  return { words: lines.filter((_, i) => !output.has(i)).join('\n'), signals, outputLines: output.size };
}

function indent(line: string): number {
  return line.length - line.trimStart().length;
}
