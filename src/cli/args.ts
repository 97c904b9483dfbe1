import path from 'node:path';
import type { Command } from 'commander';
import { CgError } from '../errors.js';
import { SYMBOL_KINDS, type SymbolKind } from '../lang/types.js';
import { findRoot } from '../repo/root.js';

export interface RepoOptions {
  repo?: string;
}

/**
 * The one way to choose the repository, on every command: `--repo DIR` (default: the repository
 * containing the current directory). Commands that always took a `[path]` argument (index, status,
 * update, …) still take it, as the same thing spelled the old way.
 */
export function repoOption(cmd: Command): Command {
  return cmd.option(REPO_FLAG, REPO_HELP);
}

export const REPO_FLAG = '--repo <dir>';
export const REPO_HELP = 'the repository (default: the one containing the current directory)';
/** The description of the older [path] argument. */
export const PATH_HELP = 'the repository, as --repo';

/** The repository root `--repo` (or the older [path] argument) names. */
export function repoRoot(opts: RepoOptions, positional?: string): string {
  if (opts.repo && positional && path.resolve(opts.repo) !== path.resolve(positional)) {
    throw usageError(`Two repositories given: --repo ${opts.repo} and ${positional}`, 'Give the repository once, with --repo.');
  }
  return findRoot(opts.repo ?? positional ?? process.cwd());
}

/** The `Examples:` block of a command's help. */
export function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;
}

export function usageError(message: string, hint: string): CgError {
  return new CgError('usage', message, hint);
}

export function parseIntInRange(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\s*-?\d+\s*$/.test(value) || n < min || n > max) {
    throw usageError(`${flag} must be a whole number from ${min} to ${max}, not "${value}"`, `For example: ${flag} ${min === max ? min : Math.min(max, Math.max(min, 3))}`);
  }
  return n;
}

export function parseKind(value: string): SymbolKind {
  const k = value.toLowerCase();
  if (!(SYMBOL_KINDS as readonly string[]).includes(k)) {
    throw usageError(`Unknown symbol kind "${value}"`, `Use one of: ${SYMBOL_KINDS.join(', ')}.`);
  }
  return k as SymbolKind;
}
