/**
 * Every user-facing failure is a CgError: what happened, why, and what to do.
 * The CLI prints `message` and `hint`; `--json` prints the whole object; the exit code tells scripts
 * which class of failure it was without parsing text.
 */
export type ErrorCode =
  | 'usage'
  | 'not_found'
  | 'ambiguous'
  | 'index_missing'
  | 'index_incompatible'
  | 'index_corrupt'
  | 'index_busy'
  | 'model_unavailable'
  | 'snapshot_invalid'
  | 'io'
  | 'internal';

export const EXIT_CODES: Record<ErrorCode, number> = {
  usage: 2,
  not_found: 4,
  ambiguous: 4,
  index_missing: 3,
  index_incompatible: 3,
  index_corrupt: 3,
  index_busy: 6,
  /** An embedding model that is not on this machine and cannot be fetched now (offline, or not built). */
  model_unavailable: 5,
  /** A snapshot that cg refuses to restore: damaged, unsafe, of a newer format or of another repository. */
  snapshot_invalid: 7,
  io: 1,
  internal: 1,
};

export class CgError extends Error {
  readonly code: ErrorCode;
  readonly hint?: string;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, hint?: string, details?: unknown) {
    super(message);
    this.code = code;
    this.hint = hint;
    this.details = details;
  }

  get exitCode(): number {
    return EXIT_CODES[this.code];
  }

  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { code: this.code, message: this.message };
    if (this.hint) out.hint = this.hint;
    if (this.details !== undefined) out.details = this.details;
    return out;
  }
}

/** The message of any thrown value, for places that must report and carry on. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
