import { CgError, errorMessage, nativeModuleError, type ErrorCode } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';

/**
 * The error codes an agent sees (PRD §6/§9), each with a fallback it can take at once. They are
 * returned as tool results with isError set, never as crashes: the agent reads them and moves on.
 * Every tool answers them in the PRD §6 error shape (errorBody).
 */
export type ToolErrorCode =
  | 'index_unavailable'
  | 'indexing'
  | 'index_stale'
  | 'index_corrupt'
  | 'empty_results'
  | 'invalid_input'
  | 'not_found'
  | 'ambiguous'
  | 'internal';

export interface ToolError {
  code: ToolErrorCode;
  message: string;
  /** What to do now, usually the plain-tool fallback (grep, read_file) and how to repair the index. */
  suggestion: string;
  details?: unknown;
}

const CODES: Record<ErrorCode, ToolErrorCode> = {
  usage: 'invalid_input',
  not_found: 'not_found',
  ambiguous: 'ambiguous',
  index_missing: 'index_unavailable',
  index_incompatible: 'index_unavailable',
  index_busy: 'index_unavailable',
  model_unavailable: 'index_unavailable',
  index_corrupt: 'index_corrupt',
  // A snapshot refused while recovering a broken index: the index is still unusable.
  snapshot_invalid: 'index_unavailable',
  io: 'internal',
  install: 'index_unavailable',
  internal: 'internal',
};

const FALLBACK: Record<ToolErrorCode, string> = {
  index_unavailable: 'Use grep and read_file for now; the index answers again once it is built (`cg index` in the repository, no server restart needed).',
  indexing: 'Use grep and read_file for now and ask again in a little while: the server answers as soon as the index is ready.',
  index_stale: 'Use read_file for the current content; `cg update` brings the index up to date.',
  index_corrupt: 'Use grep and read_file for now; `cg index --full` rebuilds the index (no server restart needed).',
  empty_results: 'Try other words (names of functions, classes or files), or grep for a literal string.',
  invalid_input: "Fix the arguments as the message says; the tool's input schema lists every field and its limits.",
  not_found: 'Find the exact name with search_symbols, or grep for it.',
  ambiguous: 'Pick one of the candidates in details and pass its qualified name or file:name.',
  internal: 'This is a bug in cg; use grep and read_file meanwhile.',
};

export function toolError(err: unknown): ToolError {
  err = nativeModuleError(err, PACKAGE_ROOT) ?? err;
  if (err instanceof CgError) {
    const code = CODES[err.code];
    const suggestion = [err.hint, FALLBACK[code]].filter(Boolean).join(' ');
    return { code, message: err.message, suggestion, ...(err.details !== undefined ? { details: err.details } : {}) };
  }
  return { code: 'internal', message: `Unexpected failure: ${errorMessage(err)}`, suggestion: FALLBACK.internal };
}

export function makeError(code: ToolErrorCode, message: string, hint?: string, details?: unknown): ToolError {
  return { code, message, suggestion: [hint, FALLBACK[code]].filter(Boolean).join(' '), ...(details !== undefined ? { details } : {}) };
}

/** PRD §6's error response: {status: "error", error_type, message, fallback_suggestion, partial_results}. */
export function errorBody(e: ToolError, partial: unknown[] = []): Record<string, unknown> {
  return { status: 'error', error_type: e.code, message: e.message, fallback_suggestion: e.suggestion, partial_results: partial,
    ...(e.details !== undefined ? { details: e.details } : {}) };
}
