import path from 'node:path';
import type { Command } from 'commander';
import { commitsAhead, resolveCommit } from '../../repo/git.js';
import { createSnapshot, defaultSnapshotDir, type SnapshotInfo } from '../../snapshot/create.js';
import { findSnapshot, listSnapshots, nearestSnapshot, pruneSnapshots, type Listed } from '../../snapshot/catalog.js';
import { restoreSnapshot, type RestoreResult } from '../../snapshot/restore.js';
import { verifySnapshot } from '../../snapshot/verify.js';
import type { Manifest } from '../../snapshot/manifest.js';
import { examples, parseIntInRange, REPO_FLAG, REPO_HELP, repoRoot } from '../args.js';
import { CgError } from '../../errors.js';
import { emit, formatDuration, plural } from '../output.js';

interface Common {
  repo?: string;
  dir?: string;
  json?: boolean;
}

const DIR = 'snapshot folder (default: snapshots.dir in cg.config.json, else .codegraph/snapshots)';

function where(opts: Common): { root: string; dir: string } {
  const root = repoRoot(opts);
  return { root, dir: opts.dir ? path.resolve(opts.dir) : defaultSnapshotDir(root) };
}

export function registerSnapshot(program: Command): void {
  const snap = program
    .command('snapshot')
    .description('reproducible index artifacts: create, list, verify, restore (then catch up to HEAD), prune');
  snap
    .command('create')
    .description('pack the current index (a clean commit) into <out>/<commit>-<configId>.tar.gz, byte-identical for the same commit, config and model')
    .option('--out <dir>', 'output folder (default: snapshots.dir in cg.config.json, else .codegraph/snapshots)')
    .option(REPO_FLAG, REPO_HELP)
    .option('--json', 'print JSON: {id, file, bytes, sha256, manifest}')
    .addHelpText('after', examples(['cg snapshot create', 'cg snapshot create --out /tmp/artifacts --json']))
    .action(async (opts: Common & { out?: string }) => {
      const { root } = where(opts);
      emit(opts, await createSnapshot(root, { out: opts.out }), renderCreate);
    });
  snap
    .command('list')
    .description('the snapshots in the folder, newest commit first, with how far each is behind HEAD')
    .option('--dir <dir>', DIR)
    .option(REPO_FLAG, REPO_HELP)
    .option('--json', 'print JSON: {dir, snapshots: [{id, file, commit, configId, bytes, behind}]}')
    .addHelpText('after', examples(['cg snapshot list', 'cg snapshot list --dir /tmp/artifacts --json']))
    .action((opts: Common) => {
      const { root, dir } = where(opts);
      const head = resolveCommit(root, 'HEAD');
      const snapshots = listSnapshots(dir).map((s) => ({ ...s, behind: head ? commitsAhead(root, s.commit, head) : null }))
        .sort((a, b) => (a.behind ?? Infinity) - (b.behind ?? Infinity) || (a.id < b.id ? -1 : 1));
      emit(opts, { dir, snapshots }, renderList);
    });
  snap
    .command('verify')
    .description('check a snapshot as restore would: the archive (bounded), every member\'s sha256, the database (cg\'s schema, paths, keys), and its rows against its commit in this repository')
    .argument('[id]', 'an ID in the snapshot folder or a FILE (default: the nearest snapshot of HEAD)')
    .option('--dir <dir>', DIR)
    .option(REPO_FLAG, REPO_HELP)
    .option('--json', 'print JSON: {file, ok, manifest}')
    .addHelpText('after', examples(['cg snapshot verify', 'cg snapshot verify /tmp/artifacts/3f2a9c1e-1a2b3c4d.tar.gz']))
    .action(async (ref: string | undefined, opts: Common) => {
      const { root, dir } = where(opts);
      const file = ref && ref !== 'latest' ? findSnapshot(dir, ref) : nearestFile(root, dir);
      const manifest = await verifySnapshot(file, root);
      emit(opts, { file, ok: true, manifest }, renderVerify);
    });
  snap
    .command('restore')
    .description('restore the snapshot of HEAD or its nearest ancestor (or ID/FILE), verified, as a new generation; then catch up to the working tree')
    .argument('[id]', 'an ID in the snapshot folder, a FILE, or latest (default: latest = the nearest snapshot of the target commit)')
    .option('--for-commit <sha>', 'restore for this commit instead of HEAD (picks its snapshot or its nearest ancestor\'s)')
    .option('--no-catch-up', 'only restore; apply the changes since the snapshot later with `cg update`')
    .option('--dir <dir>', DIR)
    .option(REPO_FLAG, REPO_HELP)
    .option('--json', 'print JSON: {snapshot, target, behind, generation, buildId, catchUp, phasesMs, durationMs}')
    .addHelpText('after', examples(['cg snapshot restore', 'cg snapshot restore latest --dir /tmp/artifacts', 'cg snapshot restore --for-commit origin/main --no-catch-up']))
    .action(async (ref: string | undefined, opts: Common & { forCommit?: string; catchUp: boolean }) => {
      const { root, dir } = where(opts);
      emit(opts, await restoreSnapshot(root, { ref, forCommit: opts.forCommit, dir, catchUp: opts.catchUp }), renderRestore);
    });
  snap
    .command('prune')
    .description('delete all but the N snapshots of the newest commits')
    .requiredOption('--keep <n>', 'how many to keep (0 or more)')
    .option('--dir <dir>', DIR)
    .option(REPO_FLAG, REPO_HELP)
    .option('--json', 'print JSON: {kept: [...], removed: [...]}')
    .addHelpText('after', examples(['cg snapshot prune --keep 3']))
    .action((opts: Common & { keep: string }) => {
      const keep = parseIntInRange('--keep', opts.keep, 0, 1_000_000);
      const { root, dir } = where(opts);
      emit(opts, pruneSnapshots(root, dir, keep), (r) =>
        `Kept ${plural(r.kept.length, 'snapshot')}, removed ${r.removed.length}${r.removed.length ? `: ${r.removed.map((s) => s.id).join(', ')}` : ''}.`);
    });
}

function nearestFile(root: string, dir: string): string {
  const head = resolveCommit(root, 'HEAD');
  const picked = head ? nearestSnapshot(root, dir, head, null) : null;
  if (!picked) {
    throw new CgError('not_found', `No snapshot in ${dir} is of HEAD or one of its ancestors`,
      'Name one (an ID from `cg snapshot list`, or a FILE), or make one with `cg snapshot create`.');
  }
  return picked.file;
}

function mb(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
}

function renderCreate(s: SnapshotInfo): string {
  const m = s.manifest;
  return [`Snapshot ${s.id}: ${s.file}`,
    `  ${mb(s.bytes)}, sha256 ${s.sha256}`,
    `  commit ${m.commit}, generation ${m.generation}, schema v${m.schemaVersion}, ${m.counts.files} files, ${m.counts.symbols} symbols, `
    + `${m.counts.edges} edges, ${m.model ? `${m.counts.vectors} vectors (${m.model.id.split(':')[0]}, ${m.model.dims}d)` : 'no vectors'}`].join('\n');
}

function renderList(r: { dir: string; snapshots: (Listed & { behind: number | null })[] }): string {
  if (!r.snapshots.length) return `No snapshots in ${r.dir}. \`cg snapshot create\` makes one.`;
  return [`Snapshots in ${r.dir}:`, ...r.snapshots.map((s) =>
    `  ${s.id}  ${mb(s.bytes).padStart(9)}  ${s.behind === null ? 'not an ancestor of HEAD' : s.behind === 0 ? 'HEAD' : `${plural(s.behind, 'commit')} behind HEAD`}`)].join('\n');
}

function renderVerify(r: { file: string; manifest: Manifest }): string {
  const m = r.manifest;
  return `OK: ${r.file}\n  format v${m.formatVersion}, commit ${m.commit}, ${m.members.length} members, every sha256 matches, `
    + 'the database is of cg\'s schema and intact, and its rows match that commit in this repository';
}

function renderRestore(r: RestoreResult): string {
  const lines = [`Restored ${r.snapshot.id} (${r.behind === null ? 'not an ancestor of the target' : r.behind === 0 ? 'the target commit itself' : `${plural(r.behind, 'commit')} behind ${r.target.slice(0, 10)}`}) as generation ${r.generation}.`];
  const c = r.catchUp;
  if (c) {
    lines.push(c.mode === 'none' ? `Caught up: nothing had changed (generation ${c.generation}).`
      : c.mode === 'rebuild' ? `Caught up by a full rebuild (${c.reason}), generation ${c.generation}.`
        : `Caught up: ${c.added} added, ${c.modified} modified, ${c.deleted} removed; ${c.resolvedFiles} files re-resolved; generation ${c.generation}.`);
  } else lines.push('Not caught up (--no-catch-up): run `cg update` to apply the changes since the snapshot.');
  lines.push(`Took ${formatDuration(r.durationMs)} (verify ${formatDuration(r.phasesMs.verify)}, swap ${formatDuration(r.phasesMs.swap)}, catch-up ${formatDuration(r.phasesMs.catchUp)}).`);
  return lines.join('\n');
}
