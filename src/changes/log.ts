import fs from 'node:fs';
import path from 'node:path';
import { CG_DIR } from '../paths.js';
import { posixCksum } from './cksum.js';

/**
 * The write-ahead change log: `.codegraph/wal/changes.log`, append-only, one record per line:
 *
 *     CG1 <cksum> <length> <json>\n
 *
 * `<cksum> <length>` is exactly what POSIX `cksum` prints for the JSON bytes, so the git hooks can
 * write records with nothing but sh, printf and cksum, and return in milliseconds. The hooks feed cksum
 * a here-document (no pipeline to fork), which ends the JSON with a newline: such a record's length is
 * one more than its JSON's and its checksum covers the newline too. The hooks also start each record
 * with a newline, so that a torn line before it is ended; the reader skips empty lines. A record is durable
 * (fsync'd) before its writer returns. Records are hints: they say *that* something changed and, for
 * saves, which paths; the applier always compares the working tree with the index, so replaying a
 * record twice changes nothing.
 */
export const LOG_RELATIVE = path.join(CG_DIR, 'wal', 'changes.log');

export type ChangeEvent = 'post-commit' | 'post-merge' | 'post-checkout' | 'post-rewrite' | 'save';

export interface ChangeRecord {
  v: 1;
  event: ChangeEvent;
  /** HEAD when the hook ran (git events). */
  head?: string;
  /** post-checkout: previous HEAD, new HEAD, and 1 for a branch checkout / 0 for files. */
  from?: string;
  to?: string;
  flag?: string;
  /** save records: repo-relative POSIX paths. */
  paths?: string[];
  /** Unix seconds. */
  at: number;
}

export interface LogEntry {
  offset: number;
  record: ChangeRecord;
}

export interface LogProblem {
  offset: number;
  kind: 'corrupt';
  detail: string;
}

export interface LogRead {
  entries: LogEntry[];
  problems: LogProblem[];
  /** Offset just past the last complete line: the next checkpoint. */
  end: number;
}

export function logPath(root: string): string {
  return path.join(root, LOG_RELATIVE);
}

export function encodeRecord(record: ChangeRecord): string {
  const json = JSON.stringify(record);
  const bytes = Buffer.from(json, 'utf8');
  return `CG1 ${posixCksum(bytes)} ${bytes.length} ${json}\n`;
}

/**
 * Appends one record and fsyncs it. If the log ends in a torn line (a writer died mid-write), a
 * newline is written first so the torn bytes stay one detectable corrupt line, not a prefix of ours.
 */
export function appendRecord(root: string, record: ChangeRecord): void {
  const file = logPath(root);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'a+');
  try {
    const size = fs.fstatSync(fd).size;
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n';
    }
    fs.writeSync(fd, prefix + encodeRecord(record));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Reads complete records from `offset`. A line whose checksum or length does not match is reported
 * and skipped (never half-applied); an unterminated last line is left for the next read, since its
 * writer may still be writing.
 */
export function readLog(root: string, offset: number): LogRead {
  const out: LogRead = { entries: [], problems: [], end: offset };
  let buf: Buffer;
  try {
    const fd = fs.openSync(logPath(root), 'r');
    try {
      const size = fs.fstatSync(fd).size;
      if (size < offset) {
        out.problems.push({ offset, kind: 'corrupt', detail: `the log is shorter (${size} bytes) than the checkpoint (${offset})` });
        out.end = size;
        return out;
      }
      buf = Buffer.alloc(size - offset);
      fs.readSync(fd, buf, 0, buf.length, offset);
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw err;
  }
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl === -1) break; // unterminated: still being written, or torn (then the next append terminates it)
    const lineOffset = offset + pos;
    const line = buf.subarray(pos, nl).toString('utf8');
    pos = nl + 1;
    out.end = offset + pos;
    if (!line) continue;
    const parsed = decodeLine(line);
    if (typeof parsed === 'string') out.problems.push({ offset: lineOffset, kind: 'corrupt', detail: parsed });
    else out.entries.push({ offset: lineOffset, record: parsed });
  }
  return out;
}

const NEWLINE = Buffer.from('\n');

function decodeLine(line: string): ChangeRecord | string {
  const m = /^CG1 (\d+) (\d+) (.*)$/s.exec(line);
  if (!m) return 'not a change-log record';
  const json = Buffer.from(m[3], 'utf8');
  // The git hooks checksum the JSON as a here-document gives it to cksum, newline included.
  const bytes = Number(m[2]) === json.length + 1 ? Buffer.concat([json, NEWLINE]) : json;
  if (bytes.length !== Number(m[2])) return `length ${json.length} does not match the recorded ${m[2]} (torn write)`;
  if (posixCksum(bytes) !== Number(m[1])) return 'checksum mismatch';
  try {
    const rec = JSON.parse(m[3]) as ChangeRecord;
    if (rec.v !== 1 || typeof rec.event !== 'string') return `unknown record version or event`;
    return rec;
  } catch {
    return 'checksum matches but the JSON does not parse';
  }
}

/** Records after the checkpoint, for freshness reports; cheap because the log is small. */
export function pendingRecords(root: string, checkpoint: number): number {
  try {
    const size = fs.statSync(logPath(root)).size;
    if (size <= checkpoint) return 0;
  } catch {
    return 0;
  }
  const read = readLog(root, checkpoint);
  return read.entries.length + read.problems.length;
}
