import type Database from 'better-sqlite3';
import { commitMessages, commitMessagesAsync } from '../repo/git.js';
import { Allowlist } from '../secrets/allowlist.js';
import { scanSecrets } from '../secrets/scan.js';
import { readMeta } from '../store/db.js';

/**
 * Lines a repository's commit messages repeat: pull-request templates ("## 🎯 Changes", "- [ ] I have
 * added tests", "What changes are made in this PR?"), sign-off boilerplate, checklists. A task written
 * as a commit message or pull-request description carries them too, and their words (changes, feature,
 * bug, documentation, tests) match code all over the repository without saying anything about the
 * task. They are learnt from the repository's own history at index time (stored in the index meta) and
 * left out of the ranking's query text; the first line of a query, its subject, is always kept.
 *
 * Measured on the held-out tasks (eval/README.md): recall@1 0.540 -> 0.550, MRR 0.784 -> 0.793, no
 * task worse; the dev set's descriptions had their templates cleaned by its miner, so it is unchanged.
 */

/** How many commits the repetitions are counted over. */
export const MESSAGE_COMMITS = 1000;
/** A line is boilerplate when at least this many of those messages hold it (and at least MIN_SHARE of them). */
const MIN_MESSAGES = 3;
const MIN_SHARE = 0.01;
/** The meta key the lines are stored under (a JSON array of normalised lines, sorted). */
export const BOILERPLATE_META = 'message_boilerplate';

/** Case, surrounding space and runs of spaces do not make two lines different. */
export function normaliseLine(line: string): string {
  return line.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** The normalised lines that recur across these commit messages, sorted (each message counts a line once). */
export function boilerplateLines(messages: string[]): string[] {
  const seen = new Map<string, number>();
  for (const m of messages) {
    for (const line of new Set(m.split('\n').map(normaliseLine))) {
      // Very short lines ("*", "-", "ok") are left to the tokenizer, which drops them anyway.
      if (line.length > 3) seen.set(line, (seen.get(line) ?? 0) + 1);
    }
  }
  const needed = Math.max(MIN_MESSAGES, MIN_SHARE * messages.length);
  const lines = [...seen].filter(([, n]) => n >= needed).map(([line]) => line).sort();
  // The lines are stored in the index: one holding a credential (a token pasted into a template) is left out.
  const findings = scanSecrets('.git/COMMIT_EDITMSG', lines.join('\n'), Allowlist.empty());
  const marked = new Set(findings.map((f) => f.line - 1));
  return lines.filter((_, i) => !marked.has(i));
}

/** The meta value of an index without commits to learn from. */
export const NO_BOILERPLATE: Record<string, string> = { [BOILERPLATE_META]: '[]' };

/** The boilerplate of the history up to `rev`, as the meta value to store. */
export function boilerplateMeta(root: string, rev: string): Record<string, string> {
  return boilerplateMetaOf(commitMessages(root, { rev, max: MESSAGE_COMMITS }));
}

/** boilerplateMeta with the messages read in the background, from when this is called (a full build's start). */
export function boilerplateMetaLater(root: string, rev: string): Promise<Record<string, string>> {
  return commitMessagesAsync(root, { rev, max: MESSAGE_COMMITS }).then(boilerplateMetaOf);
}

function boilerplateMetaOf(messages: string[]): Record<string, string> {
  return { [BOILERPLATE_META]: JSON.stringify(boilerplateLines(messages)) };
}

export interface TaskText {
  /** The query as ranking reads it. */
  text: string;
  /** Lines left out because the repository's commit messages repeat them. */
  dropped: number;
}

/** The stored lines; none from an index written before they were learnt, or from a damaged value (ranking then reads the whole query). */
function parsedLines(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const lines: unknown = JSON.parse(value);
    return Array.isArray(lines) ? lines.filter((l): l is string => typeof l === 'string') : [];
  } catch {
    return [];
  }
}

/** The query without the lines this index knows as its repository's commit-message boilerplate. */
export function taskText(db: Database.Database, text: string): TaskText {
  const known = new Set(parsedLines(readMeta(db)[BOILERPLATE_META]));
  if (!known.size) return { text, dropped: 0 };
  const lines = text.split('\n');
  const kept = lines.filter((line, i) => i === 0 || !known.has(normaliseLine(line)));
  return { text: kept.join('\n'), dropped: lines.length - kept.length };
}
