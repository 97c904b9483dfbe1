// A task's checkout (eval/lib/checkout.mjs) with a readable index: the one already there, or one built
// from scratch when there is none or it cannot be opened (another schema, a damaged build).
import fs from 'node:fs';
import path from 'node:path';
import { checkout } from './checkout.mjs';
import { buildIndex } from '../../dist/indexer/build.js';
import { openReader } from '../../dist/store/db.js';

export async function indexedCheckout(task, { mirrors, cache }) {
  const dir = checkout(task, { mirrors, cache });
  try {
    return { dir, db: openReader(dir) };
  } catch {
    fs.rmSync(path.join(dir, '.codegraph'), { recursive: true, force: true });
    await buildIndex(dir);
    return { dir, db: openReader(dir) };
  }
}
