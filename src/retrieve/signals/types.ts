/** What one line of a format says, before its path is resolved against the repository. */
export type SignalKind = 'frame' | 'failure' | 'log' | 'hotspot' | 'coverage';

export interface RawRef {
  /** The path as the text wrote it (a file URL already turned into a path). */
  written: string;
  line: number | null;
  column: number | null;
  symbol: string | null;
  kind: SignalKind;
  source: string;
  /**
   * Where the tool said the file lives when it printed only a file name: `go test` prints
   * `cart_test.go:12` and names the package (`FAIL github.com/acme/shop/cart`) lines later.
   */
  dirHint?: string;
  /** The generic fallback matches anything shaped like `x.py:12`; only repository files are worth keeping. */
  onlyIfResolved?: boolean;
}
