import type { Command } from 'commander';
import { loadCheckConfig } from '../../check/config.js';
import { openBaseIndex, type BaseIndex } from '../../check/base.js';
import { renderMarkdown, runCheck, type CheckReport } from '../../check/rules.js';
import { emit } from '../output.js';
import { freshnessLine, openIndex } from '../repo.js';
import { usageError } from '../args.js';

/** Exit status when a rule at level error fails (0: passed; 2 usage; 3 no index). */
export const CHECK_FAILED_EXIT = 8;

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description('the CI gate: rules from the shared config (no new cycles, no new dead code, wide changes need tests, complexity), '
      + `compared with --base; exit ${CHECK_FAILED_EXIT} when a rule at level error fails`)
    .option('--base <rev>', 'compare with this revision (a branch, tag or commit; its index is restored from snapshots/ or built aside)')
    .option('--snapshots <dir>', 'where to look for a snapshot of the base (default: snapshots/)')
    .option('--format <format>', 'text, json or markdown (a pull-request comment)', 'text')
    .option('--json', 'the same as --format json: {base, changedFiles, rules: [{rule, level, status, summary, findings}], impact, tests, failed}')
    .option('--repo <dir>', 'repository (default: the one containing the current directory)')
    .addHelpText('after', `\nExamples:\n  $ cg check --base origin/main\n  $ cg check --base main --format markdown > comment.md\n\nRules and levels live under "check" in cg.config.json (see README, "CI gate").`)
    .action(async (opts: { base?: string; snapshots?: string; format: string; json?: boolean; repo?: string }) => {
      const format = opts.json ? 'json' : opts.format;
      if (!['text', 'json', 'markdown'].includes(format)) throw usageError(`Unknown --format "${opts.format}"`, 'Use text, json or markdown.');
      const { root, db, freshness } = openIndex(opts.repo);
      let base: BaseIndex | null = null;
      try {
        const { config } = loadCheckConfig(root);
        if (opts.base) base = await openBaseIndex(root, opts.base, { snapshotDir: opts.snapshots, log: (m) => process.stderr.write(`cg check: ${m}\n`) });
        const report = await runCheck(db, root, config, base, opts.base ?? null);
        if (format === 'markdown') process.stdout.write(`${renderMarkdown(report)}\n`);
        else emit({ json: format === 'json' }, { ...report, freshness }, (r) => `${renderText(r)}\n${freshnessLine(freshness)}`);
        if (report.failed) process.exitCode = CHECK_FAILED_EXIT;
      } finally {
        base?.close();
        db.close();
      }
    });
}

function renderText(r: CheckReport): string {
  const out = [`cg check ${r.failed ? 'FAILED' : 'passed'}${r.base ? ` against ${r.base.rev} (${r.base.commit.slice(0, 10)})` : ' (no --base: everything present counts)'}; ${r.changedFiles.length} file(s) changed`];
  for (const x of r.rules) {
    out.push(`${x.status === 'fail' ? (x.level === 'error' ? 'FAIL' : 'warn') : x.status === 'pass' ? 'ok  ' : 'off '} ${x.rule}: ${x.summary}`);
    for (const f of x.findings.slice(0, 20)) out.push(`       ${f.subject}: ${f.detail}`);
    if (x.findings.length > 20) out.push(`       ... ${x.findings.length - 20} more (--json)`);
  }
  if (r.impact) out.push(`impact: ${r.impact.risk} risk, ${r.impact.codeDependents} dependent(s) outside tests in ${r.impact.files.length} file(s)`);
  if (r.tests) out.push(`tests to run: ${r.tests.files.map((t) => t.file).join(', ') || 'none reach the change (run the whole suite)'}`);
  return out.join('\n');
}
