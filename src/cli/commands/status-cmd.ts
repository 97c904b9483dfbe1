import { MIN_PAST_COMMITS } from '../../retrieve/ranker.js';
import type { Command } from 'commander';
import { indexStatus, listFiles, FILE_LISTS, type FileList, type IndexStatus, type ListedFile } from '../../store/status.js';
import type { Freshness } from '../../store/freshness.js';
import { emit, groupDigits, formatAge, formatCounts, plural } from '../output.js';
import { openIndexRecovering } from '../repo.js';
import { examples, PATH_HELP, REPO_FLAG, REPO_HELP, repoRoot, usageError, type RepoOptions } from '../args.js';
import { readConfig } from '../../config/config.js';
import { maxOf } from '../../arrays.js';
import { liveWarmApplier, type WarmApplierNote } from '../../indexer/warm-applier.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('what is indexed: files per language, partial parses, skipped files by reason, redacted or excluded secrets, freshness')
    .argument('[path]', PATH_HELP)
    .option(REPO_FLAG, REPO_HELP)
    .option('--files <which>', `list the files behind a count, each with its reason: ${FILE_LISTS.join(' | ')}`)
    .option('--secret-rules', 'also list the id of every secret rule (the JSON always has them)')
    .option('--json', 'print JSON')
    .addHelpText('after', examples(['cg status', 'cg status --files skipped', 'cg status --files partial --json', 'cg status --secret-rules']))
    .action(async (dir: string | undefined, opts: RepoOptions & { files?: string; json?: boolean; secretRules?: boolean }) => {
      if (opts.files !== undefined && !(FILE_LISTS as readonly string[]).includes(opts.files)) {
        throw usageError(`Unknown --files "${opts.files}"`, `Use one of: ${FILE_LISTS.join(', ')}.`);
      }
      const { root, db, freshness } = await openIndexRecovering(repoRoot(opts, dir));
      try {
        if (opts.files) {
          const which = opts.files as FileList;
          emit(opts, { which, files: listFiles(db, which), freshness }, (r) => renderFiles(r.which, r.files));
          return;
        }
        const { file, notes } = readConfig(root);
        emit(opts, { ...indexStatus(db, root), config: { file, notes }, freshness, applier: liveWarmApplier(root) }, (s) => render(s, !!opts.secretRules));
      } finally {
        db.close();
      }
    });
}

function renderFiles(which: FileList, files: ListedFile[]): string {
  if (!files.length) return which === 'partial' ? 'No file has syntax errors.' : 'Nothing was skipped.';
  const width = Math.min(60, maxOf(files.map((f) => f.path.length + (f.isDir ? 1 : 0))));
  return files.map((f) => `${(f.isDir ? `${f.path}/` : f.path).padEnd(width)}  ${f.reason}${f.detail ? `: ${f.detail}` : ''}`).join('\n');
}

function render(s: IndexStatus & { config: { file: string | null; notes: string[] }; freshness: Freshness; applier: WarmApplierNote | null },
  listRules: boolean): string {
  const f = s.freshness;
  const out: string[] = [];
  out.push(`Repository: ${s.root}`);
  out.push(`Configuration: ${s.config.file ?? 'the defaults (no cg.config.json)'}`);
  for (const n of s.config.notes) out.push(`  note: ${n}`);
  out.push(`Index: generation ${f.generation}, updated ${f.indexedAt} (${formatAge(f.ageSeconds)}); build ${s.buildId}, schema v${s.schemaVersion}, ${(s.dbBytes / 1e6).toFixed(1)} MB`
    + ` (${(s.indexBytes / 1e6).toFixed(1)} MB with the vector and row files)`);
  out.push(`Commit: ${f.indexedCommit ?? '(none: not a git repository or no commits)'}${f.behindHead && f.headCommit ? `; HEAD has moved to ${f.headCommit.slice(0, 10)}, run \`cg update\`` : ''}`);
  out.push(`Pending changes: ${f.pendingChanges ? `${plural(f.pendingChanges, 'change-log record')} not yet applied (\`cg update\` applies them)` : 'none'}`);
  out.push(`Kept fresh by: ${s.applier ? `${s.applier.command} (pid ${s.applier.pid}), applying the hooks' records${s.applier.watchesTree ? ' and what is saved in the working tree' : ''}`
    : 'no long-running applier (cg serve, cg watch or cg agent) runs here: the git hooks, where installed, start `cg update`'}`);
  out.push(`Files: ${groupDigits(s.files.indexed)} indexed, ${s.files.partial} with syntax errors (partial${s.files.partial ? ': `cg status --files partial`' : ''})${s.files.invalidUtf8 ? `, ${s.files.invalidUtf8} with invalid UTF-8 (decoded with replacement characters)` : ''}`);
  for (const [lang, v] of Object.entries(s.files.byLanguage)) {
    // A column each, so the nouns keep their width: "1 file ", "12 files".
    const n = (count: number, width: number, noun: string) => `${String(count).padStart(width)} ${count === 1 ? `${noun} ` : `${noun}s`}`;
    out.push(`  ${lang.padEnd(11)} ${n(v.files, 6, 'file')} ${n(v.loc, 9, 'line')} ${n(v.symbols, 8, 'symbol')}${v.partial ? `  (${v.partial} partial)` : ''}`.trimEnd());
  }
  if (s.external.files) {
    out.push(`External: ${s.external.files} declaration file(s) of ${s.external.packages} installed package(s) (\`cg deps\` lists them)`);
  }
  out.push(`Symbols: ${groupDigits(s.symbols)} (${formatCounts(s.symbolsByKind)})`);
  out.push(`Edges: ${groupDigits(s.edges)} (${formatCounts(s.edgesByKind)})`);
  for (const [lang, c] of Object.entries(s.calls)) {
    const pct = c.total ? Math.round((c.resolved / c.total) * 100) : 0;
    out.push(`  ${lang} call sites: ${groupDigits(c.total)}, ${pct}% resolved to a repository symbol, ${groupDigits(c.external)} to builtins or external modules`);
  }
  const v = s.vectors;
  out.push(v.status === 'ok' ? `Vectors: ${groupDigits(v.count)} of ${v.dims} dimensions (${v.quantization}), model ${v.model.split(':')[0]}`
    : v.status === 'unavailable' ? `Vectors: none. ${v.error} Until then queries rank by full-text and the graph.`
      : 'Vectors: off ("embeddings.enabled" is false in the configuration)');
  const pc = s.pastCommits;
  out.push(`Past commits: ${groupDigits(pc.kept)} kept; ${pc.rankerReadsThem ? 'the ranker reads which files similar ones changed'
    : `fewer than ${MIN_PAST_COMMITS}: the ranker fitted without them ranks (a shallow clone? \`git fetch --unshallow\` then \`cg index --full\` give it more)`}`);
  out.push(`Skipped: ${s.skipped.total ? `${formatCounts(s.skipped.byReason)} (\`cg status --files skipped\` lists them)` : 'nothing'}; `
    + `${plural(s.unsupportedFiles, 'file')} in no supported language`);
  const r = s.secretRules;
  out.push(r.enabled
    ? `Secrets: ${r.ids.length} rules (gitleaks ${r.gitleaks.commit.slice(0, 10)} and cg's own), mode ${r.mode}${listRules ? '' : '; `cg status --secret-rules` lists them'}`
    : 'Secrets: not scanned ("secrets.enabled" is false in the configuration)');
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
