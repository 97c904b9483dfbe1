import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../errors.js';
import { updateIndex } from './update.js';
import type { ApplyReply } from './apply-thread.js';

/**
 * The thread of an ApplyThread (src/indexer/apply-thread.ts): each 'apply' message runs `updateIndex`
 * on the repository, as a background applier does (another writer busy: nothing to do, that writer
 * reads the log again when it ends), and answers with the last round.
 */
const { root } = workerData as { root: string };
parentPort!.on('message', async () => {
  let reply: ApplyReply;
  try {
    const res = await updateIndex(root, { background: true });
    const last = res.rounds.at(-1);
    reply = { ok: true, mode: last?.mode, generation: last?.generation, files: last ? last.added + last.modified + last.deleted : 0, durationMs: last?.durationMs };
  } catch (err) {
    reply = { ok: false, error: errorMessage(err) };
  }
  parentPort!.postMessage(reply);
});
