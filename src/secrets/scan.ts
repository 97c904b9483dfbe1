import { createHash } from 'node:crypto';
import type { SecretFinding } from '../extract/types.js';
import type { Allowlist } from './allowlist.js';

/**
 * Credential detection, run on a file's text before anything derived from it is stored. A file with
 * a finding is excluded whole (promise 5): its symbols, snippets and embeddings never exist.
 *
 * Precision matters as much as recall here: a false positive silently removes real code from the
 * index, so the generic rules (keyword assignments, high-entropy literals) filter out placeholders,
 * references to environment variables and character-class strings. `cg status` lists every exclusion
 * with a fingerprint that the allowlist accepts.
 */
interface Rule {
  id: string;
  pattern: RegExp;
  /** Which capture group holds the secret itself (0 = whole match). */
  group?: number;
  /** Filters out look-alikes, given the matched value and the whole line it sits on. */
  accept?: (value: string, line: string) => boolean;
}

/**
 * Words that make a random-looking literal a credential rather than test data, a hash, a checksum or a
 * base64 blob: random literals are everywhere in code; random literals named like keys are not.
 */
const CREDENTIAL_CONTEXT = /key|secret|token|passw|pwd|auth|credential|private|signature|bearer|session/i;

const PLACEHOLDER = /example|sample|dummy|fake|placeholder|changeme|change_me|your[_-]|xxxx|\*\*\*|redacted|<[^>]*>|\$\{|\{\{|%\(|%s|^\$|process\.env|os\.environ|getenv/i;

const RULES: Rule[] = [
  { id: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  {
    id: 'aws-secret-access-key',
    pattern: /aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    group: 1,
  },
  { id: 'private-key', pattern: /-----BEGIN (?:(?:RSA|DSA|EC|OPENSSH|PGP|ENCRYPTED) )?PRIVATE KEY(?: BLOCK)?-----/g },
  { id: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{82})\b/g },
  { id: 'slack-token', pattern: /\bxox[baprs]-[A-Za-z0-9-]{10,}/g },
  { id: 'stripe-key', pattern: /\b[sr]k_live_[A-Za-z0-9]{20,}/g },
  { id: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { id: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g },
  {
    // password = "…", api_key: '…', "token": "…", $secret = '…'
    id: 'credential-assignment',
    pattern: /\b[\w$]*(?:password|passwd|secret|api_?key|apikey|access_?key|auth_?token|access_?token|private_?key|client_?secret)[\w]*["']?\s*(?::=|=|:|=>)\s*(["'`])([^"'`\s]{8,200})\1/gi,
    group: 2,
    // Constant names (`API_KEY`), words and paths (`django-insecure-`) are not credentials.
    accept: (v) => !PLACEHOLDER.test(v) && !/^[A-Z0-9_]+$/.test(v) && !/^[a-z._\-/]+$/.test(v) && entropy(v) >= 2.5,
  },
  {
    id: 'high-entropy-string',
    pattern: /(["'`])([A-Za-z0-9+/=_-]{32,512})\1/g,
    group: 2,
    accept: (v, line) =>
      /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v) && entropy(v) >= 4.8 && !hasRun(v) && !isAlphabet(v)
      && !PLACEHOLDER.test(v) && CREDENTIAL_CONTEXT.test(line.replace(v, '')),
  },
];

export const SECRET_RULE_IDS = RULES.map((r) => r.id);

export function scanSecrets(path: string, text: string, allow: Allowlist): SecretFinding[] {
  if (allow.acceptsFile(path)) return [];
  const findings: SecretFinding[] = [];
  for (const rule of RULES) {
    if (allow.disablesRule(rule.id)) continue;
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m; m = rule.pattern.exec(text)) {
      const value = m[rule.group ?? 0];
      if (rule.accept && !rule.accept(value, lineText(text, m.index))) continue;
      const fingerprint = fingerprintOf(path, rule.id, value);
      if (allow.acceptsFingerprint(fingerprint)) continue;
      findings.push({ rule: rule.id, line: lineAt(text, m.index), fingerprint });
      break; // one finding per rule is enough to exclude the file and explain why
    }
  }
  return findings;
}

export function fingerprintOf(path: string, rule: string, value: string): string {
  return createHash('sha256').update(`${path}\0${rule}\0${value}`).digest('hex').slice(0, 24);
}

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** Alphabets and counters (`ABCDEF…`, `0123456…`) have high entropy but are not secrets. */
function hasRun(s: string): boolean {
  let run = 1;
  for (let i = 1; i < s.length; i++) {
    run = s.charCodeAt(i) === s.charCodeAt(i - 1) + 1 ? run + 1 : 1;
    if (run >= 5) return true;
  }
  return false;
}

/**
 * Every character once: an alphabet table (nanoid's `useandom-26T198340…`). A random secret of 32+
 * characters repeats some character with near certainty.
 */
function isAlphabet(s: string): boolean {
  return new Set(s).size === s.length;
}

function lineText(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end === -1 ? text.length : end);
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
