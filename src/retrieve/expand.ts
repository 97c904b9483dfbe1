import type Database from 'better-sqlite3';
import { traverse } from '../graph/traverse.js';
import { edgeHops } from '../graph/refs.js';
import { edgesFrom, edgesTo, symbolById } from '../store/queries.js';
import { enclosingFunctions } from './nesting.js';
import type { Region } from './regions.js';

/** How much a neighbour's score keeps per hop: related code matters, but less than what matched. */
const HOP_DECAY = 0.5;
/** A model a function only reads matters less to a change than one it writes. */
const READ_WEIGHT = 0.5;
/** Rationales, from the neighbour's side: `handler of GET /users`, `overridden by Admin.name`. */
const ACTIVE: Record<string, string> = { registers: 'registered by', overrides: 'overridden by', writes: 'written by', reads: 'read by' };
const PASSIVE: Record<string, string> = { registers: 'registers', overrides: 'overrides' };

/**
 * Code one to three hops from the seed regions along calls (both ways), and the tests that exercise
 * them; one hop to the endpoints and registrations of a handler (and a route's handler), to overridden
 * and overriding methods, and to the models a function writes or reads: what an agent changing the
 * seeds needs next to them. Each gets the seed's score, decayed per hop and by the edges' confidence,
 * and a rationale naming the relation. A closure that calls or is called comes as the function it
 * lives in (src/retrieve/nesting.ts).
 */
export function expandRegions(db: Database.Database, seeds: Region[], depth: number, taken: Set<number>): Region[] {
  if (depth <= 0) return [];
  const out = new Map<number, Region>();
  const add = (reached: number, score: number, rationale: string, relationConfidence: number, wholeFile = false) => {
    const id = enclosingFunctions(db, [reached]).get(reached) ?? reached;
    if (taken.has(id)) return;
    const prev = out.get(id);
    if (prev && prev.score >= score) return;
    const s = symbolById(db, id);
    if (!s || (s.kind === 'module' && !wholeFile)) return;
    // A module-level test suite (describe/it at the top of a test file) is shown from the file's head.
    const end = s.kind === 'module' ? Math.min(s.endLine, 40) : s.endLine;
    out.set(id, { fileId: -1, path: s.file, symbol: s.kind === 'module' ? null : s, startLine: s.startLine, endLine: end, rationale, score,
      relationConfidence, sources: ['graph'] });
  };
  for (const seed of seeds) {
    if (!seed.symbol) continue;
    const name = seed.symbol.qualifiedName;
    for (const r of traverse(seed.symbol.id, edgeHops(db, ['calls'], false), depth, 50)) {
      add(r.id, seed.score * r.confidence * HOP_DECAY ** r.depth, r.depth === 1 ? `called by ${name}` : `reached from ${name} (${r.depth} calls away)`,
        r.confidence);
    }
    for (const r of traverse(seed.symbol.id, edgeHops(db, ['calls'], true), depth, 50)) {
      add(r.id, seed.score * r.confidence * HOP_DECAY ** r.depth, r.depth === 1 ? `calls ${name}` : `reaches ${name} (${r.depth} calls away)`,
        r.confidence);
    }
    for (const e of edgesTo(db, seed.symbol.id, ['tests'])) add(e.src, seed.score * e.confidence * HOP_DECAY, `test of ${name}`, e.confidence, true);
    // One step along the relations that pair code with the code it stands for: an endpoint and its
    // handler, a method and the one it overrides, a function and the model it reads or writes.
    for (const e of edgesFrom(db, seed.symbol.id, ['registers', 'overrides', 'writes', 'reads'])) {
      if (e.dst === null) continue;
      const w = e.kind === 'reads' ? READ_WEIGHT : 1;
      add(e.dst, seed.score * e.confidence * HOP_DECAY * w, `${ACTIVE[e.kind]} ${name}${e.target ? ` (${e.target})` : ''}`, e.confidence);
    }
    for (const e of edgesTo(db, seed.symbol.id, ['registers', 'overrides'])) {
      add(e.src, seed.score * e.confidence * HOP_DECAY, `${PASSIVE[e.kind]} ${name}${e.target ? ` (${e.target})` : ''}`, e.confidence);
    }
  }
  return [...out.values()];
}
