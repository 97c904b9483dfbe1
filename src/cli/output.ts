import { CgError, errorMessage, nativeModuleError } from '../errors.js';
import { groupDigits } from '../words.js';
import { PACKAGE_ROOT } from '../paths.js';
import { maxOf } from '../arrays.js';

export interface OutputOptions {
  json?: boolean;
}

/** Prints a command's result: the object itself with --json, else the text rendering. */
export function emit<T>(opts: OutputOptions, result: T, text: (r: T) => string): void {
  if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else process.stdout.write(text(result).replace(/\n?$/, '\n'));
}

/**
 * Reports a failure and sets the exit code. With --json the error is a JSON object on stdout, so a
 * caller parsing stdout always gets JSON; otherwise it is two lines on stderr: what, and what to do.
 */
export function reportError(err: unknown, json: boolean): number {
  const e = err instanceof CgError
    ? err
    : nativeModuleError(err, PACKAGE_ROOT) ?? new CgError('internal', `Unexpected failure: ${errorMessage(err)}`,
      'This is a bug in cg. Please report it with the command you ran and this message.',
      process.env.CG_DEBUG ? (err as Error)?.stack : undefined);
  if (json) process.stdout.write(`${JSON.stringify({ error: e.toJSON() }, null, 2)}\n`);
  else {
    process.stderr.write(`cg: ${e.message}\n`);
    if (e.hint) process.stderr.write(`hint: ${e.hint}\n`);
    if (process.env.CG_DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  }
  return e.exitCode;
}

export { groupDigits, plural } from '../words.js';

export function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, v]) => `${k} ${groupDigits(v)}`)
    .join(', ');
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function formatAge(seconds: number): string {
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)}h ago`;
  return `${Math.round(seconds / 86400)}d ago`;
}

/** Left-aligned columns, for lists of symbols. */
export function table(rows: string[][]): string {
  if (!rows.length) return '';
  const widths = rows[0].map((_, i) => Math.min(60, maxOf(rows.map((r) => (r[i] ?? '').length))));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd()).join('\n');
}
