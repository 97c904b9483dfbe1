import { createHash } from 'node:crypto';
import type { Allowlist } from './allowlist.js';
import { hasRun, wordyIdentifier } from './cg-rules.js';
import { entropy } from './entropy.js';
import { matcherFor } from './prefilter.js';
import { ruleSet, type CompiledAllowlist, type RuleSet, type SecretRule } from './rules.js';

/** One credential found in a text. */
export interface SecretFinding {
  rule: string;
  /** 1-based line of the secret's first character. */
  line: number;
  /** sha256 of path + rule + secret (lower-cased); put it in the allowlist to accept this one finding. */
  fingerprint: string;
  /** The secret's span in the scanned text (UTF-16 offsets), what redaction replaces. */
  start: number;
  end: number;
}

/**
 * Every finding of the rule set in a file's text, in text order. gitleaks' semantics are kept for its
 * rules: a rule runs only when one of its keywords is in the text, the secret is its secret group (or
 * the first non-empty group), its entropy must exceed the rule's threshold, and the global and rule
 * allowlists (regexes on the secret, match or line; stopwords; paths) can allow it. Then cg's
 * allowlist (`.cgsecrets`): a path pattern, a disabled rule or the finding's fingerprint.
 */
export function scanSecrets(path: string, text: string, allow: Allowlist): SecretFinding[] {
  if (allow.acceptsFile(path)) return [];
  const set = ruleSet();
  if (set.global.paths.some((p) => p.test(path))) return [];
  const present = set.keywords.present(text);
  const lines = new LineIndex(text);
  const found: SecretFinding[] = [];
  for (const rule of rulesFor(set, present)) {
    if (allow.disablesRule(rule.id)) continue;
    if (rule.path && !rule.path.test(path)) continue;
    if (rule.allowlists.some((a) => !a.and && a.paths.some((p) => p.test(path)))) continue;
    found.push(...ruleFindings(rule, path, text, lines, set.global));
  }
  return oneFindingPerSpan(found, allow);
}

/**
 * Whether some path could give `text` a finding: scanSecrets with everything that depends on the path
 * left out (rules meant for some paths apply, no path is exempt or allowed, no fingerprint is
 * accepted), so its findings under any path are a subset of these. False means no path finds anything
 * in the text: a text stored many times, or under many paths (a search term shared by hundreds of
 * files), needs this one scan (src/secrets/database.ts).
 */
export function mayHoldSecret(text: string, allow: Allowlist): boolean {
  const set = ruleSet();
  const present = set.keywords.present(text);
  const lines = new LineIndex(text);
  for (const rule of rulesFor(set, present)) {
    if (allow.disablesRule(rule.id)) continue;
    if (ruleFindings(rule, null, text, lines, set.global).length) return true;
  }
  return false;
}

/** Which rules have which keyword, by position in the rule set; and the rules that have none (they always run). */
interface RuleIndex {
  always: number[];
  byKeyword: Map<string, number[]>;
}

const ruleIndexes = new WeakMap<RuleSet, RuleIndex>();

/**
 * The rules that can run on a text holding these keywords (those with one of them, and those without
 * keywords), in the rule set's order: what testing every rule's keywords selects, without looping over
 * all ~230 rules for each text. A snapshot's verification checks each of a database's ~100k distinct
 * short texts (names, terms), most of them holding no keyword: the loop was half of its time
 * (sqlalchemy's: 2.9 -> 1.45 s).
 */
function rulesFor(set: RuleSet, present: Set<string>): SecretRule[] {
  let index = ruleIndexes.get(set);
  if (!index) {
    index = { always: [], byKeyword: new Map() };
    set.rules.forEach((rule, i) => {
      if (!rule.keywords.length) index!.always.push(i);
      for (const k of new Set(rule.keywords)) (index!.byKeyword.get(k) ?? index!.byKeyword.set(k, []).get(k)!).push(i);
    });
    ruleIndexes.set(set, index);
  }
  const picked = new Set(index.always);
  for (const k of present) for (const i of index.byKeyword.get(k) ?? []) picked.add(i);
  return [...picked].sort((a, b) => a - b).map((i) => set.rules[i]);
}

/** Catch-all rules: where a specific rule finds the same secret, the finding names the specific one. */
const CATCH_ALL = new Set(['generic-api-key', 'credential-assignment', 'high-entropy-string']);

/**
 * One finding per secret: overlapping findings (a GitHub token is also a generic key and a
 * high-entropy string) become the widest span, named by the most specific rule, so `cg status` lists
 * it once and one fingerprint in the allowlist accepts it (any of the group's fingerprints does).
 */
function oneFindingPerSpan(found: SecretFinding[], allow: Allowlist): SecretFinding[] {
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretFinding[] = [];
  for (let i = 0; i < found.length;) {
    const group = [found[i]];
    let end = found[i].end;
    for (i++; i < found.length && found[i].start < end; i++) {
      group.push(found[i]);
      end = Math.max(end, found[i].end);
    }
    if (group.some((f) => allow.acceptsFingerprint(f.fingerprint))) continue;
    const best = group.find((f) => !CATCH_ALL.has(f.rule)) ?? group[0];
    out.push({ ...best, line: group[0].line, start: group[0].start, end });
  }
  return out;
}

/** `path` null: no path (mayHoldSecret), so no allowlist's path matches. */
function ruleFindings(rule: SecretRule, path: string | null, text: string, lines: LineIndex, global: CompiledAllowlist): SecretFinding[] {
  const out: SecretFinding[] = [];
  const re = matcherFor(rule.regex);
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    const span = secretSpan(rule, m);
    if (!span) continue;
    const [start, end] = span;
    const secret = text.slice(start, end);
    // gitleaks trims newlines around the match before it reads the line(s) it is on.
    const matchText = m[0].replace(/^\n+|\n+$/g, '');
    const matchStart = m.index + (m[0].length - m[0].replace(/^\n+/, '').length);
    const line = lines.linesAround(matchStart, matchStart + matchText.length);
    const rejected = (rule.entropy && entropy(secret) <= rule.entropy)
      // cg's additions to gitleaks' generic rule: a counting run (`"key0", "0123456789abcdef"`) is test
      // data, and an unquoted name made of words (`PrivateKey = testRSA2048PrivateKey`) is code.
      || (rule.id === 'generic-api-key' && (hasRun(secret) || (!/["'`]/.test(text[start - 1] ?? '') && wordyIdentifier(secret))))
      || allowed(global, secret, matchText, line, path) || rule.allowlists.some((a) => allowed(a, secret, matchText, line, path))
      || (rule.accept && !rule.accept(secret, line, m));
    if (rejected) {
      // cg's rules look again one character on (see SecretRule.accept); gitleaks' go on after the match, as gitleaks does.
      if (rule.accept) re.lastIndex = m.index + 1;
      continue;
    }
    out.push({ rule: rule.id, line: lines.lineOf(start), fingerprint: fingerprintOf(path ?? '', rule.id, secret), start, end });
  }
  return out;
}

/** Offsets of the secret inside a match, or null when the rule's secret group did not take part. */
function secretSpan(rule: SecretRule, m: RegExpExecArray): [number, number] | null {
  const idx = m.indices!;
  if (rule.secretGroup > 0) {
    const g = idx[rule.secretGroup];
    return g && g[1] > g[0] ? [g[0], g[1]] : null;
  }
  for (let i = 1; i < idx.length; i++) {
    const g = idx[i];
    if (g && g[1] > g[0]) return [g[0], g[1]];
  }
  // No group: the whole match, less the newlines gitleaks trims.
  const lead = m[0].length - m[0].replace(/^\n+/, '').length;
  const trail = m[0].length - m[0].replace(/\n+$/, '').length;
  return [m.index + lead, m.index + m[0].length - trail];
}

function allowed(a: CompiledAllowlist, secret: string, match: string, line: string, path: string | null): boolean {
  const target = a.target === 'match' ? match : a.target === 'line' ? line : secret;
  const regex = a.regexes.some((r) => r.test(target));
  const lowered = secret.toLowerCase();
  const stop = a.stopwords.some((w) => lowered.includes(w));
  if (!a.and) return regex || stop;
  const checks: boolean[] = [];
  if (a.paths.length) checks.push(path !== null && a.paths.some((p) => p.test(path)));
  if (a.regexes.length) checks.push(regex);
  if (a.stopwords.length) checks.push(stop);
  return checks.length > 0 && checks.every(Boolean);
}

/**
 * A finding's identity for the allowlist: the file, the rule and the secret, case aside (the index's
 * search terms are lower-cased, and a snapshot's verification must recognise an allowed secret there).
 */
export function fingerprintOf(path: string, rule: string, value: string): string {
  return createHash('sha256').update(`${path}\0${rule}\0${value.toLowerCase()}`).digest('hex').slice(0, 24);
}

/** Line numbers and line texts by offset, from one pass over the newlines. */
class LineIndex {
  private starts: number[] | null = null;

  constructor(private readonly text: string) {}

  private get lineStarts(): number[] {
    if (!this.starts) {
      this.starts = [0];
      for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) this.starts.push(i + 1);
    }
    return this.starts;
  }

  /** 1-based line of an offset. */
  lineOf(offset: number): number {
    const s = this.lineStarts;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** The whole lines holding [start, end). */
  linesAround(start: number, end: number): string {
    const from = this.text.lastIndexOf('\n', start - 1) + 1;
    const to = this.text.indexOf('\n', end);
    return this.text.slice(from, to === -1 ? this.text.length : to);
  }
}
