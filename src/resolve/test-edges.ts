import type { EdgeRow } from '../store/writer.js';
import type { ResolveContext } from './context.js';
import { appendAll } from '../arrays.js';

/**
 * Test code -> the code it exercises: every call from a test file or a test symbol (Rust's unit tests
 * sit beside the code) into non-test code, attributed to the test function (or the test file's module
 * for module-level suites), and every import of a non-test file by a test file, at lower confidence.
 */
export function addTestEdges(cx: ResolveContext): void {
  const best = new Map<string, EdgeRow>();
  const add = (src: number, dst: number, conf: number, line: number | null, fileId: number) => {
    const key = `${src}:${dst}`;
    const prev = best.get(key);
    if (!prev || prev.confidence < conf) best.set(key, { src, dst, kind: 'tests', confidence: conf, line, fileId, target: null });
  };
  for (const e of cx.edges) {
    if (e.dst === null || (e.kind !== 'calls' && e.kind !== 'imports')) continue;
    const from = cx.files.get(e.fileId)!;
    const target = cx.symbols.get(e.dst)!;
    if (cx.files.get(target.fileId)!.isTest || testSymbolAround(cx, target.id) !== null) continue;
    if (e.kind === 'calls') {
      const test = testSymbolAround(cx, e.src);
      if (!from.isTest && test === null) continue;
      add(test ?? cx.moduleOf.get(from.id)!, e.dst, Math.round(e.confidence * 0.9 * 1000) / 1000, e.line, e.fileId);
    } else if (from.isTest) {
      add(e.src, cx.moduleOf.get(target.fileId)!, 0.6, e.line, e.fileId);
    }
  }
  appendAll(cx.edges, best.values());
}

/** The innermost test symbol (a test function, a test module) a symbol sits in, or null. */
export function testSymbolAround(cx: ResolveContext, symbolId: number): number | null {
  for (let s = cx.symbols.get(symbolId); s; s = s.parentId === null ? undefined : cx.symbols.get(s.parentId)) {
    if (s.isTest) return s.id;
  }
  return null;
}
