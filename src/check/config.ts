import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { CONFIG_FILE, LEGACY_CONFIG_FILE } from '../config/config.js';
import { CgError } from '../errors.js';
import { closest } from '../mcp/strict.js';

/**
 * The rules `cg check` applies, under the key `check` of the shared configuration (`cg.config.json` at
 * the repository root, JSON with comments; the older `.codegraph/config.json` is read when there is
 * none). Every rule has a level: error fails the check (exit 8), warn is reported, off skips it.
 * Defaults are never written out; unknown keys are errors naming the closest valid one.
 */
const level = z.enum(['error', 'warn', 'off']);

const RULES = {
  /** No dependency cycle (files by imports, symbols by calls) that the base did not have. */
  noNewCycles: z.strictObject({ level: level.default('error'), symbols: z.boolean().default(true) }),
  /** No dead definition (high confidence) that the base did not have. */
  noNewDeadCode: z.strictObject({ level: level.default('error') }),
  /** A change with at least `threshold` dependents outside tests must be reached by a test, or change a test. */
  impactNeedsTests: z.strictObject({ level: level.default('error'), threshold: z.number().int().min(1).default(10), depth: z.number().int().min(1).max(6).default(3) }),
  /** No changed function above these complexities that is new or got more complex than in the base. */
  maxComplexity: z.strictObject({ level: level.default('warn'), cyclomatic: z.number().int().min(1).default(15), cognitive: z.number().int().min(1).default(25) }),
};

export const CHECK_SCHEMA = z.strictObject({
  noNewCycles: RULES.noNewCycles.prefault({}),
  noNewDeadCode: RULES.noNewDeadCode.prefault({}),
  impactNeedsTests: RULES.impactNeedsTests.prefault({}),
  maxComplexity: RULES.maxComplexity.prefault({}),
});

export type CheckConfig = z.infer<typeof CHECK_SCHEMA>;
export type Level = z.infer<typeof level>;

export function loadCheckConfig(root: string): { config: CheckConfig; file: string | null } {
  for (const rel of [CONFIG_FILE, LEGACY_CONFIG_FILE]) {
    const file = path.join(root, rel);
    if (!fs.existsSync(file)) continue;
    const errors: ParseError[] = [];
    const doc = parseJsonc(fs.readFileSync(file, 'utf8'), errors, { allowTrailingComma: true });
    if (errors.length) throw new CgError('usage', `${rel} is not valid JSON (${printParseErrorCode(errors[0].error)})`, 'Fix the file, then run cg check again.');
    return { config: parseCheck(doc?.check ?? {}, rel), file: doc?.check ? rel : null };
  }
  return { config: CHECK_SCHEMA.parse({}), file: null };
}

export function parseCheck(raw: unknown, where = 'check'): CheckConfig {
  const r = CHECK_SCHEMA.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const at = ['check', ...issue.path.map(String)].join('.');
  if (issue.code === 'unrecognized_keys') {
    const rule = issue.path.length ? RULES[String(issue.path[0]) as keyof typeof RULES] : null;
    const known = Object.keys(rule ? rule.shape : RULES);
    const guess = closest(issue.keys[0], known);
    throw new CgError('usage', `${where}: unknown key "${issue.keys[0]}" in ${at}`,
      `${guess ? `Did you mean "${guess}"? ` : ''}Known keys here: ${known.join(', ')}.`);
  }
  throw new CgError('usage', `${where}: ${at}: ${issue.message}`, 'See README.md, "CI gate".');
}
