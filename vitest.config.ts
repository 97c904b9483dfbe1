import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Tests spawn real cg processes and build real indexes; a loaded 2-core CI machine needs room.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest runs one file at a time on 2 cores (cores - 1). Most test time is a test process waiting
    // for a cg, git or hook process it started, which leaves the second core idle: two files at once
    // keep both busy.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Stopping a worker took longer than vitest's 10 s on a machine loaded to 15-20 processes per core
    // ("Timeout terminating forks worker", a different file each run); every file exits promptly when
    // run alone and the hanging-process reporter found no open handle. Give a slow stop the time.
    teardownTimeout: 60_000,
  },
});
