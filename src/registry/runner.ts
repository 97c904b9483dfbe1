import type { RegistryDb } from './db.js';
import { drainJobs, type JobOutcome } from './indexing.js';

/**
 * Runs queued indexing jobs one after another in this process. `kick()` starts a drain unless one is
 * running (a running drain takes jobs queued meanwhile too) and resolves when the queue is empty.
 */
export class JobRunner {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(private readonly db: RegistryDb, private readonly onJob: (o: JobOutcome) => void = () => {}) {}

  kick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await drainJobs(this.db, this.onJob);
        } while (this.again);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }
}
