import type Database from 'better-sqlite3';
import { edgesWithTarget, type EdgeInfo } from '../store/queries.js';

/**
 * Calls that go through a name rather than a reference: code fires a hook or event (`do_action('init')`,
 * `emitter.emit('data')`) and the framework runs every callback registered under that name
 * (`add_action('init', 'on_init')`). The index keeps both sides as edges with the same target
 * (`fires` and `registers`, `kind:name`); these join them when the graph is read, so that the
 * firing code counts as a caller of the callbacks, and the callbacks as its callees.
 */

/**
 * A firing site reaches a callback less surely than a direct call. A hook (WordPress's actions and
 * filters) is one registry per program: its name is the link. An event is emitted on one object and
 * listened to on another, which the index does not tell apart: `emit('data')` meets every `on('data')`.
 */
export const FIRE_WEIGHT = 0.9;
export const EVENT_FIRE_WEIGHT = 0.5;

function weightOf(target: string): number {
  return target.startsWith('event:') ? EVENT_FIRE_WEIGHT : FIRE_WEIGHT;
}

export interface NamedCall {
  /** The other end: the firing symbol (firedThrough) or the callback (firesThrough). */
  id: number;
  line: number | null;
  confidence: number;
  /** The `kind:name` both sides share. */
  target: string;
}

/** The symbols that fire a name under which a callback is registered, from its `registers` edges (in edgesTo's order). */
export function firedThrough(db: Database.Database, registrations: EdgeInfo[]): NamedCall[] {
  const out: NamedCall[] = [];
  for (const reg of registrations) {
    if (!reg.target) continue;
    for (const f of edgesWithTarget(db, 'fires', reg.target)) {
      out.push({ id: f.src, line: f.line, confidence: reg.confidence * f.confidence * weightOf(reg.target), target: reg.target });
    }
  }
  return out;
}

/** The callbacks registered under the names a symbol fires, from its `fires` edges (in edgesFrom's order). */
export function firesThrough(db: Database.Database, firings: EdgeInfo[]): NamedCall[] {
  const out: NamedCall[] = [];
  for (const f of firings) {
    if (!f.target) continue;
    for (const reg of edgesWithTarget(db, 'registers', f.target)) {
      if (reg.dst !== null) out.push({ id: reg.dst, line: f.line, confidence: reg.confidence * f.confidence * weightOf(f.target), target: f.target });
    }
  }
  return out;
}
