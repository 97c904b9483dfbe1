import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CgError, errorMessage } from '../errors.js';
import { resolveCommit, rootCommits, splitIds } from '../repo/git.js';
import { SCHEMA_VERSION } from '../store/schema.js';
import { MANIFEST, refused, unpackArchive } from './archive.js';
import { FORMAT_ROW_VECTORS, parseManifest, type Manifest } from './manifest.js';
import type Database from 'better-sqlite3';
import type { Meta } from '../store/db.js';
import { reconcile } from '../indexer/vectors.js';
import { VectorStore } from '../vectors/store.js';
import { SNAPSHOT_DB } from './canonical.js';
import { checkSnapshotDatabase, openUntrusted } from './db-check.js';
import { checkAgainstCommit } from './content-check.js';
import { makeStaging } from './staging.js';
import { refuseStoredSecrets } from '../secrets/database.js';

export interface Verified {
  file: string;
  manifest: Manifest;
  /** The unpacked, checked members; the caller removes it (or moves its files into place). */
  dir: string;
}

/**
 * Unpacks a snapshot into a new temporary folder (inside `parent`, default the system's) and checks
 * everything before anyone uses it, treating it as untrusted input, in this order:
 *  1. the archive, in bounded time, memory and disk (archive.ts): the manifest first, each member of
 *     the size the manifest declares, nothing else;
 *  2. every member's sha256 against the manifest;
 *  3. the manifest's schema version is this cg's;
 *  4. the database (db-check.ts): opened defensively, exactly our schema, intact, its meta, paths,
 *     keys and counts;
 *  5. given a repository: the snapshot is of it (a shared root commit), its commit is in this clone,
 *     and the rows match that commit's files (content-check.ts);
 *  6. it holds no credential (src/secrets/database.ts), the repository's allowlist applying.
 * `cg snapshot verify` and `cg snapshot restore` run exactly these checks, so one refuses what the
 * other refuses.
 */
export async function unpackVerified(file: string, opts: { root?: string; parent?: string } = {}): Promise<Verified> {
  const dir = makeStaging(opts.parent ?? os.tmpdir());
  try {
    const unpacked = await unpackArchive(file, dir, (text) => {
      const m = parseManifest(file, text);
      return new Map(m.members.map((x) => [x.name, x.bytes]));
    });
    if (!unpacked.names.includes(MANIFEST)) throw refused(file, 'truncated', 'it has no manifest.json');
    const manifest = parseManifest(file, fs.readFileSync(path.join(dir, MANIFEST)));
    checkMembers(file, manifest, unpacked.names, unpacked.sha256);
    if (manifest.schemaVersion !== SCHEMA_VERSION) {
      throw new CgError('index_incompatible', `The snapshot ${file} holds an index of schema version ${manifest.schemaVersion}; this cg uses ${SCHEMA_VERSION}`,
        'Use a snapshot made by this version of cg, or run `cg index` to build the index here.', { reason: 'schema_version' });
    }
    if (opts.root) checkRepository(file, manifest, opts.root);
    checkIndex(file, dir, manifest, opts.root);
    // Last: the scan reads every text value, so it runs on a database already known to be sound.
    refuseStoredSecrets(file, path.join(dir, SNAPSHOT_DB), opts.root);
    return { file, manifest, dir };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Verifies and cleans up: for `cg snapshot verify`. */
export async function verifySnapshot(file: string, root?: string): Promise<Manifest> {
  const v = await unpackVerified(file, { root });
  fs.rmSync(v.dir, { recursive: true, force: true });
  return v.manifest;
}

function mismatch(file: string, detail: string): CgError {
  return new CgError('snapshot_invalid', `The snapshot ${file} fails its checksums: ${detail}`,
    'It was altered or damaged after it was written: fetch it again, or run `cg index` to build from scratch.', { reason: 'checksum' });
}

function checkMembers(file: string, m: Manifest, names: string[], sha: Map<string, string>): void {
  const listed = new Set(m.members.map((x) => x.name));
  for (const n of names) if (n !== MANIFEST && !listed.has(n)) throw mismatch(file, `${n} is not listed in the manifest`);
  for (const x of m.members) {
    const got = sha.get(x.name);
    if (got === undefined) throw mismatch(file, `${x.name} is listed in the manifest but missing from the archive`);
    if (got !== x.sha256) throw mismatch(file, `${x.name} has sha256 ${got.slice(0, 12)}…, the manifest says ${String(x.sha256).slice(0, 12)}…`);
  }
  if (!listed.has(SNAPSHOT_DB)) throw mismatch(file, `the manifest lists no ${SNAPSHOT_DB}`);
}

/** The database and the vector file, the database opened once for every check that reads it. */
function checkIndex(file: string, dir: string, manifest: Manifest, root: string | undefined): void {
  let db;
  try {
    db = openUntrusted(path.join(dir, SNAPSHOT_DB));
  } catch (err) {
    throw new CgError('snapshot_invalid', `The database in the snapshot ${file} is damaged: ${errorMessage(err)}`,
      'Fetch the snapshot again, or run `cg index` to build from scratch.', { reason: 'database' });
  }
  try {
    const { meta } = checkSnapshotDatabase(file, db, manifest);
    checkVectors(file, db, dir, manifest, meta);
    if (root) checkAgainstCommit(file, db, root, manifest.commit);
  } finally {
    db.close();
  }
}

/**
 * The vector file against the database it came with: present exactly when the index has vectors, with
 * exactly the symbols that have a stored vector (the check an update makes before building on a vector
 * file). Rebuilding it from the stored vectors instead would be safer still, but costs what the
 * vectors of a full build cost (20 s for sqlalchemy's 40k symbols on a loaded 2-core machine).
 */
function checkVectors(file: string, db: Database.Database, dir: string, m: Manifest, meta: Meta): void {
  const name = m.members.find((x) => /^vectors-\d+\.usearch$/.test(x.name))?.name;
  let problem: string | null = null;
  if (!name || meta.vectors_status !== 'ok') {
    if (name) problem = `it has a vector file, but its index has no vectors (${meta.vectors_status})`;
    else if (meta.vectors_status === 'ok' && Number(meta.vectors_count) > 0) problem = 'its index has vectors, but it has no vector file';
  } else if (!m.members.some((x) => x.name === `${name}.json`)) {
    problem = `${name} comes without its manifest`;
  } else if (m.formatVersion < FORMAT_ROW_VECTORS) {
    // An HNSW file (its bytes were checked against the manifest's sha256): nothing here can read it.
  } else {
    try {
      const mismatch = reconcile(db, VectorStore.open(path.join(dir, name), { view: true }), meta.vectors_model);
      if (mismatch) problem = `${name} ${mismatch}`;
    } catch (err) {
      problem = errorMessage(err);
    }
  }
  if (problem) {
    throw new CgError('snapshot_invalid', `The vectors in the snapshot ${file} do not match its database: ${problem}`,
      'It was altered after it was written; do not use it. Run `cg index` to build from scratch.', { reason: 'vectors' });
  }
}

/**
 * The snapshot is of this repository: it shares a root commit with it (or there is no history to
 * compare), and this clone has its commit, which the catch-up diffs from and the rows are checked against.
 */
function checkRepository(file: string, m: Manifest, root: string): void {
  const ours = rootCommits(root);
  const listed: unknown = m.repository?.rootCommits;
  // Snapshots made with git 2.39 recorded `<id>\n`, several roots in one string (rootCommits, repo/git.ts).
  const theirs = Array.isArray(listed) ? listed.filter((c): c is string => typeof c === 'string').flatMap(splitIds) : [];
  if (ours.length && theirs.length && !theirs.some((c) => ours.includes(c))) {
    throw new CgError('snapshot_invalid',
      `The snapshot ${file} is of another repository (its root commit ${theirs[0].slice(0, 10)} is not in this repository's history)`,
      'Use a snapshot made from this repository, or run `cg index` to build the index here.', { reason: 'other_repository' });
  }
  if (!resolveCommit(root, m.commit)) {
    throw new CgError('snapshot_invalid', `The snapshot ${file} is of commit ${m.commit.slice(0, 10)}, which this clone does not have`,
      'Fetch the full history (`git fetch --unshallow`, or `fetch-depth: 0` in actions/checkout) so the catch-up can diff from it.',
      { reason: 'unknown_commit' });
  }
}
