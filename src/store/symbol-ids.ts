/**
 * Symbol ids are derived from the file id (`fileId * 2^20 + position in the file`), so they do not
 * depend on the order in which worker threads finish, and a file's symbols can point at parents
 * defined later in the same file (a Rust impl above its struct).
 */
export const SYMBOLS_PER_FILE = 1 << 20;

export function symbolIdBase(fileId: number): number {
  return fileId * SYMBOLS_PER_FILE;
}

/** The file a symbol id belongs to: every writer numbers a file's symbols from its symbolIdBase, below the next file's. */
export function fileOfSymbol(symbolId: number): number {
  return Math.floor(symbolId / SYMBOLS_PER_FILE);
}
