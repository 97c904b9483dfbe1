import { loadConfig } from '../config/config.js';
import { openReader } from '../store/db.js';
import { tokenCounter } from '../retrieve/tokens.js';
import { vectorMatches } from '../retrieve/vectors.js';

/**
 * Loads what the first query would otherwise load: the tokenizer tables, and the embedding model and
 * the generation's vector file through the same cache queries use (src/retrieve/vectors.ts), on a
 * handle of its own so the server's request queue is not held.
 */
export async function warmQueryPath(root: string): Promise<void> {
  await tokenCounter();
  let db;
  try {
    db = openReader(root);
  } catch {
    return; // no index yet: the first query after `cg index` pays for the model instead
  }
  try {
    await vectorMatches(db, loadConfig(root), 'warm up', 1);
  } finally {
    db.close();
  }
}
