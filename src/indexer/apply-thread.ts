import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { BUILD_DIR } from '../paths.js';
import { errorMessage } from '../errors.js';

/** The thread's module, from the same build as this code (src/paths.ts). */
const WORKER = path.join(BUILD_DIR, 'indexer', 'apply-worker.js');
/** A thread with nothing to apply for this long ends, giving its memory back; the next record starts a new one. */
const IDLE_MS = 300_000;

/** What the thread answers after each apply. */
export interface ApplyReply {
  ok: boolean;
  error?: string;
  /** The last applying round's mode and generation, the files of all rounds and their time (no round: another writer was applying). */
  mode?: string;
  generation?: number;
  files?: number;
  durationMs?: number;
}

/**
 * Applies a repository's pending changes (`updateIndex`, as `cg update` does) on a worker thread of this
 * process, so that `cg serve` can be the repository's warm applier (src/indexer/warm-applier.ts)
 * without holding its answers while an update runs. The thread starts at the first kick and keeps its
 * modules, compiled grammars and the last generation's rows between applies, so every apply after its
 * first is warm; it ends after IDLE_MS without one. Kicks that arrive while an apply runs are folded
 * into one more apply after it.
 */
export class ApplyThread {
  private worker: Worker | null = null;
  private running = false;
  private again = false;
  private idle: NodeJS.Timeout | null = null;
  private settled: (() => void) | null = null;

  constructor(private readonly root: string, private readonly onReply: (r: ApplyReply) => void) {}

  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const worker = this.worker ?? this.start();
    worker.postMessage('apply');
  }

  private start(): Worker {
    const worker = new Worker(WORKER, { workerData: { root: this.root } });
    worker.unref();
    worker.on('message', (reply: ApplyReply) => {
      this.onReply(reply);
      this.running = false;
      if (this.again) {
        this.again = false;
        this.kick();
        return;
      }
      this.settled?.();
      this.idle = setTimeout(() => void this.stopWorker(), IDLE_MS);
      this.idle.unref();
    });
    worker.on('error', (err) => this.onReply({ ok: false, error: errorMessage(err) }));
    worker.on('exit', () => {
      // Ended (idle, or an error): the next kick starts another. A record that an apply cut short left is still in the log.
      if (this.worker === worker) this.worker = null;
      if (this.running) {
        this.running = false;
        this.settled?.();
        // A kick that came while the ended thread applied starts the next one.
        if (this.again) {
          this.again = false;
          this.kick();
        }
      }
    });
    this.worker = worker;
    return worker;
  }

  private async stopWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  /** Waits up to `waitMs` for an apply in progress to finish, then ends the thread. */
  async close(waitMs = 10_000): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.again = false;
    if (this.running) {
      await Promise.race([new Promise<void>((resolve) => { this.settled = resolve; }), new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
    }
    await this.stopWorker();
  }
}
