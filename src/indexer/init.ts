import fs from 'node:fs';
import path from 'node:path';
import { CG_DIR, CONFIG_FILE, DEFAULT_CONFIG } from '../config/config.js';

export interface InitResult {
  root: string;
  dir: string;
  created: boolean;
}

/**
 * Creates `.codegraph/` with a default config and a `.gitignore` that keeps the whole folder out of
 * git, so that cg never needs to edit the user's own ignore files. Safe to call repeatedly.
 */
export function ensureInitialized(root: string): InitResult {
  const dir = path.join(root, CG_DIR);
  const created = !fs.existsSync(dir);
  fs.mkdirSync(dir, { recursive: true });
  const ignoreFile = path.join(dir, '.gitignore');
  if (!fs.existsSync(ignoreFile)) fs.writeFileSync(ignoreFile, '# Written by cg: the index is local state, not source.\n*\n');
  const configFile = path.join(dir, CONFIG_FILE);
  if (!fs.existsSync(configFile)) fs.writeFileSync(configFile, `${JSON.stringify(DEFAULT_CONFIG, null, 2)}\n`);
  return { root, dir, created };
}
