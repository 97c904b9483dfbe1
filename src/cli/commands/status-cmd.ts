import type { Command } from 'commander';
import { indexStatus, type IndexStatus } from '../../store/status.js';
import type { Freshness } from '../../store/freshness.js';
import { emit, formatAge, formatCounts, plural } from '../output.js';
import { openIndexRecovering } from '../repo.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('what is indexed: files per language, partial parses, skipped files by reason, redacted or excluded secrets, freshness')
    .argument('[path]', 'repository (default: the one containing the current directory)')
    .option('--json', 'print JSON')
    .option('--secret-rules', 'also list the id of every secret rule (the JSON always has them)')
    .action(async (dir: string | undefined, opts: { json?: boolean; secretRules?: boolean }) => {
      const { root, db, freshness } = await openIndexRecovering(dir);
      try {
        emit(opts, { ...indexStatus(db, root), freshness }, (s) => render(s, !!opts.secretRules));
      } finally {
        db.close();
      }
    });
}

function render(s: IndexStatus & { freshness: Freshness }, listRules: boolean): string {
  const f = s.freshness;
  const out: string[] = [];
  out.push(`Repository: ${s.root}`);
  out.push(`Index: generation ${f.generation}, updated ${f.indexedAt} (${formatAge(f.ageSeconds)}); build ${s.buildId}, schema v${s.schemaVersion}, ${(s.dbBytes / 1e6).toFixed(1)} MB`);
  out.push(`Commit: ${f.indexedCommit ?? '(none: not a git repository or no commits)'}${f.behindHead && f.headCommit ? `; HEAD has moved to ${f.headCommit.slice(0, 10)}, run \`cg update\`` : ''}`);
  out.push(`Pending changes: ${f.pendingChanges ? `${f.pendingChanges} change-log record(s) not yet applied (\`cg update\` applies them)` : 'none'}`);
  out.push(`Files: ${s.files.indexed.toLocaleString('en-US')} indexed, ${s.files.partial} with syntax errors (partial)${s.files.invalidUtf8 ? `, ${s.files.invalidUtf8} with invalid UTF-8 (decoded with replacement characters)` : ''}`);
  for (const [lang, v] of Object.entries(s.files.byLanguage)) {
    out.push(`  ${lang.padEnd(11)} ${String(v.files).padStart(6)} files ${String(v.loc).padStart(9)} lines ${String(v.symbols).padStart(8)} symbols${v.partial ? `  (${v.partial} partial)` : ''}`);
  }
  if (s.external.files) {
    out.push(`External: ${s.external.files} declaration file(s) of ${s.external.packages} installed package(s) (\`cg deps\` lists them)`);
  }
  out.push(`Symbols: ${s.symbols.toLocaleString('en-US')} (${formatCounts(s.symbolsByKind)})`);
  out.push(`Edges: ${s.edges.toLocaleString('en-US')} (${formatCounts(s.edgesByKind)})`);
  for (const [lang, c] of Object.entries(s.calls)) {
    const pct = c.total ? Math.round((c.resolved / c.total) * 100) : 0;
    out.push(`  ${lang} call sites: ${c.total.toLocaleString('en-US')}, ${pct}% resolved to a repository symbol, ${c.external.toLocaleString('en-US')} to builtins or external modules`);
  }
  const v = s.vectors;
  out.push(v.status === 'ok' ? `Vectors: ${v.count.toLocaleString('en-US')} of ${v.dims} dimensions (${v.quantization}), model ${v.model.split(':')[0]}`
    : v.status === 'unavailable' ? `Vectors: none. ${v.error} Until then queries rank by full-text and the graph.`
      : 'Vectors: off ("embeddings.enabled" is false in .codegraph/config.json)');
  out.push(`Skipped: ${s.skipped.total ? formatCounts(s.skipped.byReason) : 'nothing'}; ${plural(s.unsupportedFiles, 'file')} in no supported language`);
  const r = s.secretRules;
  out.push(r.enabled
    ? `Secrets: ${r.ids.length} rules (gitleaks ${r.gitleaks.commit.slice(0, 10)} and cg's own), mode ${r.mode}${listRules ? '' : '; `cg status --secret-rules` lists them'}`
    : 'Secrets: not scanned ("secrets.enabled" is false in .codegraph/config.json)');
  if (listRules) out.push(...wrap(r.ids.join(' '), 100).map((l) => `  ${l}`));
  if (s.redactedSecrets.length) {
    out.push(`Redacted credentials (${s.redactedSecrets.length}; their files are indexed without them):`);
    for (const e of s.redactedSecrets) out.push(`  ${e.path}:${e.line}  ${e.rule}  ${e.fingerprint}`);
  }
  if (s.excludedSecrets.length) {
    out.push(`Excluded because they look like they hold credentials (${s.excludedSecrets.length}):`);
    for (const e of s.excludedSecrets) out.push(`  ${e.path}:${e.line}  ${e.rule}  ${e.fingerprint}`);
  }
  if (s.redactedSecrets.length || s.excludedSecrets.length) {
    out.push('  A false positive? Add its fingerprint (or the path) to .cgsecrets and run `cg index`.');
  }
  return out.join('\n');
}

/** Words joined into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  return line ? [...lines, line] : lines;
}
