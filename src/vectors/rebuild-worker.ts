import { parentPort, workerData } from 'node:worker_threads';
import { VectorStore, type VectorStoreOptions } from './store.js';

/**
 * Worker-thread entry of VectorStore.rebuildFile: builds the HNSW index of the vectors it is handed
 * (ids ascending, one vector each, flat) and saves the generation's file, as VectorStore.rebuild and
 * save do on the caller's thread.
 */
const job = workerData as { ids: Float64Array; flat: Float32Array; opts: VectorStoreOptions; dir: string; generation: number };
const store = VectorStore.create(job.opts);
const dims = job.opts.dims;
const ids = Array.from(job.ids);
store.upsert(ids, ids.map((_, i) => job.flat.subarray(i * dims, (i + 1) * dims)));
const name = store.save(job.dir, job.generation);
parentPort!.postMessage({ name, size: store.size, checksum: store.checksum });
