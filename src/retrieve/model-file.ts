import fs from 'node:fs';
import { errorMessage } from '../errors.js';

/** A model file shipped with cg (train/model/), checked; or why it cannot be used. */
export type ModelFile<T> = { ok: true; model: T } | { ok: false; missing: boolean; error: string };

const loaded = new Map<string, { mtimeMs: number; size: number; result: ModelFile<unknown> }>();

/** The JSON model at `file` checked by `parse`, read once per process (again when the file changes). */
export function readModelFile<T>(file: string, parse: (raw: unknown) => T): ModelFile<T> {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (err) {
    return { ok: false, missing: true, error: errorMessage(err) };
  }
  const hit = loaded.get(file);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.result as ModelFile<T>;
  let result: ModelFile<T>;
  try {
    result = { ok: true, model: parse(JSON.parse(fs.readFileSync(file, 'utf8'))) };
  } catch (err) {
    result = { ok: false, missing: false, error: errorMessage(err) };
  }
  loaded.set(file, { mtimeMs: st.mtimeMs, size: st.size, result });
  return result;
}
