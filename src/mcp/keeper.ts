import { CgError, errorMessage } from '../errors.js';
import { buildIndex } from '../indexer/build.js';
import { recoverFromSnapshot, type Recovery } from '../snapshot/recover.js';
import { openReader } from '../store/db.js';
import type { IndexState } from './registry.js';

/**
 * The server's start when there is no usable index. As the CLI's query commands do, a missing or
 * corrupt index is restored from the newest verified snapshot of HEAD or an ancestor (snapshot/recover);
 * with no snapshot to use, a repository never indexed (or one whose index is corrupt or of another
 * schema) is indexed in the background. Meanwhile calls are answered at once with what is happening
 * and how far it got, never held up or failed without a reason.
 */
const BUILDABLE = new Set(['index_missing', 'index_corrupt', 'index_incompatible']);
const RESTORABLE = new Set(['index_missing', 'index_corrupt']);

export class IndexKeeper {
  /** Null while the live index is usable (or the failure is one the keeper leaves to the caller to report). */
  state: IndexState | null = null;
  restored: Recovery | null = null;
  private started: Promise<void> | null = null;

  constructor(private readonly root: string, private readonly opts: { autoIndex: boolean; log: (line: string) => void }) {}

  /** Looks at the index once; resolves when a restore or build it started has ended. */
  start(): Promise<void> {
    this.started ??= this.run();
    return this.started;
  }

  private async run(): Promise<void> {
    let failure: unknown;
    try {
      openReader(this.root).close();
      return;
    } catch (err) {
      failure = err;
    }
    if (!(failure instanceof CgError)) return;
    if (RESTORABLE.has(failure.code)) {
      this.state = { state: 'restoring', message: `Restoring the index from the newest snapshot because ${lowerFirst(failure.message)}` };
      try {
        this.restored = await recoverFromSnapshot(this.root, failure);
        if (this.restored) {
          this.opts.log(`cg serve: restored the index from snapshot ${this.restored.snapshot} (catch-up: ${this.restored.catchUp})`);
          this.state = null;
          return;
        }
      } catch (err) {
        this.opts.log(`cg serve: ${errorMessage(err)}`);
      }
      this.state = null;
    }
    if (!this.opts.autoIndex || !BUILDABLE.has(failure.code)) return;
    await this.build(failure.message);
  }

  private async build(reason: string): Promise<void> {
    const message = `Indexing this repository in the background because ${lowerFirst(reason)}`;
    const state: IndexState = { state: 'indexing', message };
    this.state = state;
    this.opts.log(`cg serve: ${message}`);
    const started = Date.now();
    try {
      const res = await buildIndex(this.root, (p) => {
        state.progress = { phase: p.phase, done: p.done, total: p.total };
      });
      this.opts.log(`cg serve: indexed ${res.files} files, ${res.symbols} symbols in ${Date.now() - started} ms`);
      this.state = null;
    } catch (err) {
      this.state = { state: 'unavailable', message: `Indexing this repository failed: ${errorMessage(err)}` };
      this.opts.log(`cg serve: ${this.state.message}`);
    }
  }
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** The line an answer gives while the index is not there yet. */
export function describeState(s: IndexState): string {
  const p = s.progress;
  return p ? `${s.message}: ${p.phase} ${p.done}/${p.total}${p.total ? ` (${Math.round((p.done / p.total) * 100)}%)` : ''}` : s.message;
}
