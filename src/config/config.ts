import fs from 'node:fs';
import path from 'node:path';
import { CgError, errorMessage } from '../errors.js';

/** The directory, under the repository root, that holds everything cg writes. */
export const CG_DIR = '.codegraph';
export const CONFIG_FILE = 'config.json';

export interface Config {
  /** Files larger than this are skipped (counted as `too_large`). */
  maxFileBytes: number;
  /** Extra exclusions in .gitignore syntax, on top of .gitignore and .cgignore. */
  exclude: string[];
  /** Directory names never descended into: dependencies, build output, virtual environments. */
  vendorDirs: string[];
  /** Worker threads for a full build; 0 means one per available core. */
  workers: number;
  hooks: {
    /** Git hooks and `cg notify` start the applier in the background after recording a change. */
    autoApply: boolean;
  };
  secrets: {
    /** Scan files for credentials before anything derived from them is stored. */
    enabled: boolean;
    /** Repo-relative path of the allowlist that accepts reported false positives. */
    allowlistFile: string;
  };
}

export const DEFAULT_CONFIG: Config = {
  maxFileBytes: 1_000_000,
  exclude: [],
  vendorDirs: [
    'node_modules', 'bower_components', 'jspm_packages', 'vendor', 'third_party', 'third-party',
    'Pods', 'Carthage', '.build', 'target', 'dist', 'build', 'out', 'coverage',
    '__pycache__', '.venv', 'venv', '.tox', '.nox', '.mypy_cache', '.pytest_cache', 'site-packages',
    '.next', '.nuxt', '.svelte-kit', '.gradle', '.idea', '.vscode', '.cache',
  ],
  workers: 0,
  hooks: { autoApply: true },
  secrets: { enabled: true, allowlistFile: '.cgsecrets' },
};

export function configPath(root: string): string {
  return path.join(root, CG_DIR, CONFIG_FILE);
}

/**
 * Reads `.codegraph/config.json` over the defaults. A missing file means defaults; a broken one is
 * an error rather than a silent fallback, because the user wrote it expecting it to take effect.
 */
export function loadConfig(root: string): Config {
  const file = configPath(root);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(DEFAULT_CONFIG);
    throw new CgError('io', `Cannot read ${file}: ${errorMessage(err)}`, 'Check the file permissions.');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CgError('usage', `${file} is not valid JSON: ${errorMessage(err)}`,
      `Fix the file, or delete it to return to the defaults.`);
  }
  return mergeConfig(raw, file);
}

function mergeConfig(raw: unknown, file: string): Config {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new CgError('usage', `${file} must hold a JSON object`, 'See README.md, "Configuration".');
  }
  const r = raw as Record<string, unknown>;
  const cfg = structuredClone(DEFAULT_CONFIG);
  const bad = (key: string, want: string) =>
    new CgError('usage', `${file}: "${key}" must be ${want}`, 'See README.md, "Configuration".');
  if (r.maxFileBytes !== undefined) {
    if (typeof r.maxFileBytes !== 'number' || !(r.maxFileBytes > 0)) throw bad('maxFileBytes', 'a positive number');
    cfg.maxFileBytes = r.maxFileBytes;
  }
  for (const key of ['exclude', 'vendorDirs'] as const) {
    const v = r[key];
    if (v === undefined) continue;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw bad(key, 'an array of strings');
    cfg[key] = v as string[];
  }
  if (r.workers !== undefined) {
    if (typeof r.workers !== 'number' || !Number.isInteger(r.workers) || r.workers < 0) {
      throw bad('workers', 'a non-negative integer (0 = one per core)');
    }
    cfg.workers = r.workers;
  }
  if (r.hooks !== undefined) {
    const h = r.hooks as Record<string, unknown>;
    if (typeof h !== 'object' || h === null) throw bad('hooks', 'an object');
    if (h.autoApply !== undefined) {
      if (typeof h.autoApply !== 'boolean') throw bad('hooks.autoApply', 'true or false');
      cfg.hooks.autoApply = h.autoApply;
    }
  }
  if (r.secrets !== undefined) {
    const s = r.secrets as Record<string, unknown>;
    if (typeof s !== 'object' || s === null) throw bad('secrets', 'an object');
    if (s.enabled !== undefined) {
      if (typeof s.enabled !== 'boolean') throw bad('secrets.enabled', 'true or false');
      cfg.secrets.enabled = s.enabled;
    }
    if (s.allowlistFile !== undefined) {
      if (typeof s.allowlistFile !== 'string' || !s.allowlistFile) throw bad('secrets.allowlistFile', 'a path');
      cfg.secrets.allowlistFile = s.allowlistFile;
    }
  }
  return cfg;
}
