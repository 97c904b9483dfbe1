import type Database from 'better-sqlite3';
import { prepared } from '../store/queries.js';

/**
 * Warnings every graph and retrieval answer carries (spec 004, FR-003): how many of the relations it
 * shows are uncertain (confidence at or below the threshold: a name match, several candidates, code
 * in a syntax error), and which of its files were parsed only partially (their definitions and
 * relations may be incomplete). Counted once per answer, never repeated per entry: each entry keeps
 * its own confidence. Stale execution signals are warned about where signals are read
 * (src/retrieve/query.ts).
 */
export const DEFAULT_LOW_CONFIDENCE = 0.7;
/** Partial files named in a warning; more are counted. */
const NAMED_FILES = 5;

export interface AnswerEvidence {
  /** The confidence of each relation the answer shows (an edge, or the product along a path). */
  confidences: number[];
  /** The files the answer shows or went through. */
  files: Iterable<string>;
}

export function answerWarnings(db: Database.Database, evidence: AnswerEvidence, threshold = DEFAULT_LOW_CONFIDENCE): string[] {
  const out: string[] = [];
  const low = evidence.confidences.filter((c) => c <= threshold).length;
  if (low) {
    out.push(`${low} of ${evidence.confidences.length} relation(s) in this answer have a confidence of ${percent(threshold)} or less `
      + '(a match by name only, one of several candidates, or code in a syntax error): check them before relying on them');
  }
  const partial = partialFiles(db, evidence.files);
  if (partial.length) {
    const named = partial.slice(0, NAMED_FILES).join(', ') + (partial.length > NAMED_FILES ? `, and ${partial.length - NAMED_FILES} more` : '');
    out.push(`${partial.length} file(s) in this answer have syntax errors and were indexed partially, so some of their `
      + `definitions and relations may be missing: ${named}`);
  }
  return out;
}

/** The files among `paths` that were parsed with syntax errors, sorted. */
export function partialFiles(db: Database.Database, paths: Iterable<string>): string[] {
  const list = [...new Set(paths)];
  if (!list.length) return [];
  return prepared(db, 'SELECT path FROM files WHERE partial = 1 AND path IN (SELECT value FROM json_each(?)) ORDER BY path')
    .pluck().all(JSON.stringify(list)) as string[];
}

function percent(x: number): string {
  return `${Math.round(x * 100)} %`;
}
