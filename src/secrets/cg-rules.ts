import { entropy } from './entropy.js';
import type { SecretRule } from './rules.js';

/**
 * cg's own rules, for credentials gitleaks' default set does not look for (each measured against the
 * corpus in fixtures/secrets-corpus.json and the false-positive corpora in eval/results/secrets-fp.json):
 *
 *   credential-assignment        a password, passphrase, token or key literal assigned to a name saying
 *                                so, at any entropy (gitleaks' generic rule wants > 3.5 bits: `pwd =
 *                                "hunter2"`, `let pass: &str = "letmein42"` pass it), typed declarations included
 *   connection-string-password   the password in `scheme://user:password@host` (databases, brokers, Basic
 *                                auth in URLs)
 *   authorization-header         `Authorization: Bearer …` / `Basic …` / `Token …` anywhere, not just in
 *                                curl commands (gitleaks' curl-auth-header)
 *   private-key-body             the base64 lines after a `BEGIN … PRIVATE KEY` line even without its END
 *                                line (gitleaks' private-key needs the whole block)
 *   putty-private-key            PuTTY .ppk key files pasted into code
 *   azure-storage-account-key    `AccountKey=` in Azure storage connection strings
 *   high-entropy-string          a long random literal on a line that names a key, secret, token or password
 */

/** Bump when a rule's filters change what it finds: indexes built with other rules are rebuilt. */
export const CG_RULES_VERSION = 1;

/** Values that stand for a credential rather than being one. */
const PLACEHOLDER = /example|sample|dummy|fake|placeholder|changeme|change_me|your[_-]|xxxx|\*\*\*|redacted|<[^>]*>|\$\{|\{\{|%\(|%s|^\$|process\.env|os\.environ|getenv/i;

/** Whole values too common in tests and docs to be anyone's credential. */
const STOPWORDS = new Set(['password', 'passwd', 'pass', 'pwd', 'secret', 'secrets', 'token', 'test', 'testing', 'tests', 'example',
  'changeme', 'admin', 'root', 'user', 'username', 'guest', 'default', 'none', 'null', 'true', 'false', 'undefined', 'foo', 'bar',
  'foobar', 'qwerty', 'letmein', 'hunter', 'empty', 'sekrit', 'string', 'value', 'required', 'optional', 'missing', 'invalid',
  'incorrect', 'wrong', 'bad', 'new', 'old', 'mypassword', 'mysecret', 'topsecret', 'top_secret', 'supersecret', 'super_secret']);

/** The last word of a name that holds a credential (`db_password`, `dbPass`, `STRIPE_SECRET`, `apiKey`, `authToken`). */
const CREDENTIAL_WORD = /^(?:password|passwd|passwort|pwd|pass|passphrase|secret|token|apikey|credential|credentials)$/;
/** A `key` is a credential after one of these (`api_key`, `secretKey`, `PRIVATE_KEY`), not after others (`cache_key`). */
const KEY_QUALIFIER = /^(?:api|secret|private|access|auth|signing|encryption|master|client|app|license|service)$/;

/** Words of an identifier: `dbPassword2` -> db, password; `STRIPE_SECRET_KEY` -> stripe, secret, key. */
function words(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter(Boolean);
}

export function namesCredential(name: string): boolean {
  const w = words(name);
  const last = w[w.length - 1];
  if (!last) return false;
  if (CREDENTIAL_WORD.test(last)) return true;
  return last === 'key' && w.length > 1 && KEY_QUALIFIER.test(w[w.length - 2]);
}

/** A value built from the word it stands for (`secret-1`, `passw@rd`, `My%20Pass`, `somepassword@#10`) is a placeholder. */
function namesItself(v: string): boolean {
  let plain = v;
  try {
    plain = decodeURIComponent(v);
  } catch {
    /* not percent-encoded */
  }
  return /pass|sword|secret|pswd|pwd|token/.test(plain.toLowerCase().replace(/[^a-z]/g, ''));
}

/** A literal that reads like a credential rather than a word, a name, a path, a format or a reference. */
export function credentialLike(v: string): boolean {
  if (PLACEHOLDER.test(v) || STOPWORDS.has(v.toLowerCase()) || namesItself(v)) return false;
  if (/\s/.test(v)) return false; // a message or a sentence ("Enter your password")
  if (/^[A-Z0-9_]+$/.test(v) && /_/.test(v)) return false; // an environment variable's name
  if (/^[._-]*[a-z]+(?:[._\-/:]+[a-z]+)*[._-]*$/.test(v)) return false; // words, dotted names, paths, kebab names
  if (/^[A-Za-z]+$/.test(v) && /[a-z][A-Z]/.test(v)) return false; // an identifier (camelCase)
  if (/^(?:[./~]|https?:|file:)/.test(v) || /^\W+$/.test(v)) return false; // paths, URLs, punctuation
  if (/^[\w.-]+\.[a-z]{2,4}$/.test(v)) return false; // a file name (secrets.json, id_rsa.pub)
  if (/(.)\1{3,}/.test(v) && entropy(v) < 2.5) return false; // aaaa1111
  if (v.length < 8 && entropy(v) < 2.6) return false; // abc123
  return entropy(v) >= 2;
}

/** Words that make a random-looking literal a credential rather than test data, a hash, a checksum or a base64 blob. */
const CREDENTIAL_CONTEXT = /key|secret|token|passw|pwd|auth|credential|private|signature|bearer|session/i;

/** Every character once: an alphabet table (nanoid's `useandom-26T198340…`); a random secret of 32+ characters repeats some. */
function isAlphabet(s: string): boolean {
  return new Set(s).size === s.length;
}

/**
 * `rawPassword ? x : 'Schema_'`: a `:` after a name is a key only where a key can stand (after `{`,
 * `,`, `(` or at the start of a line) or when the name is quoted.
 */
function ternary(m: RegExpExecArray): boolean {
  const op = /(?::=|=>|=|:)[ \t]*[@&]?["'`]$/.exec(m[0].slice(0, m.indices![3]![0] - m.index))?.[0] ?? '';
  if (!op.startsWith(':') || op.startsWith(':=')) return false;
  const before = m.input.slice(0, m.index).replace(/[ \t]+$/, '');
  const last = before[before.length - 1];
  return !(last === undefined || '{,(\n["\''.includes(last));
}

/** A counting run (`0123456789abcdef`, `abcdef`) is test data, not a key. */
export function hasRun(s: string): boolean {
  let run = 1;
  for (let i = 1; i < s.length; i++) {
    run = s.charCodeAt(i) === s.charCodeAt(i - 1) + 1 ? run + 1 : 1;
    if (run >= 5) return true;
  }
  return false;
}

/**
 * An unquoted identifier made of words (`testRSA2048PrivateKey`, `ed25519.PrivateKey`) is a name in
 * code, not a key; a random token splits into many short pieces (`k4rxpJ7O0YZH…`).
 */
export function wordyIdentifier(s: string): boolean {
  if (!/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(s)) return false;
  const parts = s.split(/[._$]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])|(?<=[A-Z])(?=[A-Z][a-z])/).filter(Boolean);
  return parts.length <= 8 && s.replace(/[._$]/g, '').length / parts.length >= 3.5;
}

type CgRule = Omit<SecretRule, 'source' | 'path' | 'allowlists' | 'entropy'> & { entropy?: number };

const rule = (r: CgRule): SecretRule => ({ entropy: 0, ...r, source: 'cg', path: null, allowlists: [] });

export const CG_RULES: SecretRule[] = [
  rule({
    id: 'credential-assignment',
    description: 'A password, passphrase, token or key literal assigned to a name that says so (any entropy, typed declarations too).',
    // name ["']? [: type | type]? (= | := | : | =>) ["'`]value["'`]; the name is checked by namesCredential.
    // The name starts at an identifier's start and holds a credential word: the regex tries few positions.
    regex: /(?<![\w$])(?=[A-Za-z_$])([\w$]*?(?:pass|pwd|secret|token|key|credential)[\w$]*)["']?(?:[ \t]*:[ \t]*[&'\w.<>[\]]{1,40}(?:[ \t]+[\w.<>[\]]{1,30})?|[ \t]+[\w.<>[\]*]{1,30})?[ \t]*(?::=|=(?![=>~])|:(?!:)|=>)[ \t]*[@&]?(["'`])([^"'`\r\n\\]{6,200})\2/gdi,
    keywords: ['pass', 'pwd', 'secret', 'token', 'key', 'credential'],
    secretGroup: 3,
    accept: (v, _line, m) => namesCredential(m[1]) && credentialLike(v) && !ternary(m),
  }),
  rule({
    id: 'connection-string-password',
    description: 'The password in a URL or connection string: scheme://user:password@host.',
    regex: /\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}:\/\/[^\s:@/'"`<>{}()[\]]{1,64}:([^\s@/'"`<>{}()[\]]{3,128})@[\w.-]+/gd,
    keywords: ['://'],
    secretGroup: 1,
    accept: (v) => !PLACEHOLDER.test(v) && !STOPWORDS.has(v.toLowerCase()) && !namesItself(v) && !/^\*+$/.test(v) && !/^[:%$]/.test(v),
  }),
  rule({
    id: 'authorization-header',
    description: 'An Authorization header value: Bearer, Basic or Token credentials.',
    regex: /\b(?:Bearer|Basic|Token)[ \t]+([A-Za-z0-9\-._~+/]{12,}={0,2})(?![\w\-.~+/=])/gd,
    keywords: ['bearer', 'basic', 'token'],
    secretGroup: 1,
    accept: (v, line) => /auth|bearer|header/i.test(line) && /\d/.test(v) && /[A-Za-z]/.test(v) && !PLACEHOLDER.test(v) && entropy(v) >= 3,
  }),
  rule({
    id: 'private-key-body',
    description: 'The lines after a BEGIN … PRIVATE KEY line, with or without the END line.',
    // From the first base64 run of the next line to the last run of the last line holding one.
    regex: /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[^\n]*\n[^\n]*?([A-Za-z0-9+/=]{16,}(?:[^\n]*\n[^\n]*?[A-Za-z0-9+/=]{16,})*)/gd,
    keywords: ['private key'],
    secretGroup: 1,
  }),
  rule({
    id: 'putty-private-key',
    description: 'A PuTTY private key file (.ppk).',
    regex: /PuTTY-User-Key-File-\d+:[\s\S]{1,10000}?Private-MAC:[ \t]*[0-9a-fA-F]+/gd,
    keywords: ['putty-user-key-file'],
    secretGroup: 0,
  }),
  rule({
    id: 'azure-storage-account-key',
    description: 'The AccountKey of an Azure storage connection string.',
    regex: /AccountKey=([A-Za-z0-9+/]{86}==)/gd,
    keywords: ['accountkey='],
    secretGroup: 1,
  }),
  rule({
    id: 'high-entropy-string',
    description: 'A long random literal on a line that names a key, secret, token or password.',
    regex: /(["'`])([A-Za-z0-9+/=_-]{32,512})\1/gd,
    keywords: [],
    secretGroup: 2,
    accept: (v, line) =>
      /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v) && entropy(v) >= 4.8 && !hasRun(v) && !isAlphabet(v)
      && !PLACEHOLDER.test(v) && CREDENTIAL_CONTEXT.test(line.replace(v, '')),
  }),
];
