import v8 from 'node:v8';
import vm from 'node:vm';
import { releaseTokenCounter, tokenCounterLoaded } from '../retrieve/tokens.js';
import { releaseSharedEmbedders, sharedEmbedderCount } from '../vectors/embedder.js';

/**
 * Gives back the query path's memory when the server has been idle for a while. The token encoding
 * (~60 MiB) and the embedding model (~40 MiB for the built-in one, far more for a hub model) are what
 * keep an idle server at ~230 MiB instead of ~90 MiB (eval/results/bench-mcp.json); agents ask in
 * bursts, so after `seconds` without a request both are dropped and collected, and the next query that
 * needs them loads them again (~0.3 s for the built-in model and the encoding).
 */
/** `cg serve`'s default for --idle-release: seconds without a request before the query path's memory is given back. */
export const DEFAULT_IDLE_RELEASE_SECONDS = 300;

export class IdleRelease {
  private timer: NodeJS.Timeout | null = null;
  /** How many times the query path was released (reported by the status tool). */
  releases = 0;

  constructor(private readonly seconds: number, private readonly log: (line: string) => void = () => undefined) {}

  /** Call at the end of every request: restarts the idle clock. */
  touch(): void {
    if (!(this.seconds > 0)) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.release(), this.seconds * 1000);
    this.timer.unref(); // an idle timer never keeps the process alive
  }

  release(): void {
    this.timer = null;
    if (!tokenCounterLoaded() && sharedEmbedderCount() === 0) return;
    const before = process.memoryUsage().rss;
    releaseTokenCounter();
    releaseSharedEmbedders();
    const collected = collectGarbage();
    this.releases++;
    const mib = (n: number) => Math.round(n / 1048576);
    this.log(`cg serve: idle for ${this.seconds} s, released the token encoding and the embedding model `
      + `(RSS ${mib(before)} -> ${mib(process.memoryUsage().rss)} MiB${collected ? '' : ', no forced collection'})`);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** What the status tool reports about the server's memory. */
export function queryPathState(idle: IdleRelease | null): { rssMiB: number; tokenCounterLoaded: boolean; embeddersLoaded: number; idleReleases: number } {
  return { rssMiB: Math.round(process.memoryUsage().rss / 1048576), tokenCounterLoaded: tokenCounterLoaded(),
    embeddersLoaded: sharedEmbedderCount(), idleReleases: idle?.releases ?? 0 };
}

/**
 * A full collection now. V8 only collects when it allocates, and an idle server allocates nothing, so
 * dropped tables would otherwise stay resident until the next request. `gc` is exposed for this process
 * at run time (the same as starting Node with --expose-gc); false when that is not possible.
 */
function collectGarbage(): boolean {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    if (typeof gc !== 'function') return false;
    (gc as () => void)();
    return true;
  } catch {
    return false;
  }
}
