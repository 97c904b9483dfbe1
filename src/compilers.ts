import v8 from 'node:v8';

/**
 * V8's optimizing compiler (TurboFan) in a process that runs one `cg update` and exits, as hooks
 * start one after every commit. TurboFan recompiles hot functions on background threads; when each
 * pass (resolution, ranks, embedding) runs once over a mid-sized repository, that compiling costs more
 * CPU than the optimized code saves: a one-file update on Django (882 files) took 630-650 ms of CPU
 * with TurboFan off from the start instead of 770-820. On Go's standard library (5,732 files, 95k
 * symbols) the passes are long enough to earn it back (3.0 s of CPU without it, 2.85 s with it), and
 * a build or an update of many files needs it all the more. So `cg update` starts with TurboFan off
 * (src/cli/main.ts) and the applier turns it back on as soon as the update proves large
 * (src/indexer/apply.ts). The grammars' WebAssembly has its own switch (baselineCompileOnly,
 * src/lang/loader.ts).
 */

/** Above this many indexed files, an update turns TurboFan back on (between the two measured repositories). */
export const OPTIMIZE_ABOVE_FILES = 2_000;

let deferred = false;

/** TurboFan off until optimizeNow(): for the start of a `cg update` process. */
export function optimizeLater(): void {
  v8.setFlagsFromString('--no-turbofan');
  deferred = true;
}

/** TurboFan back on if optimizeLater() turned it off: the work turned out large. */
export function optimizeNow(): void {
  if (!deferred) return;
  v8.setFlagsFromString('--turbofan');
  deferred = false;
}
