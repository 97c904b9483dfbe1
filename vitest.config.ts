import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Tests spawn real cg processes and build real indexes; a loaded 2-core CI machine needs room.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
