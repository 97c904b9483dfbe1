import { spawn } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '../config/config.js';
import { appendRecord, type ChangeRecord } from '../changes/log.js';
import { PACKAGE_ROOT } from '../paths.js';
import { liveWarmApplier } from './warm-applier.js';

/** Records saved paths (`cg notify`, `cg watch`) in the change log. */
export function recordSaves(root: string, paths: string[]): void {
  const record: ChangeRecord = { v: 1, event: 'save', paths, at: Math.floor(Date.now() / 1000) };
  appendRecord(root, record);
}

/**
 * Starts `cg update --background` detached, as the git hooks do, unless the user turned it off or a
 * warm applier (`cg serve`, `cg watch`, `cg agent`) is there to apply the record (src/indexer/warm-applier.ts).
 */
export function startBackgroundApplier(root: string): 'started' | 'off' | 'warm' {
  if (!loadConfig(root).hooks.autoApply) return 'off';
  if (liveWarmApplier(root)) return 'warm';
  const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'cg.js'), 'update', '--background'], {
    cwd: root, detached: true, stdio: 'ignore',
  });
  child.unref();
  return 'started';
}

