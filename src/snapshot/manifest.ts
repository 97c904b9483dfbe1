import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CgError, errorMessage } from '../errors.js';
import type { Meta } from '../store/db.js';
import type { Member } from './archive.js';

/**
 * `manifest.json`, the first member of every snapshot. It holds no time, path or host: the same
 * index content gives the same manifest. `formatVersion` goes up when a reader of this version
 * would misread a snapshot; such snapshots are refused by older cg rather than half-restored.
 */
export const FORMAT = 'cg-snapshot';
export const FORMAT_VERSION = 1;

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

export function readManifest(file: string, dir: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  } catch (err) {
    throw new CgError('snapshot_invalid', `The snapshot ${file} has no readable manifest: ${errorMessage(err)}`,
      'Pass a file written by `cg snapshot create`.', { reason: 'manifest' });
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
    throw new CgError('snapshot_invalid', `The snapshot ${file} has a malformed manifest (members or commit missing)`,
      'Pass a file written by `cg snapshot create`.', { reason: 'manifest' });
  }
  return m;
}
