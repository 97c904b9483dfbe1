import path from 'node:path';

/**
 * Rows a long-running process (cg watch, the benchmark) read or wrote at one generation
 * of an index, kept so its next update patches them instead of reading everything again. An entry is
 * keyed by the database file, its build id and its generation: any other writer (another process, a
 * rebuild, a snapshot restore) moves one of these, and the rows are then read afresh.
 */
export class GenerationCache<T> {
  /**
   * One entry per repository (the directory holding its builds), so a process that outlives many
   * rebuilds keeps the rows of the latest one only.
   */
  private readonly entries = new Map<string, { key: string; value: T }>();

  /**
   * Returns the value kept for this index file at exactly this build and generation, and forgets it:
   * an update that fails half-way leaves nothing behind to trust.
   */
  take(dbFile: string, buildId: string | undefined, generation: number): T | null {
    const e = this.entries.get(repoOf(dbFile));
    this.entries.delete(repoOf(dbFile));
    return e && e.key === keyOf(dbFile, buildId, generation) ? e.value : null;
  }

  /** Keeps a value for a generation; call only once that generation is committed. */
  put(dbFile: string, buildId: string | undefined, generation: number, value: T): void {
    this.entries.set(repoOf(dbFile), { key: keyOf(dbFile, buildId, generation), value });
  }
}

function repoOf(dbFile: string): string {
  return path.dirname(path.dirname(path.resolve(dbFile)));
}

function keyOf(dbFile: string, buildId: string | undefined, generation: number): string {
  return `${path.resolve(dbFile)}\0${buildId ?? ''}\0${generation}`;
}
