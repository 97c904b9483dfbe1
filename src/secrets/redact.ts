import type { SecretsMode } from '../config/config.js';
import type { Allowlist } from './allowlist.js';
import { scanSecrets, type SecretFinding } from './scan.js';

/**
 * The choke point: every text cg derives anything from (a file read for indexing, a document's
 * extracted text, a file read to answer a query, a commit message) goes through scrubText first, and
 * only its result goes on. Symbols, signatures, docstrings, full-text rows, postings, embeddings,
 * excerpts and snapshots are all made from scrubbed text, so none of them can hold a detected secret,
 * and a new output path that starts from scrubbed text inherits that.
 *
 *   scrubText('app/settings.py', text, policy)  -> { text: '… = "[REDACTED:generic-api-key]"', findings }
 */

export interface SecretPolicy {
  /** Off: texts pass unchanged (`secrets.enabled: false`). */
  enabled: boolean;
  mode: SecretsMode;
  allow: Allowlist;
}

export interface Scrubbed {
  /** The text with every finding's span replaced; as many lines as the input. */
  text: string;
  findings: SecretFinding[];
}

/** The text that stands in for a secret: says what was there without any of it. */
export function redactionMark(rule: string): string {
  return `[REDACTED:${rule}]`;
}

export function scrubText(path: string, text: string, policy: SecretPolicy): Scrubbed {
  if (!policy.enabled) return { text, findings: [] };
  const findings = scanSecrets(path, text, policy.allow);
  return { text: findings.length ? redactSpans(text, findings) : text, findings };
}

/**
 * Replaces each finding's span (overlapping spans merged) with its mark. A span over several lines
 * keeps its line breaks, so line numbers in the result are those of the file: symbol ranges, call
 * lines and excerpts stay right.
 */
export function redactSpans(text: string, findings: SecretFinding[]): string {
  const spans = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (let i = 0; i < spans.length; i++) {
    const { start, rule } = spans[i];
    let end = spans[i].end;
    while (i + 1 < spans.length && spans[i + 1].start < end) end = Math.max(end, spans[++i].end);
    const breaks = text.slice(start, end).split('\n').length - 1;
    out += text.slice(at, start) + redactionMark(rule) + '\n'.repeat(breaks);
    at = end;
  }
  return out + text.slice(at);
}
