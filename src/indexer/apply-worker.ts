import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../errors.js';
import { updateIndex } from './update.js';
import type { ApplyReply } from './apply-thread.js';

/**
 * The thread of an ApplyThread (src/indexer/apply-thread.ts): each 'apply' message runs `updateIndex`
 * on the repository, as a background applier does (another writer busy: nothing to do, that writer
 * reads the log again when it ends), and answers with what its rounds applied.
 */
const { root } = workerData as { root: string };
parentPort!.on('message', async () => {
  let reply: ApplyReply;
  try {
    const res = await updateIndex(root, { background: true });
    // A run ends with a round that found nothing more to apply: the answer is about the rounds that did.
    const worked = res.rounds.filter((r) => r.mode !== 'none');
    const last = worked.at(-1) ?? res.rounds.at(-1);
    reply = { ok: true, mode: last?.mode, generation: last?.generation, files: worked.reduce((n, r) => n + r.added + r.modified + r.deleted, 0),
      durationMs: res.rounds.reduce((n, r) => n + r.durationMs, 0) };
  } catch (err) {
    reply = { ok: false, error: errorMessage(err) };
  }
  parentPort!.postMessage(reply);
});
