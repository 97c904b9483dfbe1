import { parentPort, workerData } from 'node:worker_threads';
import { VectorStore, type VectorStoreOptions } from './store.js';
import { sharedEmbedder } from './embedder.js';
import type { ModelSpec } from './model.js';

/**
 * Worker-thread entry of VectorStore.rebuildFile and embedAndBuildFile: stores the vectors it is handed
 * (ids ascending, one vector each, flat), or those of the texts it embeds first, and saves the
 * generation's file, as VectorStore.rebuild and save do on the caller's thread.
 */
type Job = { ids: Float64Array; opts: VectorStoreOptions; dir: string; generation: number }
  & ({ flat: Float32Array } | { texts: string[]; spec: ModelSpec });

const job = workerData as Job;
let vectors: Float32Array[];
let dims = job.opts.dims;
if ('texts' in job) {
  const embedder = await sharedEmbedder(job.spec);
  vectors = await embedder.embed(job.texts);
  dims = embedder.dims;
} else {
  vectors = Array.from(job.ids, (_, i) => job.flat.subarray(i * dims, (i + 1) * dims));
}
const store = VectorStore.create({ ...job.opts, dims });
store.upsert(Array.from(job.ids), vectors);
const name = store.save(job.dir, job.generation);
// The texts with no known word: their zero vectors are not in the file, and the caller records which they are.
const zero = 'texts' in job ? vectors.flatMap((v, i) => (v.some((x) => x !== 0) ? [] : [i])) : [];
parentPort!.postMessage({ name, size: store.size, checksum: store.checksum, dims, zero });
