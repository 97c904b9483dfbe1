/**
 * Downloading a hub model: the only code in cg that goes to the network, and only when asked.
 *
 *   await pullModel(spec, {onProgress?, timeoutMs?})   -> PullResult {id, dir, files, bytes, dims, durationMs, alreadyPresent}
 *
 * The hub ($HF_ENDPOINT, else https://huggingface.co/) is probed first with a short timeout, so
 * "offline" and "no such model" are reported in seconds as CgError `model_unavailable` (exit 5)
 * instead of surfacing as a stack trace from inside a download. Files are written by transformers.js'
 * file cache (temp file + rename), straight into the folder that offline loading reads.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CgError, errorMessage } from '../errors.js';
import { loadEmbedder } from './embedder.js';
import { BUILTIN_FILES, BUILTIN_MODEL_ID, isBuiltin, locateModel, modelStatus, modelsDir, requiredFiles, unavailableError, validateHubId,
  type ModelSpec } from './model.js';
import { hubHost, withTransformers } from './runtime.js';

export interface PullProgress {
  file: string;
  loaded: number;
  total: number;
}

export interface PullResult {
  id: string;
  dir: string;
  files: string[];
  bytes: number;
  dims: number;
  durationMs: number;
  /** True when every file was already there and nothing was downloaded. */
  alreadyPresent: boolean;
}

export interface PullOptions {
  onProgress?: (p: PullProgress) => void;
  /** How long the reachability probe may take before the hub counts as unreachable. */
  timeoutMs?: number;
}

const PROBE_TIMEOUT_MS = 15_000;

export async function pullModel(spec: ModelSpec, opts: PullOptions = {}): Promise<PullResult> {
  const t0 = performance.now();
  if (isBuiltin(spec)) return builtinResult(spec, t0);
  validateHubId(spec.id);
  const before = modelStatus(spec);
  if (!before.available) {
    await probeHub(spec, opts.timeoutMs ?? PROBE_TIMEOUT_MS);
    await download(spec, opts.onProgress);
  }
  // Loading it offline is the proof that the pull produced a usable model.
  const embedder = await loadEmbedder(spec);
  const dims = embedder.dims;
  await embedder.dispose();
  const loc = locateModel(spec);
  const files = requiredFiles(loc.dtype);
  return {
    id: spec.id, dir: loc.dir, files, dims, alreadyPresent: before.available,
    bytes: files.reduce((n, f) => n + fs.statSync(path.join(loc.dir, f)).size, 0),
    durationMs: Math.round(performance.now() - t0),
  };
}

async function builtinResult(spec: ModelSpec, t0: number): Promise<PullResult> {
  const status = modelStatus(spec);
  if (!status.available) throw unavailableError(spec, status.missing);
  return { id: BUILTIN_MODEL_ID, dir: status.dir, files: BUILTIN_FILES, bytes: status.bytes, dims: status.dims ?? 0,
    alreadyPresent: true, durationMs: Math.round(performance.now() - t0) };
}

/** One HEAD request for the model's config.json: reachable, exists, and we may read it. */
async function probeHub(spec: ModelSpec, timeoutMs: number): Promise<void> {
  const url = `${hubHost()}${spec.id}/resolve/main/config.json`;
  const headers: Record<string, string> = {};
  const token = process.env.HF_TOKEN ?? process.env.HF_ACCESS_TOKEN;
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(url, { method: 'HEAD', headers, redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw unreachable(spec, err);
  }
  if (res.status === 401 || res.status === 403 || res.status === 404) {
    throw new CgError('model_unavailable', `The model hub at ${hubHost()} has no model ${spec.id} that cg may read (HTTP ${res.status})`,
      'Check the id (owner/name, as on huggingface.co); for a private or gated model, set HF_TOKEN to an access token.');
  }
  if (!res.ok) {
    throw new CgError('model_unavailable', `The model hub at ${hubHost()} answered HTTP ${res.status} for ${spec.id}`,
      'Try again later; `cg model status` shows what is present locally.');
  }
}

function unreachable(spec: ModelSpec, err: unknown): CgError {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const why = (err as Error)?.name === 'TimeoutError' ? 'timed out' : cause?.code ?? cause?.message ?? errorMessage(err);
  return new CgError('model_unavailable', `Cannot download ${spec.id}: the model hub at ${hubHost()} is unreachable (${why})`,
    `\`cg model pull\` needs internet access to ${hubHost()} (or HF_ENDPOINT pointing at a mirror). Without it, copy a pulled `
    + `model folder into ${modelsDir()}, or use the built-in offline model ("embeddings.model": "${BUILTIN_MODEL_ID}").`);
}

async function download(spec: ModelSpec, onProgress?: (p: PullProgress) => void): Promise<void> {
  const loc = locateModel(spec);
  await withTransformers(loc, { allowRemote: true }, async (tf) => {
    try {
      const extractor = await tf.pipeline('feature-extraction', loc.name, {
        dtype: loc.dtype,
        device: 'cpu',
        cache_dir: `${loc.root}/`,
        session_options: { logSeverityLevel: 3 },
        progress_callback: (p: unknown) => {
          const e = p as { status?: string; file?: string; loaded?: number; total?: number };
          if (e.status === 'progress' && e.file) onProgress?.({ file: e.file, loaded: e.loaded ?? 0, total: e.total ?? 0 });
        },
      });
      await extractor.dispose();
    } catch (err) {
      throw new CgError('model_unavailable', `Downloading ${spec.id} failed: ${errorMessage(err)}`,
        `Check the connection and run \`cg model pull ${spec.id}\` again; finished files are kept in ${loc.dir}.`);
    }
  });
}
