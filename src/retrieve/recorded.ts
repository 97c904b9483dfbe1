import { loadConfig } from '../config/config.js';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { CG_DIR } from '../config/config.js';
import { fileHash } from '../extract/process.js';
import type { SignalLocation } from './query.js';
import { signalsFromText } from './signal-input.js';

/**
 * Signals recorded from a run (`cg signal record -- npm test`): the failures and stack frames its
 * output named, kept in `.codegraph/signals.json` for the queries that follow, so an agent does not
 * have to paste the output again. Each place keeps the content hash its file had when it was
 * recorded; once the file changes, the place has expired (the failure may be fixed, its lines have
 * moved) and queries leave it out and say so. A new recording replaces the previous one.
 */
export const RECORDED_FILE = 'signals.json';
/** Places kept from one run. */
const MAX_RECORDED = 200;

export interface RecordedSignals {
  command: string;
  exitCode: number;
  recordedAt: string;
  refs: (SignalLocation & { hash: string | null })[];
}

export function recordedPath(root: string): string {
  return path.join(root, CG_DIR, RECORDED_FILE);
}

/** The failures and frames a run's output names, with their files' hashes now. */
export function recordRun(db: Database.Database, root: string, output: string, command: string, exitCode: number): RecordedSignals {
  const refs = signalsFromText(db, root, output).filter((r) => r.exists && (r.kind === 'failure' || r.kind === 'frame'))
    .slice(0, MAX_RECORDED)
    .map((r) => ({ path: r.path, line: r.line, exists: true, depth: r.depth, symbol: r.symbol, kind: r.kind, hash: fileHash(root, r.path, loadConfig(root).maxFileBytes) }));
  return { command, exitCode, recordedAt: new Date().toISOString(), refs };
}

/** Replaces the recording (written whole, then renamed into place). */
export function saveRecorded(root: string, rec: RecordedSignals): void {
  const file = recordedPath(root);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(rec, null, 1)}\n`);
  fs.renameSync(tmp, file);
}

export function clearRecorded(root: string): boolean {
  try {
    fs.rmSync(recordedPath(root));
    return true;
  } catch {
    return false;
  }
}

/** The recording, or null when there is none (or it cannot be read: a recording is a hint, never an error). */
export function readRecorded(root: string): RecordedSignals | null {
  try {
    const rec = JSON.parse(fs.readFileSync(recordedPath(root), 'utf8')) as RecordedSignals;
    return rec && Array.isArray(rec.refs) && typeof rec.command === 'string' ? rec : null;
  } catch {
    return null;
  }
}

export interface RecordedForQuery {
  /** The places whose files did not change since the recording. */
  signals: SignalLocation[];
  /** Places left out because their files changed (or are gone). */
  expired: number;
  recording: RecordedSignals | null;
}

/** The recorded places still valid now: each file's content hash must be the one recorded. */
export function recordedForQuery(root: string): RecordedForQuery {
  const rec = readRecorded(root);
  if (!rec) return { signals: [], expired: 0, recording: null };
  const now = new Map<string, string | null>();
  const maxBytes = loadConfig(root).maxFileBytes;
  const hashOf = (p: string) => {
    if (!now.has(p)) now.set(p, fileHash(root, p, maxBytes));
    return now.get(p)!;
  };
  const signals: SignalLocation[] = [];
  let expired = 0;
  for (const r of rec.refs) {
    if (r.hash === null || hashOf(r.path) !== r.hash) {
      expired++;
      continue;
    }
    signals.push({ path: r.path, line: r.line, exists: true, depth: r.depth, symbol: r.symbol, kind: r.kind });
  }
  return { signals, expired, recording: rec };
}

/** The warnings a query answer gives about the recording it used or left out. */
export function recordedWarnings(r: RecordedForQuery): string[] {
  if (!r.recording) return [];
  const out: string[] = [];
  const from = `\`${r.recording.command}\` (exit ${r.recording.exitCode}, recorded ${r.recording.recordedAt})`;
  if (r.signals.length) out.push(`${r.signals.length} place(s) from the recorded run of ${from} were used as execution signals`);
  if (r.expired) {
    out.push(`${r.expired} recorded signal(s) of ${from} expired: their files changed since; run the command again with \`cg signal record\``);
  }
  return out;
}
