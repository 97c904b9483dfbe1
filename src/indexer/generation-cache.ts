/**
 * Rows a long-running process (cg watch, a server, the benchmark) read or wrote at one generation
 * of an index, kept so its next update patches them instead of reading everything again. An entry is
 * keyed by the database file, its build id and its generation: any other writer (another process, a
 * rebuild, a snapshot restore) moves one of these, and the rows are then read afresh.
 */
export class GenerationCache<T> {
  private readonly entries = new Map<string, { key: string; value: T }>();

  /**
   * Returns the value kept for this index file at exactly this build and generation, and forgets it:
   * an update that fails half-way leaves nothing behind to trust.
   */
  take(dbFile: string, buildId: string | undefined, generation: number): T | null {
    const e = this.entries.get(dbFile);
    this.entries.delete(dbFile);
    return e && e.key === `${buildId ?? ''}\0${generation}` ? e.value : null;
  }

  /** Keeps a value for a generation; call only once that generation is committed. */
  put(dbFile: string, buildId: string | undefined, generation: number, value: T): void {
    this.entries.set(dbFile, { key: `${buildId ?? ''}\0${generation}`, value });
  }
}
