import { createHash } from 'node:crypto';
import { CgError, errorMessage } from '../errors.js';
import type { Meta } from '../store/db.js';
import type { Member } from './archive.js';

/**
 * `manifest.json`, the first member of every snapshot. It holds no time, path or host: the same
 * index content gives the same manifest. `formatVersion` goes up when a reader of this version
 * would misread a snapshot; such snapshots are refused by older cg rather than half-restored.
 */
export const FORMAT = 'cg-snapshot';
export const FORMAT_VERSION = 3;
/**
 * From this version on the database holds no secondary index (src/snapshot/canonical.ts): a restore
 * builds them. Version 1 snapshots carry them and restore as before.
 */
export const FORMAT_WITHOUT_INDEXES = 2;
/**
 * From this version on the vector file holds rows searched exactly (src/vectors/store.ts); before it,
 * a USearch HNSW file that this cg cannot read: verification skips it (the archive's checksum still
 * covers its bytes) and a restore writes it again from the database (src/snapshot/restore.ts).
 */
export const FORMAT_ROW_VECTORS = 3;

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: number;
  schemaVersion: number;
  cgVersion: string;
  commit: string;
  /**
   * Always 0: a snapshot is no generation of any live index (how many updates preceded it must not
   * change its bytes); restore publishes it as the live index's next generation.
   */
  generation: number;
  configHash: string;
  /** configHash + the embedding model: the second part of the artifact name. */
  configId: string;
  model: { id: string; dims: number; quantization: string } | null;
  /** The repository's parentless commits: the same for every clone, different for another repository. */
  repository: { rootCommits: string[] };
  counts: { files: number; symbols: number; edges: number; vectors: number };
  /** Every other member, in archive order. */
  members: Member[];
}

export function configIdOf(meta: Meta): string {
  const model = meta.vectors_status === 'ok' ? `${meta.vectors_model}\0${meta.vectors_quantization}` : String(meta.vectors_status ?? '');
  return createHash('sha256').update(`${meta.config_hash ?? ''}\0${model}`).digest('hex').slice(0, 8);
}

export function artifactName(commit: string, configId: string): string {
  return `${commit}-${configId}.tar.gz`;
}

/** `<40 hex>-<8 hex>.tar.gz`: the commit and config id of a snapshot file in the snapshot folder by name alone. */
export const ARTIFACT_RE = /^([0-9a-f]{40})-([0-9a-f]{8})\.tar\.gz$/;

/**
 * The manifest of the snapshot `file`, checked before anything else is unpacked: a cg snapshot, of a
 * format this cg reads, listing members by name, size and sha256 (the sizes bound the unpacking).
 */
export function parseManifest(file: string, text: Buffer): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text.toString('utf8')) as Manifest;
  } catch (err) {
    throw malformed(file, `it has no readable manifest: ${errorMessage(err)}`);
  }
  if (m?.format !== FORMAT || !Number.isInteger(m.formatVersion)) {
    throw new CgError('snapshot_invalid', `The snapshot ${file} is not a cg snapshot (its manifest names no ${FORMAT} format)`,
      'Pass a file written by `cg snapshot create`.', { reason: 'manifest' });
  }
  if (m.formatVersion > FORMAT_VERSION) {
    throw new CgError('snapshot_invalid',
      `The snapshot ${file} has format version ${m.formatVersion}; this cg reads version ${FORMAT_VERSION} and older`,
      'Upgrade cg to restore it, or run `cg index` to build the index here.', { reason: 'newer_format' });
  }
  if (!Array.isArray(m.members) || typeof m.commit !== 'string' || !/^[0-9a-f]{40}$/.test(m.commit)) {
    throw malformed(file, 'it has a malformed manifest (members or commit missing)');
  }
  const names = new Set<string>();
  for (const x of m.members as unknown[]) {
    const member = x as Partial<Member> | null;
    if (!member || typeof member.name !== 'string' || !Number.isSafeInteger(member.bytes) || (member.bytes as number) < 0
      || typeof member.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(member.sha256) || names.has(member.name) || member.name === 'manifest.json') {
      throw malformed(file, `its manifest lists a malformed or repeated member: ${JSON.stringify(x).slice(0, 200)}`);
    }
    names.add(member.name);
  }
  return m;
}

function malformed(file: string, what: string): CgError {
  return new CgError('snapshot_invalid', `The snapshot ${file} ${what}`, 'Pass a file written by `cg snapshot create`.', { reason: 'manifest' });
}
