import { describe, expect, it } from 'vitest';
import type { Node } from 'web-tree-sitter';
import { loadLanguage } from '../src/lang/loader.js';
import { languageById } from '../src/lang/registry.js';
import { ScopeFinder } from '../src/extract/scopes.js';

// ScopeFinder finds the nearest scope around a node by position (src/extract/scopes.ts); it must give
// exactly what walking `parent` gives, for every identifier of real-looking code with nested
// functions, lambdas, blocks and declarations, and with the declaration itself excluded.

function walkUp(from: Node | null, types: ReadonlySet<string>): Node | null {
  let n = from;
  while (n && !types.has(n.type)) n = n.parent;
  return n;
}

function identifiers(root: Node): Node[] {
  return root.descendantsOfType(['identifier', 'property_identifier', 'field_identifier', 'simple_identifier', 'type_identifier'])
    .filter((n): n is Node => !!n);
}

const cases: [string, string][] = [
  ['python', `
import os
def outer(a, b=lambda x: x + 1):
    def inner(c):
        d = [e for e in c]
        return lambda f: f(d)
    class K:
        def m(self, g):
            return g
    return inner(a)
x = lambda y: (lambda z: z)(y)
`],
  ['typescript', `
export function outer(a: number) {
  const inner = (b: number) => { let c = b; { const d = c; return d; } };
  class K { m(e: string) { for (const f of [e]) { try { g(f); } catch (h) { return h; } } } static { const i = 1; } }
  return new Hono({ getPath: (req) => req.url, handle() { return 1; } });
}
function* gen(j) { yield j; }
const k = function named(l) { return l; };
`],
  ['go', `
package p
func outer(a int) func(int) int {
	b := a
	if b > 0 { c := b; _ = c }
	return func(d int) int { e := d; return e }
}
func (r *T) m(f string) { for g := range f { _ = g } }
`],
  ['rust', `
fn outer(a: i32) -> i32 {
    let b = |c: i32| { let d = c; d };
    { let e = b(a); e }
}
impl T { fn m(&self, f: u8) -> u8 { let g = f; g } }
`],
];

describe('ScopeFinder', () => {
  for (const [language, source] of cases) {
    it(`finds the scope a parent walk finds (${language})`, async () => {
      const lang = await loadLanguage(languageById(language));
      const types = lang.spec.localScopes!;
      const tree = lang.parser.parse(source)!;
      try {
        const finder = new ScopeFinder(types);
        const ids = identifiers(tree.rootNode);
        expect(ids.length).toBeGreaterThan(10);
        let inScope = 0;
        for (const n of ids) {
          // A name's own scope, and a declared name's scope around its declaration (the declaration excluded).
          const want = walkUp(n.parent, types);
          expect(finder.around(n)?.id ?? null).toBe(want?.id ?? null);
          const around = walkUp(n.parent?.parent ?? null, types);
          expect(finder.around(n, n.parent)?.id ?? null).toBe(around?.id ?? null);
          if (want) inScope++;
        }
        expect(inScope).toBeGreaterThan(5);
      } finally {
        tree.delete();
      }
    });
  }
});
