import fs from 'node:fs';
import path from 'node:path';
import type { ParseError } from 'jsonc-parser';
import { jsoncParser } from '../jsonc.js';
import { createRequire } from 'node:module';
import type { z } from 'zod';
import { CgError, errorMessage } from '../errors.js';
import { CG_DIR } from '../paths.js';

export { CG_DIR };
/**
 * The configuration a team shares: committed at the repository root, JSON with comments allowed
 * (as tsconfig.json), holding only what differs from the defaults. cg never writes it, except
 * `cg config migrate`, which moves an old .codegraph/config.json into it.
 */
export const CONFIG_FILE = 'cg.config.json';
/** Where configuration lived before: git-ignored, so it could not be shared. Still read, with a note. */
export const LEGACY_CONFIG_FILE = `${CG_DIR}/config.json`;

export interface Config {
  /** Files larger than this are skipped (counted as `too_large`). */
  maxFileBytes: number;
  /** Extra exclusions in .gitignore syntax, on top of .gitignore and .cgignore. */
  exclude: string[];
  /**
   * Directory names never descended into, at any depth: dependencies, virtual environments, tool
   * caches. Build output (build/, dist/, out/, target/) is not named here: src/repo/vendored.ts
   * tells it from source by what the repository says (ignored, untracked, generated markers).
   */
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
    /** `redact`: a credential's span is replaced and the file indexed; `exclude`: the whole file is left out. */
    mode: SecretsMode;
  };
  embeddings: EmbeddingsConfig;
  retrieval: {
    /** How candidates from full-text, vectors and the graph are fused (src/retrieve/fusion.ts; README "Ranking presets"). */
    preset: RankingPreset;
  };
  snapshots: {
    /** Where `cg snapshot` writes and looks for artifacts, relative to the repository root; a folder cg owns. */
    dir: string;
  };
  warnings: {
    /** Answers warn about relations whose confidence is at most this (spec 004 FR-003: 70 %). */
    lowConfidence: number;
  };
  externals: {
    /** Index the declarations of dependencies installed inside the repository (node_modules, .venv, vendor/). */
    enabled: boolean;
  };
}

export const SECRETS_MODES = ['redact', 'exclude'] as const;
export type SecretsMode = (typeof SECRETS_MODES)[number];

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
    'Pods', 'Carthage', '__pycache__', '.venv', 'venv', '.tox', '.nox', '.mypy_cache', '.pytest_cache', 'site-packages',
    '.next', '.nuxt', '.svelte-kit', '.gradle', '.idea', '.vscode', '.cache',
  ],
  workers: 0,
  hooks: { autoApply: true },
  secrets: { enabled: true, allowlistFile: '.cgsecrets', mode: 'redact' },
  embeddings: { enabled: true, model: 'cg/glove-100d', pooling: 'mean', normalize: true, quantization: 'i8' },
  retrieval: { preset: 'learned' },
  snapshots: { dir: `${CG_DIR}/snapshots` },
  warnings: { lowConfidence: 0.7 },
  externals: { enabled: true },
};

const MODEL_ID = /^[\w.-]+(\/[\w.-]+)?$/;

const want = (what: string) => ({ error: `must be ${what}` });

/**
 * zod, loaded when a configuration file is there to check: most repositories have none, and loading
 * zod costs 50-150 ms that every CLI process (a query, a hook's update) would otherwise pay. Its
 * CommonJS build, because reading the configuration is synchronous.
 */
let loadedZod: typeof z | undefined;
let fileSchema: ReturnType<typeof buildFileSchema> | undefined;
function loadZod(): typeof z {
  return (loadedZod ??= (createRequire(import.meta.url)('zod') as { z: typeof z }).z);
}

/** The JSONC parser (src/jsonc.ts) and the did-you-mean distance, loaded with zod and for the same reason (15-30 ms of a hook's update). */
const jsonc = jsoncParser;
function levenshtein(): typeof import('fastest-levenshtein') {
  return createRequire(import.meta.url)('fastest-levenshtein') as typeof import('fastest-levenshtein');
}

/**
 * What the file may say: every key optional (a missing one takes its default), no key unknown (a typo
 * such as "exlude" would otherwise be dropped silently). The messages complete `"key" must be …`.
 */
function buildFileSchema(z: typeof import('zod').z) {
  const bool = () => z.boolean(want('true or false')).optional();
  const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
    z.enum(values, want(`one of ${values.map((x) => `"${x}"`).join(', ')}`)).optional();
  const section = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape, want('an object')).optional();

  return z.strictObject({
    $schema: z.string(want('a string')).optional(),
    maxFileBytes: z.number(want('a positive number')).positive(want('a positive number')).optional(),
    exclude: z.array(z.string(), want('an array of strings')).optional(),
    vendorDirs: z.array(z.string(), want('an array of strings')).optional(),
    workers: z.number(want('a non-negative integer (0 = one per core)')).int(want('a non-negative integer (0 = one per core)'))
      .min(0, want('a non-negative integer (0 = one per core)')).optional(),
    hooks: section({ autoApply: bool() }),
    secrets: section({ enabled: bool(), allowlistFile: z.string(want('a path')).min(1, want('a path')).optional(), mode: oneOf(SECRETS_MODES) }),
    embeddings: section({
      enabled: bool(),
      model: z.string(want('a model id such as "cg/glove-100d" or "jinaai/jina-embeddings-v2-base-code"'))
        .regex(MODEL_ID, want('a model id such as "cg/glove-100d" or "jinaai/jina-embeddings-v2-base-code"'))
        .refine((m) => !m.includes('..'), want('a model id such as "cg/glove-100d" or "jinaai/jina-embeddings-v2-base-code"')).optional(),
      pooling: oneOf(POOLINGS),
      normalize: bool(),
      dims: z.number(want("a positive whole number (or left out, to take the model's)")).int(want("a positive whole number (or left out, to take the model's)"))
        .min(1, want("a positive whole number (or left out, to take the model's)")).max(65536, want("a positive whole number (or left out, to take the model's)")).optional(),
      quantization: oneOf(VECTOR_QUANTIZATIONS),
      dtype: oneOf(MODEL_DTYPES),
    }),
    retrieval: section({ preset: oneOf(RANKING_PRESETS) }),
    warnings: section({
      lowConfidence: z.number(want('a number from 0 to 1 (0.7 warns about relations of 70 % confidence or less)'))
        .min(0, want('a number from 0 to 1 (0.7 warns about relations of 70 % confidence or less)'))
        .max(1, want('a number from 0 to 1 (0.7 warns about relations of 70 % confidence or less)')).optional(),
    }),
    externals: section({ enabled: bool() }),
    // `cg check`'s rules: checked by its own schema when it runs (src/check/config.ts), which this module cannot import.
    check: z.record(z.string(), z.unknown(), want('an object')).optional(),
    snapshots: section({
      dir: z.string(want('a folder relative to the repository root')).min(1, want('a folder relative to the repository root'))
        .refine((d) => !path.isAbsolute(d) && !d.split(/[\\/]/).includes('..'), want('a folder inside the repository, relative to its root'))
        .optional(),
    }),
  }, want('a JSON object'));
}

export type ConfigFile = z.infer<ReturnType<typeof buildFileSchema>>;

export interface LoadedConfig {
  config: Config;
  /** The file read (repo-relative), or null when there is none and everything is a default. */
  file: string | null;
  /** What the user should know about where the configuration came from (the old location, a file left unread). */
  notes: string[];
}

export function configPath(root: string): string {
  return path.join(root, CONFIG_FILE);
}

/** The configuration of a repository: its cg.config.json over the defaults (the defaults alone when there is none). */
export function loadConfig(root: string): Config {
  return readConfig(root).config;
}

/**
 * Reads `cg.config.json` (or, failing that, the old `.codegraph/config.json`) over the defaults. A
 * missing file means defaults; a broken or mistyped one is an error rather than a silent fallback,
 * because the user wrote it expecting it to take effect.
 */
export function readConfig(root: string): LoadedConfig {
  const shared = readIfPresent(path.join(root, CONFIG_FILE));
  const legacy = readIfPresent(path.join(root, LEGACY_CONFIG_FILE));
  const notes: string[] = [];
  if (shared !== null) {
    if (legacy !== null) notes.push(`${LEGACY_CONFIG_FILE} is not read because ${CONFIG_FILE} exists; delete it (or merge it with \`cg config migrate\`).`);
    return { config: mergeConfig(parseConfigText(shared, CONFIG_FILE)), file: CONFIG_FILE, notes };
  }
  if (legacy === null) return { config: structuredClone(DEFAULT_CONFIG), file: null, notes };
  notes.push(`${LEGACY_CONFIG_FILE} is deprecated: it is git-ignored, so teammates and CI never see it. `
    + `\`cg config migrate\` moves what differs from the defaults into ${CONFIG_FILE}, to commit.`);
  return { config: mergeConfig(parseConfigText(legacy, LEGACY_CONFIG_FILE)), file: LEGACY_CONFIG_FILE, notes };
}

function readIfPresent(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CgError('io', `Cannot read ${file}: ${errorMessage(err)}`, 'Check the file permissions.');
  }
}

/** The text of a configuration file, checked against the schema; `name` is how messages call it. */
export function parseConfigText(text: string, name: string): ConfigFile {
  const errors: ParseError[] = [];
  const { parse: parseJsonc, printParseErrorCode } = jsonc();
  const raw: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    const e = errors[0];
    const line = text.slice(0, e.offset).split('\n').length;
    throw new CgError('usage', `${name} is not valid JSON: ${printParseErrorCode(e.error)} at line ${line}`,
      'Fix the file (comments and trailing commas are allowed), or delete it to return to the defaults.');
  }
  const parsed = (fileSchema ??= buildFileSchema(loadZod())).safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => describeIssue(issue));
  throw new CgError('usage', `${name}: ${problems.join('; ')}`, 'See README.md, "Configuration", for every key and its default.',
    { problems });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const at = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const valid = keysAt(at);
    const { closest, distance } = levenshtein();
    return issue.keys.map((k) => {
      const name = [...at, k].join('.');
      const near = valid.length ? closest(k, valid) : null;
      const close = near !== null && distance(k, near) <= Math.max(2, Math.floor(k.length / 3));
      return `unknown key "${name}"${close ? ` (did you mean "${[...at, near].join('.')}"?)` : ` (valid here: ${valid.join(', ')})`}`;
    }).join('; ');
  }
  return at.length ? `"${at.join('.')}" ${issue.message}` : `the file ${issue.message.replace(/^must be/, 'must hold')}`;
}

/** The keys the schema allows inside the object at `at` (the top level when empty). */
function keysAt(at: string[]): string[] {
  const zod = loadZod();
  let node: z.ZodType = (fileSchema ??= buildFileSchema(zod));
  for (const key of at) {
    const inner: z.ZodType = node instanceof zod.ZodOptional ? (node.unwrap() as z.ZodType) : node;
    if (!(inner instanceof zod.ZodObject)) return [];
    node = inner.shape[key] as z.ZodType;
    if (!node) return [];
  }
  const obj = node instanceof zod.ZodOptional ? node.unwrap() : node;
  return obj instanceof zod.ZodObject ? Object.keys(obj.shape).filter((k) => k !== '$schema') : [];
}

/** The file's values over the defaults, section by section. */
function mergeConfig(file: ConfigFile): Config {
  const cfg = structuredClone(DEFAULT_CONFIG);
  const { hooks, secrets, embeddings, retrieval, snapshots, warnings, externals, check: _check, $schema: _schema, ...top } = file;
  Object.assign(cfg, definedOnly(top));
  Object.assign(cfg.hooks, definedOnly(hooks ?? {}));
  Object.assign(cfg.secrets, definedOnly(secrets ?? {}));
  Object.assign(cfg.embeddings, definedOnly(embeddings ?? {}));
  Object.assign(cfg.retrieval, definedOnly(retrieval ?? {}));
  Object.assign(cfg.snapshots, definedOnly(snapshots ?? {}));
  Object.assign(cfg.warnings, definedOnly(warnings ?? {}));
  Object.assign(cfg.externals, definedOnly(externals ?? {}));
  return cfg;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * What a configuration holds beyond the defaults, as a file would say it: only the keys whose value
 * differs, so a default that improves in a later cg is never frozen into a repository.
 */
export function differencesFromDefaults(file: ConfigFile): ConfigFile {
  const merged = mergeConfig(file) as unknown as Record<string, unknown>;
  const defaults = DEFAULT_CONFIG as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(merged)) {
    const dflt = defaults[key];
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const inner = Object.fromEntries(Object.entries(value).filter(([k, v]) =>
        JSON.stringify(v) !== JSON.stringify((dflt as Record<string, unknown>)[k])));
      if (Object.keys(inner).length) out[key] = inner;
    } else if (JSON.stringify(value) !== JSON.stringify(dflt)) out[key] = value;
  }
  return out as ConfigFile;
}
