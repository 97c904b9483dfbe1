/**
 * Text -> vectors with transformers.js, fully offline.
 *
 *   const e = await loadEmbedder(spec?, {batchSize?, threads?})   // default spec: BUILTIN_MODEL
 *   e.dims, e.key, e.spec
 *   await e.embed(['def parse(path)', 'class Cache'])             // Float32Array per text, in order
 *   await e.dispose()
 *
 * A model that is not on this machine fails at once with a CgError `model_unavailable` (exit 5) that
 * says how to get it: the files are checked before transformers.js is even imported, and
 * transformers.js itself runs with remote models disabled, so loading never waits on a network.
 *
 * A text with no known word (empty, only punctuation, or only words outside the vocabulary) has no
 * direction: it comes back as a zero vector, which callers should treat as "no semantic signal"
 * (cosine with it is 0) rather than store as a match for everything.
 */
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import { CgError, errorMessage } from '../errors.js';
import { BUILTIN_MODEL, isBuiltin, locateModel, modelKey, modelStatus, unavailableError, type ModelSpec } from './model.js';
import { withTransformers } from './runtime.js';
import { loadStaticEmbedder } from './static.js';

export interface EmbedderOptions {
  /** Texts per forward pass. Larger batches amortise per-call overhead; padding grows with them. */
  batchSize?: number;
  /** onnxruntime intra-op threads; 0 or unset lets it choose (one per core). */
  threads?: number;
}

export interface Embedder {
  readonly spec: ModelSpec;
  /** The model's vector space (modelKey): equal keys, comparable vectors. */
  readonly key: string;
  readonly dims: number;
  embed(texts: string[]): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}

const DEFAULT_BATCH = 64;

const shared = new Map<string, Promise<Embedder>>();

/**
 * One embedder per model for the whole process, never disposed: loading takes ~0.7 s, and a
 * long-running process (`cg watch`, `cg serve`) would otherwise pay it on every update or query.
 * A failed load is forgotten so the next call tries again.
 */
export function sharedEmbedder(spec: ModelSpec = BUILTIN_MODEL): Promise<Embedder> {
  const key = modelKey(spec);
  let e = shared.get(key);
  if (!e) {
    e = loadEmbedder(spec);
    shared.set(key, e);
    e.catch(() => shared.delete(key));
  }
  return e;
}

/** The built-in model is read directly (src/vectors/static.ts: same vectors, far less memory); hub models run in transformers.js. */
/** Models loaded (or loading) by sharedEmbedder. */
export function sharedEmbedderCount(): number {
  return shared.size;
}

/**
 * Forgets every shared embedder so its weights can be collected (a long-running server that sits idle,
 * src/mcp/idle.ts); the next sharedEmbedder call loads the model again. Embedders already handed out
 * keep working, so nothing is disposed here.
 */
export function releaseSharedEmbedders(): void {
  shared.clear();
}

export async function loadEmbedder(spec: ModelSpec = BUILTIN_MODEL, opts: EmbedderOptions = {}): Promise<Embedder> {
  const status = modelStatus(spec);
  if (!status.available) throw unavailableError(spec, status.missing);
  return isBuiltin(spec) ? loadStaticEmbedder(spec) : loadPipelineEmbedder(spec, opts);
}

/** A model through transformers.js' feature-extraction pipeline (any model, the built-in one included). */
export async function loadPipelineEmbedder(spec: ModelSpec, opts: EmbedderOptions = {}): Promise<Embedder> {
  const loc = locateModel(spec);
  const extractor = await withTransformers(loc, { allowRemote: false }, async (tf) => {
    try {
      return await tf.pipeline('feature-extraction', loc.name, {
        dtype: loc.dtype,
        device: 'cpu',
        local_files_only: true,
        cache_dir: `${loc.root}/`,
        session_options: { logSeverityLevel: 3, ...(opts.threads ? { intraOpNumThreads: opts.threads } : {}) },
      });
    } catch (err) {
      throw loadError(spec, err);
    }
  });
  const embedder = new PipelineEmbedder(spec, extractor as FeatureExtractionPipeline, opts.batchSize ?? DEFAULT_BATCH);
  embedder.dims = await probeDims(embedder);
  if (spec.dims !== undefined && spec.dims !== embedder.dims) {
    await embedder.dispose();
    throw new CgError('usage', `The model ${spec.id} makes ${embedder.dims}-dimensional vectors, but the configuration says ${spec.dims}`,
      `Set "embeddings.dims" to ${embedder.dims} in cg.config.json, or remove it to take the model's.`);
  }
  return embedder;
}

/** Files present but unusable (truncated download, wrong format): still "unavailable", with the cause. */
function loadError(spec: ModelSpec, err: unknown): CgError {
  const loc = locateModel(spec);
  const hint = isBuiltin(spec)
    ? 'Rebuild it with `npm run build:model -- --force` in the cg installation.'
    : `Delete ${loc.dir} and run \`cg model pull ${spec.id}\` again with internet access.`;
  return new CgError('model_unavailable', `The embedding model ${spec.id} at ${loc.dir} could not be loaded: ${errorMessage(err)}`, hint);
}

async function probeDims(e: PipelineEmbedder): Promise<number> {
  const out = await e.run(['probe']);
  return out.dims[1];
}

class PipelineEmbedder implements Embedder {
  readonly key: string;
  dims = 0;

  constructor(readonly spec: ModelSpec, private readonly extractor: FeatureExtractionPipeline, private readonly batchSize: number) {
    this.key = modelKey(spec);
  }

  async run(texts: string[]): Promise<{ data: Float32Array; dims: number[] }> {
    const out = await this.extractor(texts, { pooling: this.spec.pooling, normalize: this.spec.normalize });
    return { data: out.data as Float32Array, dims: out.dims as number[] };
  }

  /**
   * Batches hold texts of similar length (sorted by length, then put back in order), because every
   * text in a batch is padded to the longest one.
   */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const result = new Array<Float32Array>(texts.length);
    const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length || a - b);
    for (let start = 0; start < order.length; start += this.batchSize) {
      const ids = order.slice(start, start + this.batchSize);
      const { data, dims } = await this.run(ids.map((i) => texts[i]));
      const d = dims[1];
      ids.forEach((id, row) => { result[id] = finite(data.slice(row * d, (row + 1) * d)); });
    }
    return result;
  }

  async dispose(): Promise<void> {
    await this.extractor.dispose();
  }
}

/** Mean pooling over zero known tokens divides 0 by 0; such a text has no direction, so: zeros. */
function finite(v: Float32Array): Float32Array {
  for (let i = 0; i < v.length; i++) {
    if (!Number.isFinite(v[i])) return v.fill(0);
  }
  return v;
}
