/**
 * The one place that touches @huggingface/transformers' global `env`.
 *
 *   withTransformers(loc, {allowRemote}, fn)   runs fn with env pointed at one model folder, one at a time
 *   hubHost()                                  the model hub URL: $HF_ENDPOINT, else https://huggingface.co/
 *
 * transformers.js is imported lazily (0.2 s and ~80 MB on first use), so commands that never embed do
 * not pay for it. Its settings are process-global, and a pipeline reads them across several awaits
 * while it loads files, so loads are serialised: two loads with different folders would otherwise
 * read each other's. Remote access is off except inside a pull.
 */
import type { ModelLocation } from './model.js';

type Transformers = typeof import('@huggingface/transformers');

let module: Promise<Transformers> | null = null;
let queue: Promise<unknown> = Promise.resolve();

async function transformers(): Promise<Transformers> {
  module ??= import('@huggingface/transformers').then((tf) => {
    // Its warnings go to the console; cg reports failures itself, as CgErrors.
    tf.env.logLevel = tf.LogLevel.ERROR;
    tf.env.allowRemoteModels = false;
    return tf;
  });
  return module;
}

export function hubHost(): string {
  const host = process.env.HF_ENDPOINT || 'https://huggingface.co/';
  return host.endsWith('/') ? host : `${host}/`;
}

export async function withTransformers<T>(loc: ModelLocation, opts: { allowRemote: boolean },
  fn: (tf: Transformers) => Promise<T>): Promise<T> {
  const run = queue.then(async () => {
    const tf = await transformers();
    const env = tf.env;
    env.allowLocalModels = true;
    env.localModelPath = `${loc.root}/`;
    env.cacheDir = `${loc.root}/`;
    env.remoteHost = hubHost();
    env.allowRemoteModels = opts.allowRemote;
    try {
      return await fn(tf);
    } finally {
      env.allowRemoteModels = false;
    }
  });
  // The next load waits for this one whether it succeeds or fails.
  queue = run.catch(() => undefined);
  return run;
}
