import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CG, indexedRepo, ROOT } from './helpers.js';
import { tokenCounter } from '../src/retrieve/tokens.js';

/**
 * Each spec's tools as a client written only from the spec sees them: one real `cg serve --toolsets all`
 * process over stdio, on a repository made of the names the specs' own examples use
 * (fixtures/spec-examples), called with the spec's example arguments; every answer is validated against
 * the JSON Schema written from the spec's response format (test/contracts/), errors included.
 */
const CONTRACTS = path.join(ROOT, 'test', 'contracts');
const contract = (name: string) => JSON.parse(fs.readFileSync(path.join(CONTRACTS, `${name}.json`), 'utf8'));
const SPEC_TOOLS = ['codegraph_query', 'search_symbols', 'get_references', 'get_context', 'get_structure', 'get_blast_radius',
  'search', 'symbols', 'references', 'file_context', 'impact', 'status'];
/** CodeMem's search, symbols and references return arrays: the first text content is that array. */
const ARRAY_TOOLS = new Set(['search', 'symbols', 'references']);

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map(SPEC_TOOLS.map((t) => [t, ajv.compile(contract(t).output)]));
const errorShape = ajv.compile(contract('errors').output);

let client: Client;
let root: string;

interface Answer {
  isError: boolean;
  /** What a client written from the spec reads: the first text content, parsed when it is JSON. */
  spec: any;
  texts: string[];
  structured: any;
}

async function call(name: string, args: unknown): Promise<Answer> {
  const res = await client.callTool({ name, arguments: args as Record<string, unknown> });
  const texts = (res.content as { type: string; text: string }[]).map((c) => c.text);
  let spec: unknown = texts[0];
  try {
    spec = JSON.parse(texts[0]);
  } catch {
    /* a text answer: the markdown table or the structure map */
  }
  return { isError: !!res.isError, spec, texts, structured: res.structuredContent };
}

function valid(name: string, value: unknown): string {
  const v = validators.get(name)!;
  return v(value) ? '' : ajv.errorsText(v.errors);
}

beforeAll(async () => {
  root = indexedRepo('spec-examples');
  client = new Client({ name: 'spec-client', version: '0.0.1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CG, 'serve', root, '--toolsets', 'all'], stderr: 'pipe',
    env: { ...process.env, CG_DEBUG: '' } as Record<string, string> }));
});

afterAll(async () => {
  await client?.close();
});

describe('tools/list: every spec tool with its spec input schema', () => {
  it('lists each parameter the spec names, with its type, enum values, default and required list; unknown arguments refused', async () => {
    const { tools } = await client.listTools();
    for (const name of SPEC_TOOLS) {
      const ours = tools.find((t) => t.name === name);
      expect(ours, name).toBeDefined();
      const schema = ours!.inputSchema as any;
      expect(schema.additionalProperties, name).toBe(false);
      const spec = contract(name).input;
      for (const [param, want] of Object.entries<any>(spec.properties)) {
        const got = schema.properties[param];
        expect(got, `${name}.${param}`).toBeDefined();
        const types = [got.type, ...(got.anyOf ?? []).map((x: any) => x.type)].flat().filter(Boolean);
        expect(types, `${name}.${param} type`).toContain(want.type);
        if (want.enum) for (const v of want.enum) expect([...(got.enum ?? []), ...(got.anyOf ?? []).flatMap((x: any) => x.enum ?? [])], `${name}.${param} enum`).toContain(v);
        if ('default' in want) expect(got.default, `${name}.${param} default`).toEqual(want.default);
        for (const bound of ['minimum', 'maximum']) if (bound in want) expect(got[bound], `${name}.${param} ${bound}`).toBe(want[bound]);
      }
      expect([...(schema.required ?? [])].sort(), `${name} required`).toEqual([...(spec.required ?? [])].sort());
    }
  });
});

describe('each spec tool with the spec example arguments', () => {
  for (const name of SPEC_TOOLS) {
    it(`${name}: answers every example of the spec in the spec's format`, async () => {
      for (const args of contract(name).examples) {
        const a = await call(name, args);
        const what = `${name} ${JSON.stringify(args)}: ${a.texts[0].slice(0, 300)}`;
        expect(a.isError, what).toBe(false);
        // get_structure and the PRD's default markdown answer are text; structuredContent holds the JSON.
        const body = ARRAY_TOOLS.has(name) || typeof a.spec !== 'string' ? a.spec : a.structured;
        expect(valid(name, body), what).toBe('');
        if (ARRAY_TOOLS.has(name)) expect(a.structured.results, what).toEqual(a.spec);
        // Promise 4: freshness with every answer (in the JSON, or as a second text for tables, trees and arrays).
        if (typeof a.spec === 'string' || Array.isArray(a.spec)) expect(a.texts[1], what).toMatch(/^index: [0-9a-f]{12}, generation \d+/);
        else expect(a.spec.freshness, what).toMatchObject({ generation: expect.any(Number), stale: false });
      }
    });
  }
});

describe('answers checked by hand against the spec examples', () => {
  it('codegraph_query: the PRD table, status success, the token budget counting the whole answer', async () => {
    const a = await call('codegraph_query', { query: 'authentication token validation expiry', token_budget: 3500, max_depth: 1 });
    expect(a.texts[0].split('\n')[0]).toBe('| path | lines | symbol | excerpt | why | confidence |');
    expect(a.structured.status).toBe('success');
    expect(a.structured.files.slice(0, 3).map((f: any) => f.symbol)).toEqual(expect.arrayContaining(['TokenValidator.validate', 'Token.is_expired']));
    const count = await tokenCounter();
    for (const budget of [100, 150, 300, 600]) {
      for (const format of ['markdown', 'json']) {
        const b = await call('codegraph_query', { query: 'authentication token validation expiry', token_budget: budget, format, include_snippets: true });
        // What a client shows the model: the text content, or the structured content.
        expect(count(b.texts.join('\n')), `${budget} ${format}`).toBeLessThanOrEqual(budget);
        expect(count(JSON.stringify(b.structured)), `${budget} ${format}`).toBeLessThanOrEqual(budget);
        expect(b.structured.tokens_used).toBeLessThanOrEqual(budget);
      }
    }
    // Never the best place dropped while a lower one is kept: a smaller budget keeps a prefix of a larger one's places.
    const big = await call('codegraph_query', { query: 'authentication token validation expiry', token_budget: 3000, format: 'json' });
    const small = await call('codegraph_query', { query: 'authentication token validation expiry', token_budget: 400, format: 'json' });
    expect(small.structured.files.length).toBeGreaterThan(0);
    expect(small.structured.files.length).toBeLessThan(big.structured.files.length);
    expect(small.structured.files.map((f: any) => f.symbol)).toEqual(big.structured.files.slice(0, small.structured.files.length).map((f: any) => f.symbol));
    expect(small.structured).toMatchObject({ truncated: true, omitted: expect.any(Number) });
    const none = await call('codegraph_query', { query: 'zzzqqq wwwkkk' });
    expect(none.isError).toBe(true);
    expect(errorShape(none.spec), ajv.errorsText(errorShape.errors)).toBe(true);
    expect(none.spec.error_type).toBe('empty_results');
  });

  it('get_blast_radius: the change type changes the answer', async () => {
    const sig = (await call('get_blast_radius', { symbol_name: 'authenticate_user', change_type: 'signature' })).spec;
    expect(sig.target).toMatchObject({ name: 'authenticate_user', file_path: 'src/auth/service.py' });
    expect(sig.impact.direct_callers.map((d: any) => `${d.name} ${d.file}`).sort())
      .toEqual(['api_auth_middleware src/auth/middleware.py', 'login_endpoint src/api/routes.py', 'test_authenticate tests/test_auth.py']);
    expect(sig.impact.transitive_callers.map((d: any) => `${d.name} ${d.depth}`)).toContain('main_app 2');
    expect(sig.impact.affected_files.sort()).toEqual(['src/api/routes.py', 'src/app.py', 'src/auth/middleware.py', 'tests/test_auth.py']);
    expect(sig.impact.risk_assessment).toMatch(/^(low|medium|high) - 3 direct callers, 2 transitive dependents, 1 test file/);
    // Deleting it breaks the imports of it too.
    const del = (await call('get_blast_radius', { symbol_name: 'authenticate_user', change_type: 'delete' })).spec;
    expect(del.impact.direct_callers.filter((d: any) => d.relation === 'imports').map((d: any) => d.file).sort())
      .toEqual(['src/api/routes.py', 'src/auth/middleware.py', 'tests/test_auth.py']);
    expect(sig.impact.direct_callers.some((d: any) => d.relation === 'imports')).toBe(false);
    expect(del.impact.total_affected_symbols).toBeGreaterThan(sig.impact.total_affected_symbols);
  });

  it('get_references: callers and callees, with source on request; implementors and supers', async () => {
    const both = (await call('get_references', { symbol_name: 'authenticate_user' })).spec;
    expect(both.callers.map((c: any) => c.name).sort()).toEqual(['api_auth_middleware', 'login_endpoint', 'test_authenticate']);
    expect(both.callees.map((c: any) => `${c.name} ${c.file_path}`).sort())
      .toEqual(['create_session src/auth/service.py', 'get_user_by_username src/models/user.py', 'verify_password src/auth/crypto.py']);
    expect(both.callers[0].source).toBeUndefined();
    const src = (await call('get_references', { symbol_name: 'authenticate_user', direction: 'callers', include_source: true })).spec;
    expect(src.callers.find((c: any) => c.name === 'login_endpoint').source).toContain('def login_endpoint(request):');
    expect(src.callees).toBeUndefined();
    expect((await call('get_references', { symbol_name: 'BaseValidator', direction: 'implementors' })).spec.implementors.map((c: any) => c.name)).toEqual(['TokenValidator']);
    expect((await call('get_references', { symbol_name: 'TokenValidator', direction: 'supers' })).spec.supers.map((c: any) => c.name)).toEqual(['BaseValidator']);
  });

  it('get_context: entry points come with full source, the rest as signatures when asked', async () => {
    const a = (await call('get_context', { query: 'how does authentication work', entry_points: ['verify_password'], include_signatures_only: true })).spec;
    const syms = a.context_bundle.files.flatMap((f: any) => f.symbols.map((s: any) => ({ ...s, path: f.path })));
    const vp = syms.find((s: any) => s.name === 'verify_password');
    expect(vp).toMatchObject({ path: 'src/auth/crypto.py', included_as: 'full_source' });
    expect(vp.source).toContain('return hash_password(password) == hashed');
    expect(syms.some((s: any) => s.included_as === 'signature_only')).toBe(true);
    expect(a.context_bundle.symbols_included).toBe(syms.length);
    expect(a.context_bundle.tokens_used).toBeLessThanOrEqual(8000);
    const tiny = (await call('get_context', { query: 'how does authentication work', token_budget: 300 }));
    const count = await tokenCounter();
    expect(count(tiny.texts[0])).toBeLessThanOrEqual(300);
  });

  it('get_structure: folders nested, PageRank ranks, the ten most central starred', async () => {
    const a = await call('get_structure', { path: 'src' });
    expect(a.texts[0]).toMatch(/^auth\/$/m);
    expect(a.texts[0]).toMatch(/^ {4}⚡ def authenticate_user\(username: str, password: str\) -> Optional\[User\] {2}\[rank: \d+\]$/m);
    expect(a.texts[0]).toContain('⚡ = Top 10 by structural importance (PageRank)');
    const names = await call('get_structure', { path: 'src/auth', include_signatures: false });
    expect(names.texts[0]).toMatch(/^ {2}(⚡ )?authenticate_user {2}\[rank: \d+\]$/m);
    expect(names.texts[0]).not.toContain('password: str');
  });

  it('CodeMem: symbols by id into references and impact; file_context; status', async () => {
    const [sym] = (await call('symbols', { query: 'authenticate_user', kind: 'function' })).spec;
    const refs = (await call('references', { symbol_id: sym.id })).spec;
    expect(refs.filter((r: any) => r.kind === 'calls').map((r: any) => `${r.file_path}:${r.line}`).sort())
      .toEqual(['src/api/routes.py:7', 'src/auth/middleware.py:14', 'tests/test_auth.py:7']);
    expect(refs.find((r: any) => r.file_path === 'src/api/routes.py' && r.kind === 'calls').context).toBe('user = authenticate_user(request.username, request.password)');
    const imp = (await call('impact', { symbol_id: sym.id, use_graph: true })).spec;
    expect(imp.direct_callers.map((c: any) => c.name).sort()).toEqual(['api_auth_middleware', 'login_endpoint', 'test_authenticate']);
    expect(imp.graph_visualization.nodes.length).toBe(1 + imp.direct_callers.length + imp.transitive_callers.length);
    expect((await call('impact', { symbol_name: 'authenticate_user' })).spec.graph_visualization).toBeNull();
    const file = (await call('file_context', { file_path: 'src/auth/service.py' })).spec;
    expect(file.imports).toEqual(expect.arrayContaining([{ name: 'verify_password', source: 'src.auth.crypto' }]));
    expect(file.symbols.map((s: any) => s.name)).toContain('authenticate_user');
    const st = (await call('status', { detailed: true })).spec;
    expect(st.projects[0]).toMatchObject({ status: 'indexed', symbols: st.global.total_symbols });
    expect(st.detailed.server.rssMiB).toBeGreaterThan(0);
    // Documents are indexed beside code (issue 16): the fixture's README is the one document.
    const docs = await call('search', { query: 'passwords', filter_type: 'documents' });
    expect(docs.spec.map((r: any) => [r.file_path, r.type])).toEqual([['README.md', 'document']]);
    const code = await call('search', { query: 'passwords', filter_type: 'code' });
    expect(code.spec.every((r: any) => r.type === 'code')).toBe(true);
  });
});

describe('strict inputs: fuzzed calls each get a clear invalid_input', () => {
  it('refuses unknown and misspelt arguments (naming the closest valid one), wrong types and non-object arguments', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['search_symbols', { query: 'x', limt: 3 }, /"limt" \(did you mean "limit"\?\)/],
      ['search_symbols', { query: 'x', filePattern: 'src/**' }, /did you mean "file_pattern"/],
      ['get_references', { symbol: 'authenticate_user' }, /"symbol" \(did you mean "symbol_name"\?\)/],
      ['get_references', { symbol_name: 'authenticate_user', hierarchy: true }, /no argument "hierarchy"; its arguments are: symbol_name, direction/],
      ['get_blast_radius', { symbols: ['authenticate_user'] }, /did you mean "symbol_name"/],
      ['get_context', { query: 'x', expansion_dept: 2 }, /did you mean "expansion_depth"/],
      ['codegraph_query', { query: 'x', tokenBudget: 100 }, /did you mean "token_budget"/],
      ['codegraph_query', { query: 'x', include_snipets: true }, /did you mean "include_snippets"/],
      ['file_context', { path: 'src/app.py' }, /no argument "path"/],
      ['impact', { symbol_name: 'x', depht: 2 }, /did you mean "depth"/],
      ['codegraph_query', { query: 42 }, /query: .*expected string/],
      ['codegraph_query', { query: 'x', token_budget: 'lots' }, /token_budget: .*expected number/],
      ['codegraph_query', { query: 'x', max_depth: 7 }, /max_depth/],
      ['search_symbols', { query: 'x', kind: 'spaceship' }, /kind/],
      ['get_references', { symbol_name: 'x', direction: 'sideways' }, /direction/],
      ['get_blast_radius', { symbol_name: 'x', change_type: 'rename' }, /change_type/],
      ['get_context', { query: 'x', entry_points: 'authenticate_user' }, /entry_points: .*expected array/],
      ['symbols', { kind: 'module' }, /kind/],
      ['references', {}, /symbol_id or symbol_name is required/],
      ['references', { symbol_id: 1, symbol_name: 'x' }, /not both/],
      ['impact', { symbol_id: 'one' }, /symbol_id: .*expected number/],
      ['status', { verbose: true }, /no argument "verbose"/],
      ['get_structure', { path: '../..' }, /outside/],
      ['file_context', { file_path: '/etc/passwd' }, /outside/],
    ];
    for (const [name, args, message] of cases) {
      const a = await call(name, args);
      const what = `${name} ${JSON.stringify(args)}: ${a.texts[0]}`;
      expect(a.isError, what).toBe(true);
      expect(errorShape(a.spec), `${what} ${ajv.errorsText(errorShape.errors)}`).toBe(true);
      expect(a.spec.error_type, what).toBe('invalid_input');
      expect(a.spec.message, what).toMatch(message);
    }
    // Arguments that are not an object at all, sent as a raw protocol message.
    for (const args of [['query', 'x'], 'query=x', 7]) {
      const res = await client.request({ method: 'tools/call', params: { name: 'search_symbols', arguments: args as never } },
        (await import('@modelcontextprotocol/sdk/types.js')).CallToolResultSchema).then((r) => ({ result: r, error: null }), (error) => ({ result: null, error }));
      expect(res.error, JSON.stringify(args)).toBeNull();
      const body = JSON.parse((res.result!.content[0] as { text: string }).text);
      expect(body, JSON.stringify(args)).toMatchObject({ status: 'error', error_type: 'invalid_input' });
      expect(body.message).toMatch(/must be a JSON object of named arguments/);
    }
  });

  it('answers an unknown tool with the JSON-RPC error -32602, naming the nearest tool', async () => {
    const err = await client.callTool({ name: 'get_referenses', arguments: {} }).then(() => null, (e) => e);
    expect(err?.code).toBe(-32602);
    expect(err?.message).toContain('did you mean get_references?');
  });
});
