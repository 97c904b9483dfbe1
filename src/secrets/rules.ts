import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { RULES_DIR } from '../paths.js';
import { CG_RULES, CG_RULES_VERSION } from './cg-rules.js';
import { KeywordScanner } from './keywords.js';
import { re2ToJs } from './re2.js';

/**
 * The rule set: gitleaks' default rules (rules/gitleaks.json, vendored as data from gitleaks'
 * config/gitleaks.toml, MIT) compiled for JavaScript, plus cg's own rules for what gitleaks leaves
 * out (src/secrets/cg-rules.ts). The README says why gitleaks' set and not secretlint's preset.
 */

/** gitleaks' allowlist semantics: a finding is allowed when any list allows it (or, with `and`, all its parts do). */
export interface CompiledAllowlist {
  /** What the regexes test: the secret, the whole match or the line(s) it is on. */
  target: 'secret' | 'match' | 'line';
  and: boolean;
  regexes: RegExp[];
  /** Lower-case words; a secret containing one is allowed. */
  stopwords: string[];
  paths: RegExp[];
}

export interface SecretRule {
  id: string;
  description: string;
  source: 'gitleaks' | 'cg';
  /** Global, with indices ('gd'). */
  regex: RegExp;
  /** Lower-case; the regex runs only on text that holds one of them (none: always). */
  keywords: string[];
  /** The secret's Shannon entropy must exceed this (0: no threshold). */
  entropy: number;
  /** Capture group holding the secret; 0 = the first non-empty group, or the whole match without groups. */
  secretGroup: number;
  /** The rule applies only to paths matching this. */
  path: RegExp | null;
  allowlists: CompiledAllowlist[];
  /**
   * cg rules: a last check of the secret, its line(s) and the match. A rejected match is tried again
   * one character later (`String password = …` first matches with `String` as the name).
   */
  accept?: (secret: string, line: string, match: RegExpExecArray) => boolean;
}

export interface RuleSet {
  rules: SecretRule[];
  /** gitleaks rules that match file names only, not text: not run (see ruleSet). */
  pathOnly: string[];
  /** gitleaks' global allowlist. */
  global: CompiledAllowlist;
  /** Where the gitleaks rules come from (the upstream file's commit and sha256). */
  source: { repository: string; commit: string; sha256: string };
  /** Every rule's keywords, found in a text in one pass. */
  keywords: KeywordScanner;
  /** sha256 over every rule's definition: an index built with another rule set is rebuilt. */
  digest: string;
}

interface RawAllowlist {
  regexTarget?: string;
  condition?: string;
  regexes?: string[];
  stopwords?: string[];
  paths?: string[];
  commits?: string[];
}

interface RawRule {
  id: string;
  description?: string;
  regex?: string;
  entropy?: number;
  secretGroup?: number;
  keywords?: string[];
  path?: string;
  allowlists?: RawAllowlist[];
}

interface RawFile {
  source: { repository: string; commit: string; sha256: string };
  allowlist: RawAllowlist;
  rules: RawRule[];
}

export const GITLEAKS_RULES_FILE = path.join(RULES_DIR, 'gitleaks.json');

/** A gitleaks regex for JavaScript; `flags` 'gd' for rules, '' for allowlists. */
export function compileRe2(src: string, flags = ''): RegExp {
  return new RegExp(re2ToJs(src), flags);
}

function compileAllowlist(a: RawAllowlist): CompiledAllowlist {
  const target = a.regexTarget === 'match' || a.regexTarget === 'line' ? a.regexTarget : 'secret';
  return {
    target,
    and: a.condition?.toUpperCase() === 'AND',
    regexes: (a.regexes ?? []).map((r) => compileRe2(r)),
    stopwords: (a.stopwords ?? []).map((w) => w.toLowerCase()),
    // Documents are scanned like code: gitleaks leaves PDFs and Office files to other tools, cg indexes their text.
    paths: (a.paths ?? []).map((r) => compileRe2(r)).filter((r) => !r.test('doc.pdf') && !r.test('doc.docx')),
  };
}

function compileGitleaks(raw: RawRule & { regex: string }): SecretRule {
  // The regex and the allowlists are compiled on first use: a rule runs only on text holding one of
  // its keywords, so most rules never run on most files, and translating and compiling all 222
  // costs 30-40 ms that every process which scans a file or two (a hook's update) would pay.
  let regex: RegExp | undefined;
  let allowlists: CompiledAllowlist[] | undefined;
  return {
    id: raw.id,
    description: raw.description ?? '',
    source: 'gitleaks',
    get regex() {
      return (regex ??= compileRe2(raw.regex, 'gd'));
    },
    keywords: (raw.keywords ?? []).map((k) => k.toLowerCase()),
    entropy: raw.entropy ?? 0,
    secretGroup: raw.secretGroup ?? 0,
    path: raw.path ? compileRe2(raw.path) : null,
    get allowlists() {
      return (allowlists ??= (raw.allowlists ?? []).map(compileAllowlist));
    },
  };
}

let cached: RuleSet | null = null;

/** The rule set, read once per process (each rule's regex compiled when it first runs). */
export function ruleSet(): RuleSet {
  if (cached) return cached;
  const text = fs.readFileSync(GITLEAKS_RULES_FILE, 'utf8');
  const raw = JSON.parse(text) as RawFile;
  // A path-only rule (pkcs12-file: `*.p12`, `*.pfx`) names a binary file; cg never indexes those (they are skipped as binary).
  const pathOnly = raw.rules.filter((r) => !r.regex).map((r) => r.id);
  const rules = [...raw.rules.filter((r): r is RawRule & { regex: string } => !!r.regex).map(compileGitleaks), ...CG_RULES];
  const ids = new Set<string>();
  for (const r of rules) {
    if (ids.has(r.id)) throw new Error(`two secret rules have the id ${r.id}`);
    ids.add(r.id);
  }
  // Not the accept functions' text: it differs between the compiled package and the test runner's transform.
  const digest = createHash('sha256').update(text).update(`\0${CG_RULES_VERSION}\0`)
    .update(CG_RULES.map((r) => `${r.id}\0${r.regex.source}\0${r.regex.flags}`).join('\n')).digest('hex');
  cached = { rules, pathOnly, keywords: keywordIndex(rules), global: compileAllowlist(raw.allowlist), source: raw.source, digest };
  return cached;
}

function keywordIndex(rules: SecretRule[]): RuleSet['keywords'] {
  return new KeywordScanner([...new Set(rules.flatMap((r) => r.keywords))].sort());
}

/** Every rule's id, in the order they run (gitleaks' first). */
export function secretRuleIds(): string[] {
  return ruleSet().rules.map((r) => r.id);
}
