import { execFileSync } from 'node:child_process';
import type Database from 'better-sqlite3';
import { cycles } from '../analysis/cycles.js';
import { deadCode } from '../analysis/dead-code.js';
import { complexity, type FunctionComplexity } from '../analysis/complexity.js';
import { blastRadius, testsFor } from '../graph/blast.js';
import { parseUnifiedDiff } from '../repo/diff.js';
import { resolveInRepo } from '../repo/root.js';
import { CgError, errorMessage } from '../errors.js';
import type { CheckConfig, Level } from './config.js';
import type { BaseIndex } from './base.js';

/**
 * `cg check`: the configured rules over the index of HEAD, each compared with the base revision's
 * index (what is new in this change), plus what a reviewer wants next to them: the change's blast
 * radius and the tests to run. Without a base, everything present counts and the change is the
 * working tree against HEAD.
 */
export interface Finding {
  /** What it is about: a file:symbol, a cycle's loop, a file. */
  subject: string;
  detail: string;
  file?: string;
  line?: number;
}

export interface RuleResult {
  rule: keyof CheckConfig;
  level: Level;
  status: 'pass' | 'fail' | 'off';
  summary: string;
  findings: Finding[];
}

export interface CheckReport {
  base: { rev: string; commit: string; source: BaseIndex['source'] } | null;
  /** Files the change touches (the diff against the base, or the working tree against HEAD). */
  changedFiles: string[];
  rules: RuleResult[];
  impact: { targets: number; dependents: number; codeDependents: number; files: string[]; risk: string; riskReasons: string[] } | null;
  tests: { files: { file: string; tests: number; confidence: number }[]; count: number } | null;
  /** Any rule at level error failed: the exit status is 8. */
  failed: boolean;
}

export function changeDiff(root: string, baseCommit: string | null): string {
  try {
    return execFileSync('git', ['--no-optional-locks', '-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '-U0',
      ...(baseCommit ? [`${baseCommit}...HEAD`] : ['HEAD']), '--'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  } catch (err) {
    throw new CgError('io', `Cannot read the change with git diff: ${errorMessage(err)}`, 'cg check needs git and a commit to compare with.');
  }
}

function result(rule: keyof CheckConfig, level: Level, findings: Finding[], pass: string, fail: string): RuleResult {
  if (level === 'off') return { rule, level, status: 'off', summary: 'off', findings: [] };
  return { rule, level, status: findings.length ? 'fail' : 'pass', summary: findings.length ? fail : pass, findings };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export async function runCheck(db: Database.Database, root: string, config: CheckConfig, base: BaseIndex | null, baseRev: string | null): Promise<CheckReport> {
  const diff = changeDiff(root, base?.commit ?? null);
  const changed = parseUnifiedDiff(diff).map((d) => d.path);
  const changedSet = new Set(changed);
  const rules: RuleResult[] = [];

  // No new cycles.
  {
    const c = config.noNewCycles;
    const findings: Finding[] = [];
    if (c.level !== 'off') {
      for (const level of c.symbols ? (['file', 'symbol'] as const) : (['file'] as const)) {
        const known = new Set(base ? cycles(base.db, level).cycles.map((x) => x.members.join('\n')) : []);
        for (const cy of cycles(db, level).cycles) {
          if (known.has(cy.members.join('\n'))) continue;
          findings.push({ subject: cy.loop.join(' -> '), detail: `${level} cycle of ${cy.size}${base ? ' (new or changed since the base)' : ''}` });
        }
      }
    }
    rules.push(result('noNewCycles', c.level, findings, base ? 'no new cycles' : 'no cycles', `${plural(findings.length, base ? 'new cycle' : 'cycle')}`));
  }

  // No new dead code.
  {
    const c = config.noNewDeadCode;
    const findings: Finding[] = [];
    if (c.level !== 'off') {
      const known = new Set(base ? deadCode(base.db, base.root).dead.map((d) => `${d.file}:${d.symbol}`) : []);
      for (const d of deadCode(db, root).dead) {
        if (known.has(`${d.file}:${d.symbol}`)) continue;
        findings.push({ subject: `${d.file}:${d.symbol}`, detail: `${d.kind} with no reference: ${d.reason}`, file: d.file, line: d.startLine });
      }
    }
    rules.push(result('noNewDeadCode', c.level, findings, base ? 'no new dead code' : 'no dead code', plural(findings.length, base ? 'new dead definition' : 'dead definition')));
  }

  // Impact above a threshold needs tests; and the blast radius and tests to run, for the report.
  let impact: CheckReport['impact'] = null;
  let tests: CheckReport['tests'] = null;
  {
    const c = config.impactNeedsTests;
    const findings: Finding[] = [];
    if (diff.trim()) {
      const inRepo = (p: string) => resolveInRepo(root, p);
      const blast = blastRadius(db, { diff }, c.depth, inRepo);
      const all = [...Object.values(blast.direct).flat(), ...blast.transitive];
      const code = all.filter((d) => !d.isTest);
      impact = { targets: blast.targets.length, dependents: all.length, codeDependents: code.length, files: blast.affectedFiles.map((f) => f.file),
        risk: blast.risk.level, riskReasons: blast.risk.reasons };
      const t = testsFor(db, { diff }, c.depth, inRepo);
      tests = { files: t.testFiles, count: t.tests.length };
      const testFiles = new Set(db.prepare('SELECT path FROM files WHERE is_test = 1').pluck().all() as string[]);
      const changedTests = changed.filter((f) => testFiles.has(f));
      if (c.level !== 'off' && code.length >= c.threshold && !t.tests.length && !changedTests.length) {
        findings.push({ subject: blast.targets.slice(0, 5).map((x) => x.symbol).join(', ') + (blast.targets.length > 5 ? ', ...' : ''),
          detail: `${plural(code.length, 'dependent')} outside tests (threshold ${c.threshold}) and no test reaches the change or changes with it` });
      }
    }
    rules.push(result('impactNeedsTests', c.level, findings, impact ? `${plural(impact.codeDependents, 'dependent')}, ${tests?.count ? `${plural(tests.count, 'test')} reach the change` : 'under the threshold'}` : 'nothing changed',
      'a wide change no test covers'));
  }

  // Complexity of changed functions.
  {
    const c = config.maxComplexity;
    const findings: Finding[] = [];
    if (c.level !== 'off' && changedSet.size) {
      const before = new Map<string, FunctionComplexity>();
      if (base) for (const f of (await complexity(base.db, base.root, { files: changedSet })).functions) before.set(`${f.file}:${f.symbol}`, f);
      for (const f of (await complexity(db, root, { files: changedSet })).functions) {
        if (f.cyclomatic <= c.cyclomatic && f.cognitive <= c.cognitive) continue;
        const was = before.get(`${f.file}:${f.symbol}`);
        if (was && was.cyclomatic >= f.cyclomatic && was.cognitive >= f.cognitive) continue;
        findings.push({ subject: `${f.file}:${f.symbol}`, file: f.file, line: f.startLine,
          detail: `cyclomatic ${f.cyclomatic}, cognitive ${f.cognitive} (limits ${c.cyclomatic} / ${c.cognitive})${was ? `, was ${was.cyclomatic} / ${was.cognitive}` : base ? ', new' : ''}` });
      }
    }
    rules.push(result('maxComplexity', c.level, findings, 'no changed function over the limits', plural(findings.length, 'function') + ' over the limits'));
  }

  return {
    base: base && baseRev ? { rev: baseRev, commit: base.commit, source: base.source } : null,
    changedFiles: changed, rules, impact, tests,
    failed: rules.some((r) => r.status === 'fail' && r.level === 'error'),
  };
}

/** The report as a pull-request comment (Markdown). */
export function renderMarkdown(r: CheckReport, maxRows = 20): string {
  const icon = (x: RuleResult) => (x.status === 'off' ? '➖' : x.status === 'pass' ? '✅' : x.level === 'error' ? '❌' : '⚠️');
  const out = ['<!-- cg-check -->', `## cg check: ${r.failed ? 'failed' : 'passed'}`, ''];
  if (r.base) out.push(`Compared with \`${r.base.rev}\` (${r.base.commit.slice(0, 10)}; base index ${r.base.source.kind === 'snapshot' ? `from snapshot ${r.base.source.snapshot}` : 'built'}). ${r.changedFiles.length} file(s) changed.`, '');
  out.push('| rule | level | result |', '|---|---|---|');
  for (const x of r.rules) out.push(`| ${icon(x)} ${x.rule} | ${x.level} | ${x.summary} |`);
  for (const x of r.rules.filter((y) => y.findings.length)) {
    out.push('', `<details><summary>${x.rule}: ${x.summary}</summary>`, '');
    for (const f of x.findings.slice(0, maxRows)) out.push(`- \`${f.subject}\`: ${f.detail}`);
    if (x.findings.length > maxRows) out.push(`- … ${x.findings.length - maxRows} more (\`cg check --json\`)`);
    out.push('', '</details>');
  }
  if (r.impact) {
    out.push('', `### Impact: ${r.impact.risk} risk`, '', `${r.impact.targets} changed definition(s); ${r.impact.codeDependents} dependent(s) outside tests in ${r.impact.files.length} file(s). ${r.impact.riskReasons.join('; ')}.`);
    if (r.impact.files.length) out.push('', `<details><summary>Affected files</summary>`, '', ...r.impact.files.slice(0, maxRows).map((f) => `- \`${f}\``), ...(r.impact.files.length > maxRows ? [`- … ${r.impact.files.length - maxRows} more`] : []), '', '</details>');
  }
  if (r.tests) {
    out.push('', '### Tests to run first', '');
    if (!r.tests.files.length) out.push('No test reaches the change through calls, imports or test edges: run the whole suite.');
    for (const t of r.tests.files.slice(0, maxRows)) out.push(`- \`${t.file}\` (${t.tests} test${t.tests === 1 ? '' : 's'}, confidence ${t.confidence.toFixed(2)})`);
  }
  return out.join('\n');
}
