import { createRequire } from 'node:module';

/**
 * jsonc-parser, loaded on first use: a hook's one-shot update that reads no configuration file with
 * comments never pays its load (15-30 ms with zod, measured when config.ts began to load both lazily).
 */
export function jsoncParser(): typeof import('jsonc-parser') {
  return createRequire(import.meta.url)('jsonc-parser') as typeof import('jsonc-parser');
}
