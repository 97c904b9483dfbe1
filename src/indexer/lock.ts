import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CgError } from '../errors.js';
import { cgDir } from '../store/db.js';

export interface WriterLock {
  release(): void;
}

/**
 * One writer at a time per repository. The lock file names its owner; a lock whose process is gone
 * (killed, crashed) is taken over rather than blocking the repository forever.
 */
export function acquireWriterLock(root: string): WriterLock {
  const file = path.join(cgDir(root), 'writer.lock');
  return acquirePidLock(file, (pid) => new CgError('index_busy', `Another cg process (pid ${pid}) is writing the index of ${root}`,
    `Wait for it to finish. If no cg process is running, delete ${file}.`));
}

/** A lock file naming its owner process; one left by a dead process is taken over. `busy` explains a live owner. */
export function acquirePidLock(file: string, busy: (pid: number) => CgError): WriterLock {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() }));
      fs.closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          fs.rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readOwner(file);
      if (owner && owner.host === os.hostname() && isAlive(owner.pid)) throw busy(owner.pid);
      fs.rmSync(file, { force: true }); // stale: its owner is gone
    }
  }
  throw new CgError('index_busy', `Could not take the writer lock ${file}`, 'Another cg process started at the same moment; try again.');
}

function readOwner(file: string): { pid: number; host: string } | null {
  try {
    const o = JSON.parse(fs.readFileSync(file, 'utf8'));
    return typeof o.pid === 'number' ? o : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
