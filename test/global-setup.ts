import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One scratch directory for the whole run: test workers create their repositories under it (see
 * tempDir in helpers.ts), and it is removed when the run ends, whatever happened to the workers.
 */
export default function setup(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-tests-'));
  process.env.CG_TEST_TMP = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
