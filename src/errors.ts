import { createRequire } from 'node:module';
import path from 'node:path';

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
  | 'install'
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
  /** cg's installation is incomplete: a native module that was never built (install scripts skipped). */
  install: 1,
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

/** The native modules cg loads, and the file each one's build produces. */
const NATIVE_MODULES = [
  { pkg: 'better-sqlite3', file: 'better_sqlite3.node' },
  { pkg: 'usearch', file: 'usearch' },
];

/**
 * A native module that cannot be loaded: never built (npm --ignore-scripts and pnpm 10 skip
 * better-sqlite3's compile step), or built for another Node.js. That is an installation problem with
 * one remedy, not a damaged index and not a bug, so it gets its own error. Null for anything else.
 */
export function nativeModuleError(err: unknown, packageRoot: string): CgError | null {
  if (err instanceof CgError) return null;
  const msg = errorMessage(err);
  const code = (err as NodeJS.ErrnoException)?.code;
  const loadFailure = code === 'ERR_DLOPEN_FAILED' || /Could not locate the bindings file|No native build was found|NODE_MODULE_VERSION/.test(msg);
  if (!loadFailure) return null;
  const mod = NATIVE_MODULES.find((m) => msg.includes(m.file)) ?? NATIVE_MODULES[0];
  return new CgError('install', `cg's native module ${mod.pkg} is not built for this Node.js ${process.version}: ${msg.split('\n')[0]}`,
    `Run \`npm rebuild ${mod.pkg}\` in ${installRoot(mod.pkg, packageRoot)} (it compiles in 1-2 minutes and needs a C++ toolchain). `
    + 'Installing with install scripts disabled (npm --ignore-scripts, pnpm 10 by default) skips that step; with pnpm, '
    + '`pnpm approve-builds` allows it.');
}

/**
 * The folder whose node_modules holds the package, where `npm rebuild` finds it: cg's own folder in
 * a global install, the project's (or npx's cache entry's) where npm hoisted it.
 */
function installRoot(pkg: string, packageRoot: string): string {
  try {
    const found = createRequire(path.join(packageRoot, 'package.json')).resolve(`${pkg}/package.json`);
    const at = found.lastIndexOf(`${path.sep}node_modules${path.sep}`);
    return at > 0 ? found.slice(0, at) : packageRoot;
  } catch {
    return packageRoot;
  }
}
