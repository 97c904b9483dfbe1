// A task's checkout (eval/lib/checkout.mjs) with a readable index: the one already there, or one built
// from scratch when there is none or it cannot be opened (another schema, a damaged build), or when its
// vector file cannot be (another vector format: answers would silently rank without vectors).
import fs from 'node:fs';
import path from 'node:path';
import { checkout } from './checkout.mjs';
import { buildIndex } from '../../dist/indexer/build.js';
import { currentDbPath, openReader, readMeta } from '../../dist/store/db.js';
import { VectorStore } from '../../dist/vectors/store.js';

/** The index's reader when it and its vector file open, else null. */
export function usableReader(dir) {
  let db;
  try {
    db = openReader(dir);
    const meta = readMeta(db);
    if (meta.vectors_status === 'ok' && meta.vectors_file) {
      VectorStore.open(path.join(path.dirname(currentDbPath(dir)), meta.vectors_file), { view: true });
    }
    return db;
  } catch {
    db?.close();
    return null;
  }
}

export async function indexedCheckout(task, { mirrors, cache }) {
  const dir = checkout(task, { mirrors, cache });
  const db = usableReader(dir);
  if (db) return { dir, db };
  fs.rmSync(path.join(dir, '.codegraph'), { recursive: true, force: true });
  await buildIndex(dir);
  return { dir, db: openReader(dir) };
}
