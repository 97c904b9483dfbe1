import { z } from 'zod';
import { MAX_BUDGET, MAX_QUERY_CHARS, MIN_BUDGET } from '../../retrieve/query.js';
import { loadConfig } from '../../config/config.js';
import { resolveInRepo } from '../../repo/root.js';
import type { Snapshot } from '../../store/live.js';

/**
 * Argument schemas the tools share. Every string and array is bounded, so no input is unbounded; the
 * descriptions are what an agent reads to fill them in.
 */
export const MAX_PATH = 1024;
export const MAX_NAME = 512;
export const MAX_DIFF = 2_000_000;
export const MAX_SIGNALS = 200_000;

export const repoPathArg = (what: string) => z.string().min(1).max(MAX_PATH)
  .describe(`${what}, relative to the repository root (absolute paths inside the repository are accepted; paths outside it are refused)`);

/** A token budget that counts the whole answer the agent receives (wrapper and freshness included). */
export const budgetArg = (def: number, max = MAX_BUDGET) => z.number().int().min(MIN_BUDGET).max(max).default(def)
  .describe(`token budget for the whole answer, cl100k_base tokens (${MIN_BUDGET}-${max}, default ${def}); what did not fit is counted in omitted`);

export const queryArg = (what = 'the task in plain words: a bug report, a feature request, a commit message') =>
  z.string().min(1).max(MAX_QUERY_CHARS).describe(what);

export const nameArg = (what: string) => z.string().min(1).max(MAX_NAME).describe(what);

export const globArg = (what: string) => z.string().min(1).max(MAX_NAME).describe(what);

export const signalsArg = z.string().max(MAX_SIGNALS).optional()
  .describe('optional stack trace, failing-test output or log text: the places it names rank first');

/** A repository path an agent gave, checked to be inside the repository. */
export function repoPath(snap: Snapshot, p: string): string {
  return resolveInRepo(snap.root, p);
}

/** The repository's threshold for low-confidence warnings (config `warnings.lowConfidence`, default 0.7). */
export function lowConfidence(snap: Snapshot): number {
  return loadConfig(snap.root).warnings.lowConfidence;
}
