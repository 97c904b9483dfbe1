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
 *
 * It is an optional peer dependency, not installed with cg (with its ONNX runtimes it is ~450 MB, and
 * the built-in model never needs it): only a configured hub model imports it, and its absence is a
 * model_unavailable error that says how to install it.
 */
import { CgError, errorMessage } from '../errors.js';
import type { ModelLocation } from './model.js';

type Transformers = typeof import('@huggingface/transformers');

let module: Promise<Transformers> | null = null;
let queue: Promise<unknown> = Promise.resolve();

const PACKAGE = '@huggingface/transformers';

async function transformers(): Promise<Transformers> {
  module ??= import(PACKAGE).then((tf: Transformers) => {
    // Its warnings go to the console; cg reports failures itself, as CgErrors.
    tf.env.logLevel = tf.LogLevel.ERROR;
    tf.env.allowRemoteModels = false;
    return tf;
  }, (err: unknown) => {
    module = null; // installed later in the life of a long-running process: try again then
    throw missingTransformers(err);
  });
  return module;
}

/** The error for a failed import of transformers.js: not installed (the usual case), or broken. */
export function missingTransformers(err: unknown): CgError {
  const code = (err as NodeJS.ErrnoException)?.code;
  const absent = (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && errorMessage(err).includes(PACKAGE);
  const install = `Install it where cg can load it: \`npm install -g ${PACKAGE}@4\` beside a global cg, or \`npm install ${PACKAGE}@4\` `
    + 'in the project that has cg as a dependency (offline, prefix ONNXRUNTIME_NODE_INSTALL=skip: the CPU runtime is inside the '
    + 'package and its install script only fetches GPU libraries). Or use the built-in model ("embeddings": {"model": "cg/glove-100d"}), which needs nothing.';
  return absent
    ? new CgError('model_unavailable', `Hub embedding models run in ${PACKAGE}, which is not installed (it is an optional peer dependency of cg, ~450 MB)`, install)
    : new CgError('model_unavailable', `${PACKAGE} could not be loaded: ${errorMessage(err)}`, `Reinstall it. ${install}`);
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
