import type Database from 'better-sqlite3';
import { traverse, type Hop } from '../graph/traverse.js';
import { edgesFrom, edgesTo, symbolById } from '../store/queries.js';
import { enclosingFunctions } from './nesting.js';
import type { Region } from './regions.js';

/** How much a neighbour's score keeps per hop: related code matters, but less than what matched. */
const HOP_DECAY = 0.5;

/**
 * Code one to three hops from the seed regions along calls (both ways), and the tests that exercise
 * them: what an agent changing the seeds needs next to them. Each gets the seed's score, decayed per
 * hop and by the edges' confidence, and a rationale naming the relation. A closure that calls or is
 * called comes as the function it lives in (src/retrieve/nesting.ts).
 */
export function expandRegions(db: Database.Database, seeds: Region[], depth: number, taken: Set<number>): Region[] {
  if (depth <= 0) return [];
  const out = new Map<number, Region>();
  const add = (reached: number, score: number, rationale: string, wholeFile = false) => {
    const id = enclosingFunctions(db, [reached]).get(reached) ?? reached;
    if (taken.has(id)) return;
    const prev = out.get(id);
    if (prev && prev.score >= score) return;
    const s = symbolById(db, id);
    if (!s || (s.kind === 'module' && !wholeFile)) return;
    // A module-level test suite (describe/it at the top of a test file) is shown from the file's head.
    const end = s.kind === 'module' ? Math.min(s.endLine, 40) : s.endLine;
    out.set(id, { fileId: -1, path: s.file, symbol: s.kind === 'module' ? null : s, startLine: s.startLine, endLine: end, rationale, score,
      sources: ['graph'] });
  };
  const hop = (kinds: string[], reverse: boolean) => (id: number): Hop[] =>
    (reverse ? edgesTo(db, id, kinds).map((e) => ({ id: e.src, line: e.line, confidence: e.confidence }))
      : edgesFrom(db, id, kinds).filter((e) => e.dst !== null).map((e) => ({ id: e.dst!, line: e.line, confidence: e.confidence })));
  for (const seed of seeds) {
    if (!seed.symbol) continue;
    const name = seed.symbol.qualifiedName;
    for (const r of traverse(seed.symbol.id, hop(['calls'], false), depth, 50)) {
      add(r.id, seed.score * r.confidence * HOP_DECAY ** r.depth, r.depth === 1 ? `called by ${name}` : `reached from ${name} (${r.depth} calls away)`);
    }
    for (const r of traverse(seed.symbol.id, hop(['calls'], true), depth, 50)) {
      add(r.id, seed.score * r.confidence * HOP_DECAY ** r.depth, r.depth === 1 ? `calls ${name}` : `reaches ${name} (${r.depth} calls away)`);
    }
    for (const e of edgesTo(db, seed.symbol.id, ['tests'])) add(e.src, seed.score * e.confidence * HOP_DECAY, `test of ${name}`, true);
  }
  return [...out.values()];
}
