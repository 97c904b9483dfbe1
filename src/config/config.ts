import fs from 'node:fs';
import path from 'node:path';
import { CgError, errorMessage } from '../errors.js';

/** The directory, under the repository root, that holds everything cg writes. */
export const CG_DIR = '.codegraph';
export const CONFIG_FILE = 'config.json';

export interface Config {
  /** Files larger than this are skipped (counted as `too_large`). */
  maxFileBytes: number;
  /** Extra exclusions in .gitignore syntax, on top of .gitignore and .cgignore. */
  exclude: string[];
  /** Directory names never descended into: dependencies, build output, virtual environments. */
  vendorDirs: string[];
  /** Worker threads for a full build; 0 means one per available core. */
  workers: number;
  hooks: {
    /** Git hooks and `cg notify` start the applier in the background after recording a change. */
    autoApply: boolean;
  };
  secrets: {
    /** Scan files for credentials before anything derived from them is stored. */
    enabled: boolean;
    /** Repo-relative path of the allowlist that accepts reported false positives. */
    allowlistFile: string;
  };
  embeddings: EmbeddingsConfig;
  retrieval: {
    /** How candidates from full-text, vectors and the graph are fused (src/retrieve/fusion.ts; README "Ranking presets"). */
    preset: RankingPreset;
  };
}

export const RANKING_PRESETS = ['hybrid', 'lexical', 'prd', 'spec004', 'rrf', 'learned'] as const;
export type RankingPreset = (typeof RANKING_PRESETS)[number];

export const VECTOR_QUANTIZATIONS = ['i8', 'f16', 'f32'] as const;
export type VectorQuantization = (typeof VECTOR_QUANTIZATIONS)[number];
export const POOLINGS = ['mean', 'cls'] as const;
export type Pooling = (typeof POOLINGS)[number];
/** Weight variants transformers.js can load (onnx/model.onnx, model_fp16.onnx, model_quantized.onnx, …). */
export const MODEL_DTYPES = ['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'q4f16', 'bnb4'] as const;
export type ModelDtype = (typeof MODEL_DTYPES)[number];

export interface EmbeddingsConfig {
  /** Embed symbols at all; off, the index has no vectors and ranking uses full-text and the graph. */
  enabled: boolean;
  /** `cg/glove-100d` (built in, offline) or a model hub id such as `jinaai/jina-embeddings-v2-base-code`. */
  model: string;
  /** How token vectors become one vector: the mean over tokens, or the first ([CLS]) token. */
  pooling: Pooling;
  /** L2-normalise embeddings (cosine search expects it). */
  normalize: boolean;
  /** Expected dimension; when set, a model producing another is an error instead of a silent mix. */
  dims?: number;
  /** Scalar type of the vector index: i8 is a quarter of f32's size at a small recall cost. */
  quantization: VectorQuantization;
  /** Which ONNX weights of a hub model to load; the default is fp32 (onnx/model.onnx). */
  dtype?: ModelDtype;
}

export const DEFAULT_CONFIG: Config = {
  maxFileBytes: 1_000_000,
  exclude: [],
  vendorDirs: [
    'node_modules', 'bower_components', 'jspm_packages', 'vendor', 'third_party', 'third-party',
    'Pods', 'Carthage', '.build', 'target', 'dist', 'build', 'out', 'coverage',
    '__pycache__', '.venv', 'venv', '.tox', '.nox', '.mypy_cache', '.pytest_cache', 'site-packages',
    '.next', '.nuxt', '.svelte-kit', '.gradle', '.idea', '.vscode', '.cache',
  ],
  workers: 0,
  hooks: { autoApply: true },
  secrets: { enabled: true, allowlistFile: '.cgsecrets' },
  embeddings: { enabled: true, model: 'cg/glove-100d', pooling: 'mean', normalize: true, quantization: 'i8' },
  retrieval: { preset: 'hybrid' },
};

export function configPath(root: string): string {
  return path.join(root, CG_DIR, CONFIG_FILE);
}

/**
 * Reads `.codegraph/config.json` over the defaults. A missing file means defaults; a broken one is
 * an error rather than a silent fallback, because the user wrote it expecting it to take effect.
 */
export function loadConfig(root: string): Config {
  const file = configPath(root);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(DEFAULT_CONFIG);
    throw new CgError('io', `Cannot read ${file}: ${errorMessage(err)}`, 'Check the file permissions.');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CgError('usage', `${file} is not valid JSON: ${errorMessage(err)}`,
      `Fix the file, or delete it to return to the defaults.`);
  }
  return mergeConfig(raw, file);
}

function mergeConfig(raw: unknown, file: string): Config {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new CgError('usage', `${file} must hold a JSON object`, 'See README.md, "Configuration".');
  }
  const r = raw as Record<string, unknown>;
  const cfg = structuredClone(DEFAULT_CONFIG);
  const bad = (key: string, want: string) =>
    new CgError('usage', `${file}: "${key}" must be ${want}`, 'See README.md, "Configuration".');
  if (r.maxFileBytes !== undefined) {
    if (typeof r.maxFileBytes !== 'number' || !(r.maxFileBytes > 0)) throw bad('maxFileBytes', 'a positive number');
    cfg.maxFileBytes = r.maxFileBytes;
  }
  for (const key of ['exclude', 'vendorDirs'] as const) {
    const v = r[key];
    if (v === undefined) continue;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw bad(key, 'an array of strings');
    cfg[key] = v as string[];
  }
  if (r.workers !== undefined) {
    if (typeof r.workers !== 'number' || !Number.isInteger(r.workers) || r.workers < 0) {
      throw bad('workers', 'a non-negative integer (0 = one per core)');
    }
    cfg.workers = r.workers;
  }
  if (r.hooks !== undefined) {
    const h = r.hooks as Record<string, unknown>;
    if (typeof h !== 'object' || h === null) throw bad('hooks', 'an object');
    if (h.autoApply !== undefined) {
      if (typeof h.autoApply !== 'boolean') throw bad('hooks.autoApply', 'true or false');
      cfg.hooks.autoApply = h.autoApply;
    }
  }
  if (r.secrets !== undefined) {
    const s = r.secrets as Record<string, unknown>;
    if (typeof s !== 'object' || s === null) throw bad('secrets', 'an object');
    if (s.enabled !== undefined) {
      if (typeof s.enabled !== 'boolean') throw bad('secrets.enabled', 'true or false');
      cfg.secrets.enabled = s.enabled;
    }
    if (s.allowlistFile !== undefined) {
      if (typeof s.allowlistFile !== 'string' || !s.allowlistFile) throw bad('secrets.allowlistFile', 'a path');
      cfg.secrets.allowlistFile = s.allowlistFile;
    }
  }
  if (r.embeddings !== undefined) cfg.embeddings = mergeEmbeddings(r.embeddings, cfg.embeddings, bad);
  if (r.retrieval !== undefined) {
    const q = r.retrieval as Record<string, unknown>;
    if (typeof q !== 'object' || q === null) throw bad('retrieval', 'an object');
    if (q.preset !== undefined) {
      if (typeof q.preset !== 'string' || !(RANKING_PRESETS as readonly string[]).includes(q.preset)) {
        throw bad('retrieval.preset', `one of ${RANKING_PRESETS.map((x) => `"${x}"`).join(', ')}`);
      }
      cfg.retrieval.preset = q.preset as RankingPreset;
    }
  }
  return cfg;
}

function mergeEmbeddings(raw: unknown, dflt: EmbeddingsConfig, bad: (key: string, want: string) => CgError): EmbeddingsConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad('embeddings', 'an object');
  const e = raw as Record<string, unknown>;
  const out: EmbeddingsConfig = { ...dflt };
  const oneOf = (key: keyof EmbeddingsConfig, values: readonly string[]) => {
    const v = e[key];
    if (v === undefined) return;
    if (typeof v !== 'string' || !values.includes(v)) throw bad(`embeddings.${key}`, `one of ${values.map((x) => `"${x}"`).join(', ')}`);
    (out as unknown as Record<string, unknown>)[key] = v;
  };
  if (e.model !== undefined) {
    if (typeof e.model !== 'string' || !/^[\w.-]+(\/[\w.-]+)?$/.test(e.model) || e.model.includes('..')) {
      throw bad('embeddings.model', 'a model id such as "cg/glove-100d" or "jinaai/jina-embeddings-v2-base-code"');
    }
    out.model = e.model;
  }
  oneOf('pooling', POOLINGS);
  oneOf('quantization', VECTOR_QUANTIZATIONS);
  oneOf('dtype', MODEL_DTYPES);
  if (e.enabled !== undefined) {
    if (typeof e.enabled !== 'boolean') throw bad('embeddings.enabled', 'true or false');
    out.enabled = e.enabled;
  }
  if (e.normalize !== undefined) {
    if (typeof e.normalize !== 'boolean') throw bad('embeddings.normalize', 'true or false');
    out.normalize = e.normalize;
  }
  if (e.dims !== undefined) {
    if (typeof e.dims !== 'number' || !Number.isInteger(e.dims) || e.dims < 1 || e.dims > 65536) {
      throw bad('embeddings.dims', 'a positive whole number (or left out, to take the model\'s)');
    }
    out.dims = e.dims;
  }
  return out;
}
