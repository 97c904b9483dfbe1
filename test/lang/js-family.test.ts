import { describe, expect, it } from 'vitest';
import { JsImportResolver, isTestFile, moduleName, parseJsonc } from '../../src/lang/js-family.js';
import { languageForFile } from '../../src/lang/registry.js';
import { typesAdmitted } from './wildcard-places.js';
import type { ImportSpec, RepoView } from '../../src/lang/types.js';

/** A repository made of the given files; `text` holds the configuration files the resolver reads. */
function repo(files: string[], text: Record<string, string> = {}): RepoView {
  return { root: '/r', files: new Set(files), readText: (p) => text[p] ?? null };
}
const spec = (module: string): ImportSpec => ({ module, names: [], line: 1 });

describe('JavaScript/TypeScript file roles', () => {
  it('picks the language by extension; .d.ts files are TypeScript', () => {
    expect(['a.ts', 'a.d.ts', 'a.mts', 'a.cts', 'a.tsx', 'a.js', 'a.jsx', 'a.mjs', 'a.cjs'].map((f) => languageForFile(f)?.id))
      .toEqual(['typescript', 'typescript', 'typescript', 'typescript', 'tsx', 'javascript', 'javascript', 'javascript', 'javascript']);
  });

  it('names modules by path without extension', () => {
    expect(moduleName('src/util/index.ts')).toBe('src/util/index');
    expect(moduleName('types/api.d.ts')).toBe('types/api');
    expect(moduleName('lib/a.test.mjs')).toBe('lib/a.test');
  });

  it('recognises test files by name and folder', () => {
    for (const f of ['a.test.ts', 'src/a.spec.tsx', 'types/a.test-d.ts', 'src/__tests__/a.ts', 'test/a.js', 'tests/a.mjs', 'e2e/app.e2e-spec.ts']) {
      expect(isTestFile(f), f).toBe(true);
    }
    for (const f of ['src/testing.ts', 'src/latest.ts', 'src/contest/a.ts', 'src/spec.ts']) expect(isTestFile(f), f).toBe(false);
  });

  it('reads tsconfig files with comments and trailing commas', () => {
    expect(parseJsonc('{ // c\n "a": "x//y", /* b */ "b": [1, 2,], }')).toEqual({ a: 'x//y', b: [1, 2] });
    expect(parseJsonc('{ broken')).toBeNull();
    // A string that looks like a trailing comma is text, in plain JSON and in JSONC alike.
    expect(parseJsonc('{ "a": "x, }", "b": [",]"] }')).toEqual({ a: 'x, }', b: [',]'] });
    expect(parseJsonc('{ "a": "x, }", // c\n }')).toEqual({ a: 'x, }' });
  });
});

describe('JsImportResolver', () => {
  it('probes extensions, index files and the .js -> .ts convention; .d.ts last', () => {
    const r = new JsImportResolver(repo(['src/a.ts', 'src/b/index.tsx', 'src/c.mts', 'src/d.js', 'src/d.d.ts', 'src/e.d.ts']));
    expect(r.resolveModule(spec('./a'), 'src/x.ts')).toEqual(['src/a.ts']);
    expect(r.resolveModule(spec('./a.js'), 'src/x.ts')).toEqual(['src/a.ts']);
    expect(r.resolveModule(spec('./b'), 'src/x.ts')).toEqual(['src/b/index.tsx']);
    expect(r.resolveModule(spec('./c.mjs'), 'src/x.ts')).toEqual(['src/c.mts']);
    expect(r.resolveModule(spec('./d'), 'src/x.ts')).toEqual(['src/d.js']); // the code, not its declarations
    expect(r.resolveModule(spec('./e'), 'src/x.ts')).toEqual(['src/e.d.ts']);
    expect(r.resolveModule(spec('../../outside'), 'src/x.ts')).toBeNull();
    expect(r.resolveModule(spec('./missing'), 'src/x.ts')).toBeNull();
  });

  it('maps workspace packages to their source through exports, module or main, and subpaths', () => {
    const r = new JsImportResolver(repo(
      ['packages/core/src/index.ts', 'packages/core/src/sub/thing.ts', 'packages/cjs/lib/main.js', 'apps/web/src/app.ts'],
      {
        'packages/core/package.json': JSON.stringify({
          name: '@acme/core', exports: { '.': { import: { types: './dist/index.d.mts', default: './dist/index.mjs' } } },
        }),
        'packages/cjs/package.json': JSON.stringify({ name: 'cjs-lib', main: 'lib/main.js' }),
      },
    ));
    expect(r.resolveModule(spec('@acme/core'), 'apps/web/src/app.ts')).toEqual(['packages/core/src/index.ts']);
    expect(r.resolveModule(spec('@acme/core/sub/thing'), 'apps/web/src/app.ts')).toEqual(['packages/core/src/sub/thing.ts']);
    expect(r.resolveModule(spec('cjs-lib'), 'apps/web/src/app.ts')).toEqual(['packages/cjs/lib/main.js']);
    expect(r.resolveModule(spec('react'), 'apps/web/src/app.ts')).toBeNull();
    expect(r.resolveModule(spec('node:fs'), 'apps/web/src/app.ts')).toBeNull();
  });

  it('follows tsconfig paths and baseUrl of the nearest tsconfig, through a relative extends', () => {
    const plain = new JsImportResolver(repo(['web/src/db.ts', 'web/main.ts'],
      { 'web/tsconfig.json': '{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }' }));
    expect(plain.resolveModule(spec('@/db'), 'web/main.ts')).toEqual(['web/src/db.ts']); // relative to the config
    const r = new JsImportResolver(repo(
      ['app/src/lib/db.ts', 'app/src/ui/button.tsx', 'app/src/main.ts', 'other/x.ts'],
      {
        'tsconfig.base.json': '{ "compilerOptions": { "paths": { "~db": ["lib/db.ts"] } } }',
        'app/tsconfig.json': '{ "extends": "../tsconfig.base.json", "compilerOptions": { "baseUrl": "src" } }',
      },
    ));
    expect(r.resolveModule(spec('ui/button'), 'app/src/main.ts')).toEqual(['app/src/ui/button.tsx']); // baseUrl
    // Inherited paths resolve against the extending config's baseUrl, as tsc does.
    expect(r.resolveModule(spec('~db'), 'app/src/main.ts')).toEqual(['app/src/lib/db.ts']);
    expect(r.resolveModule(spec('ui/button'), 'other/x.ts')).toBeNull(); // app/tsconfig.json is not other's
  });

  it('binds a default import to the module itself when it has no default export (CommonJS)', () => {
    const r = new JsImportResolver(repo(['a.js', 'b.js']));
    expect(r.resolveMember(spec('./a'), 'default', 'b.js')).toEqual(['a.js']);
    expect(r.resolveMember(spec('./a'), 'other', 'b.js')).toBeNull();
  });
});

describe('JavaScript/TypeScript queries: wildcard nodes', () => {
  // queries/js-common (and typescript/, javascript/, jsx/) write `(_ object: … property: …)` for a
  // member_expression, `(_ function: … arguments: …)` for a call_expression and `(_ [parameters: …
  // parameter: …] body: …)` for a function value (wildcard-places.ts says why and how this is checked).
  const member = '(T object: (_) property: (property_identifier))';
  const fn = '(T [parameters: (formal_parameters) parameter: (identifier)] body: (_))';
  const places: [place: string, node: string, types: string[], grammars?: string[]][] = [
    ['(assignment_expression left: X)', '(T object: (identifier) property: (property_identifier))', ['member_expression']],
    ['(assignment_expression left: X)', '(T object: (identifier) property: (_))', ['member_expression']],
    ['(assignment_expression left: X)', '(T object: (this) property: (_))', ['member_expression']],
    ['(member_expression object: X)', '(T object: (identifier) property: (property_identifier))', ['member_expression']],
    ['(call_expression function: X)', '(T object: (_) property: [(property_identifier) (private_property_identifier)])', ['member_expression']],
    ['(call_expression function: X)', '(T property: (property_identifier))', ['member_expression']],
    ['(new_expression constructor: X)', member, ['member_expression']],
    ['(decorator X)', member, ['member_expression']],
    ['(decorator X)', '(T function: (identifier) arguments: (arguments))', ['call_expression']],
    ['(member_expression object: X)', '(T function: (identifier) arguments: (arguments))', ['call_expression']],
    ['(jsx_opening_element name: X)', member, ['member_expression'], ['javascript', 'tsx']],
    ['(jsx_self_closing_element name: X)', member, ['member_expression'], ['javascript', 'tsx']],
    ...['(pair value: X)', '(variable_declarator value: X)', '(export_statement value: X)', '(assignment_expression right: X)']
      .map((place): [string, string, string[]] => [place, fn, ['function_expression', 'generator_function', 'arrow_function']]),
  ];

  it.each(['javascript', 'typescript', 'tsx'])('%s: each wildcard place admits only the node type it stands for', async (id) => {
    const admitted = await typesAdmitted(id);
    for (const [place, node, types, grammars] of places) {
      if (grammars && !grammars.includes(id)) continue;
      expect(admitted(place, node), `${place} with ${node}`).toEqual([...types].sort());
    }
  });
});
