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
 * (a private key) is redacted line by line: each line keeps its line break and what frames the key
 * on it (indentation, a comment marker, the quotes and `\n` of a string), so line numbers stay those
 * of the file and the code around the key still parses.
 */
export function redactSpans(text: string, findings: SecretFinding[]): string {
  const spans = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (let i = 0; i < spans.length; i++) {
    const { start, rule } = spans[i];
    let end = spans[i].end;
    while (i + 1 < spans.length && spans[i + 1].start < end) end = Math.max(end, spans[++i].end);
    out += text.slice(at, start) + redactLines(text.slice(start, end), redactionMark(rule));
    at = end;
  }
  return out + text.slice(at);
}

const LINE_PREFIX = /^[\s#/*"'`+(,;]*/;
const LINE_SUFFIX = /(?:\\[nr]|["'`,;+)\s])*$/;

function redactLines(span: string, mark: string): string {
  const lines = span.split('\n');
  if (lines.length === 1) return mark;
  return lines.map((line, k) => {
    const prefix = k === 0 ? '' : LINE_PREFIX.exec(line)![0];
    const rest = line.slice(prefix.length);
    const suffix = k === lines.length - 1 ? '' : LINE_SUFFIX.exec(rest)![0];
    return `${prefix}${k === 0 ? mark : ''}${suffix}`;
  }).join('\n');
}
