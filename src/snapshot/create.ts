import fs from 'node:fs';
import { plural } from '../words.js';
import path from 'node:path';
import { loadConfig } from '../config/config.js';
import { CgError } from '../errors.js';
import { commitTime, rootCommits } from '../repo/git.js';
import { cgDir, openReader } from '../store/db.js';
import { SCHEMA_VERSION } from '../store/schema.js';
import { describeMember, MANIFEST, packArchive, sha256File } from './archive.js';
import { writeCanonicalIndex } from './canonical.js';
import { makeStaging } from './staging.js';
import { artifactName, configIdOf, FORMAT, FORMAT_VERSION, type Manifest } from './manifest.js';


export interface SnapshotInfo {
  /** The artifact's name without `.tar.gz`: `<commit>-<configId>`. */
  id: string;
  file: string;
  bytes: number;
  sha256: string;
  manifest: Manifest;
}

/**
 * Where snapshots go unless a command names a folder: `snapshots.dir` of cg.config.json, by default
 * `.codegraph/snapshots` (inside the folder cg owns and git ignores, so nothing needs ignoring).
 */
export function defaultSnapshotDir(root: string): string {
  return path.join(root, loadConfig(root).snapshots.dir);
}

/**
 * `cg snapshot create`: the current generation, copied without stopping writers, made canonical and
 * packed reproducibly into `<out>/<commit>-<configId>.tar.gz`. Only an index of a clean commit is
 * snapshotted: one with uncommitted changes would not be what its name says.
 */
export async function createSnapshot(root: string, opts: { out?: string } = {}): Promise<SnapshotInfo> {
  const reader = openReader(root); // checks that a usable index exists, with the usual reasons
  const live = reader.name;
  reader.close();
  const staging = makeStaging(cgDir(root));
  try {
    // The commit is only known from the copy's meta (a writer may publish meanwhile): check it there.
    let commitIso = '';
    const canonical = await writeCanonicalIndex(root, live, staging, (meta) => {
      checkSnapshotable(meta);
      commitIso = commitTime(root, meta.indexed_commit) ?? '1970-01-01T00:00:00.000Z';
      return commitIso;
    });
    const meta = canonical.meta;
    const commit = meta.indexed_commit;
    const members = canonical.files.map((n) => describeMember(staging, n));
    const configId = configIdOf(meta);
    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      schemaVersion: Number(meta.schema_version ?? SCHEMA_VERSION),
      cgVersion: meta.cg_version ?? '',
      commit,
      generation: Number(meta.generation ?? 0),
      configHash: meta.config_hash ?? '',
      configId,
      model: meta.vectors_status === 'ok'
        ? { id: meta.vectors_model, dims: Number(meta.vectors_dims ?? 0), quantization: meta.vectors_quantization ?? '' } : null,
      repository: { rootCommits: rootCommits(root, commit) },
      counts: canonical.counts,
      members,
    };
    fs.writeFileSync(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const outDir = path.resolve(opts.out ?? defaultSnapshotDir(root));
    // Inside .codegraph/ nothing needs ignoring: cg's own .gitignore there covers the whole folder.
    prepareOutDir(outDir, !opts.out && path.relative(cgDir(root), outDir).startsWith('..'));
    const file = path.join(outDir, artifactName(commit, configId));
    await packArchive(staging, [MANIFEST, ...canonical.files], file, new Date(Date.parse(commitIso)));
    return { id: path.basename(file, '.tar.gz'), file, bytes: fs.statSync(file).size, sha256: sha256File(file), manifest };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function checkSnapshotable(meta: Record<string, string>): void {
  if (meta.head_state !== 'commit' || !meta.indexed_commit) {
    throw new CgError('usage', 'The index is not of a git commit, so a snapshot could not be named or restored by commit',
      'Snapshots need a git repository with at least one commit; run `cg index` after committing.');
  }
  if (meta.dirty_paths !== '[]') {
    const n = meta.dirty_paths ? (JSON.parse(meta.dirty_paths) as string[]).length : 'many';
    throw new CgError('usage', `The index includes uncommitted changes (${typeof n === 'number' ? plural(n, 'path') : 'many paths'} differ from commit ${meta.indexed_commit.slice(0, 10)})`,
      'Commit or stash them and run `cg update`, then snapshot again: a snapshot holds exactly one commit.');
  }
}

/**
 * A configured snapshot folder that cg creates gets a .gitignore of its own, so artifacts never show up
 * as untracked files. One that already exists is the team's: cg writes nothing into it but artifacts
 * (ignoring them is theirs to decide), and `--out` folders are the caller's.
 */
function prepareOutDir(dir: string, configured: boolean): void {
  const created = !fs.existsSync(dir);
  fs.mkdirSync(dir, { recursive: true });
  if (configured && created) fs.writeFileSync(path.join(dir, '.gitignore'), '# Written by cg: snapshot artifacts are build outputs.\n*\n');
}
