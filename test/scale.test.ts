import { describe, expect, it } from 'vitest';
import { resolveAll } from '../src/resolve/resolver.js';
import type { RFile, RRef, RSymbol } from '../src/resolve/types.js';
import { appendAll, maxOf } from '../src/arrays.js';

// Lists whose length a repository decides must not pass through a spread into a call's arguments:
// V8 overflows its stack past ~100k of them. ReactiveX/RxJava's test edges failed a whole build so.

describe('lists as long as a large repository makes them', () => {
  it('resolves 160,000 test -> code edges (400 tests each calling 400 functions)', () => {
    const N = 400;
    const files: RFile[] = [
      { id: 1, path: 'lib.py', language: 'python', isTest: false, external: false },
      { id: 2, path: 'test_lib.py', language: 'python', isTest: true, external: false },
    ];
    const symbol = (id: number, fileId: number, name: string, kind: string, isTest: boolean, parentId: number | null): RSymbol =>
      ({ id, fileId, parentId, name, qualifiedName: name, kind, exported: true, isTest, startLine: id, inError: false });
    const symbols: RSymbol[] = [symbol(1, 1, 'lib', 'module', false, null), symbol(2, 2, 'test_lib', 'module', true, null)];
    for (let i = 0; i < N; i++) symbols.push(symbol(10 + i, 1, `work_${i}`, 'function', false, 1));
    for (let i = 0; i < N; i++) symbols.push(symbol(10 + N + i, 2, `test_${i}`, 'function', true, 2));
    const refs: RRef[] = [];
    for (let t = 0; t < N; t++) {
      for (let f = 0; f < N; f++) {
        refs.push({ id: refs.length + 1, fileId: 2, symbolId: 10 + N + t, kind: 'call', name: `work_${f}`, receiver: null,
          receiverType: null, line: 1 + t, inError: false, detail: null });
      }
    }
    const repo = { root: '/nonexistent', files: new Set(files.map((f) => f.path)), readText: () => null };
    const out = resolveAll({ files, symbols, imports: [], refs }, repo);
    const tests = out.edges.filter((e) => e.kind === 'tests');
    expect(tests.length).toBe(N * N);
    expect(tests.every((e) => e.src >= 10 + N && e.dst < 10 + N)).toBe(true);
  });

  it('appendAll and maxOf take any length, in order, as push and Math.max answer', () => {
    const many = Array.from({ length: 300_000 }, (_, i) => i);
    expect(appendAll([-1], many)).toHaveLength(300_001);
    expect(appendAll([0], new Set([1, 2]).values())).toEqual([0, 1, 2]);
    expect(maxOf(many)).toBe(299_999);
    expect(maxOf([])).toBe(Math.max());
    expect(maxOf([1, Number.NaN, 3])).toBe(Math.max(1, Number.NaN, 3));
    expect(() => Math.max(...many.concat(many, many, many))).toThrow(RangeError); // what the helpers avoid
  });
});
