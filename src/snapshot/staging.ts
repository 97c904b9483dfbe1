import fs from 'node:fs';
import path from 'node:path';
import { processAlive } from '../processes.js';

/**
 * Temporary folders for snapshot work, named `cg-snapshot-<pid>-XXXXXX` so that one left behind by a
 * killed process (a create or restore interrupted with kill -9) can be told from one in use, and
 * removed by the next snapshot command.
 */
const PREFIX = 'cg-snapshot-';

export function makeStaging(parent: string): string {
  fs.mkdirSync(parent, { recursive: true });
  removeAbandoned(parent);
  return fs.mkdtempSync(path.join(parent, `${PREFIX}${process.pid}-`));
}

function removeAbandoned(parent: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^cg-snapshot-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || processAlive(pid)) continue;
    fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}
