import v8 from 'node:v8';

/**
 * V8's optimizing compiler (TurboFan) in a process that runs one `cg update` and exits, as hooks
 * start one after every commit. TurboFan recompiles hot functions on background threads; when each
 * pass (resolution, ranks, embedding) runs once, that compiling costs more CPU than the optimized
 * code saves: a one-file update on Django took 650 ms of CPU with TurboFan off from the start instead
 * of 840, and one on Go's standard library (5,732 files, 95k symbols) 2.68 s instead of 2.70. So
 * `cg update` starts with TurboFan off (src/cli/update-main.ts), and the applier turns it back on when the
 * update proves large: a rebuild, or more files to parse than a quick start allows
 * (src/indexer/apply.ts); large work keeps V8's defaults, as builds do (not measured without TurboFan).
 * The grammars' WebAssembly has its own switch (baselineCompileOnly, src/lang/loader.ts).
 */

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
