import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CG_DIR } from '../paths.js';
import { CgError, errorMessage } from '../errors.js';
import type { Scope } from './clients.js';

/**
 * What `cg install` changed, so that `cg uninstall` can put back exactly what was there: per file, its
 * bytes before cg first touched it (or that it did not exist, and which folders cg made for it), and a
 * hash of what cg last wrote. Project installs are recorded in the repository's `.codegraph/` (local,
 * git-ignored); user installs in the user's state folder. Nothing here goes into a client's file.
 */
export interface InstallRecord {
  file: string;
  client: string;
  /** The file existed before cg's first install. */
  existed: boolean;
  /** Its bytes then, base64 (absent when it did not exist). */
  original?: string;
  /** sha256 of the bytes cg last wrote: if the file still has them, uninstall restores `original` exactly. */
  written: string;
  /** Folders cg created for the file, deepest first (removed again when empty). */
  createdDirs: string[];
  /** What each key cg owns held before (JSON-encoded; absent: nothing), for a file edited since. */
  previous: Record<string, string | undefined>;
}

export function sha256(bytes: Buffer | string): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

export function recordsPath(scope: Scope, root: string): string {
  if (scope === 'project') return path.join(root, CG_DIR, 'installs.json');
  const state = process.env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(state, 'codegrapher', 'installs.json');
}

export function loadRecords(file: string): Record<string, InstallRecord> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CgError('io', `Cannot read ${file}: ${errorMessage(err)}`, 'Check its permissions.');
  }
  try {
    return JSON.parse(text) as Record<string, InstallRecord>;
  } catch {
    throw new CgError('io', `${file} is damaged (not JSON)`,
      'Move it away: cg install still works, and cg uninstall then removes cg\'s entries without restoring earlier bytes.');
  }
}

export function saveRecords(file: string, records: Record<string, InstallRecord>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (path.basename(path.dirname(file)) === CG_DIR) {
    // The repository's .codegraph/ keeps itself out of git (as cg init makes it).
    const ignore = path.join(path.dirname(file), '.gitignore');
    if (!fs.existsSync(ignore)) fs.writeFileSync(ignore, '# Written by cg: the index is local state, not source.\n*\n');
  }
  if (!Object.keys(records).length) {
    fs.rmSync(file, { force: true });
    // A .codegraph/ that only this record made (nothing but its .gitignore) goes with it.
    const dir = path.dirname(file);
    if (path.basename(dir) === CG_DIR && fs.readdirSync(dir).join() === '.gitignore') fs.rmSync(dir, { recursive: true });
    return;
  }
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(records, null, 2)}\n`);
  fs.renameSync(tmp, file);
}
