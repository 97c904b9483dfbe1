import fs from 'node:fs';
import path from 'node:path';
import { CG_DIR } from '../paths.js';

export interface InitResult {
  root: string;
  dir: string;
  created: boolean;
}

/**
 * Creates `.codegraph/` with a `.gitignore` that keeps the whole folder out of git, so that cg never
 * needs to edit the user's own ignore files. No configuration is written: the defaults apply until a
 * team writes what it wants different into cg.config.json. Safe to call repeatedly.
 */
export function ensureInitialized(root: string): InitResult {
  const dir = path.join(root, CG_DIR);
  const created = !fs.existsSync(dir);
  fs.mkdirSync(dir, { recursive: true });
  const ignoreFile = path.join(dir, '.gitignore');
  if (!fs.existsSync(ignoreFile)) fs.writeFileSync(ignoreFile, '# Written by cg: the index is local state, not source.\n*\n');
  return { root, dir, created };
}
