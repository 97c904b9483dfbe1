import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CG, git, indexedRepo, makeRepo, runCg, tempDir } from './helpers.js';
import { createServer } from '../src/mcp/server.js';
import { TopLevelId } from '../src/mcp/line-guard.js';

/**
 * `cg serve` as a real process on real indexed repositories, driven through the SDK's client over
 * stdio: every tool, hostile input, a re-index while it runs, and answers checked by hand against
 * the fixtures in Python, TypeScript and Go.
 */
interface Session {
  client: Client;
  errors: Error[];
  stderr: string[];
}

const sessions: Session[] = [];

async function serve(root: string, extra: string[] = []): Promise<Session> {
  const client = new Client({ name: 'cg-test', version: '0.0.1' });
  const errors: Error[] = [];
  const stderr: string[] = [];
  // A line on stdout that is not a protocol message would surface here as a parse error.
  client.onerror = (e) => errors.push(e);
  const transport = new StdioClientTransport({ command: process.execPath, args: [CG, 'serve', root, ...extra], stderr: 'pipe',
    env: { ...process.env, CG_DEBUG: '' } as Record<string, string> });
  transport.stderr?.on('data', (d) => stderr.push(String(d)));
  await client.connect(transport);
  const s = { client, errors, stderr };
  sessions.push(s);
  return s;
}


interface Answer {
  isError: boolean;
  body: any;
  text: string;
}

async function call(s: Session, name: string, args: unknown): Promise<Answer> {
  const res = await s.client.callTool({ name, arguments: args as Record<string, unknown> });
  const content = res.content as { type: string; text: string }[];
  return { isError: !!res.isError, body: res.structuredContent, text: content[0]?.text ?? '' };
}

afterAll(async () => {
  for (const s of sessions) await s.client.close().catch(() => undefined);
});

describe('cg serve on the Python fixture', () => {
  let root: string;
  let s: Session;
  beforeAll(async () => {
    root = indexedRepo('python');
    s = await serve(root, ['--toolsets', 'all']);
  });

  it('lists every tool with an input schema and a description that says when grep or read_file is better', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['codegraph_query', 'file_context', 'get_blast_radius', 'get_context', 'get_references',
      'get_structure', 'impact', 'references', 'search', 'search_symbols', 'status', 'symbols', 'tests_for',
      'dead_code', 'cycles', 'communities', 'co_change', 'complexity', 'ownership'].sort());
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.description!.length).toBeGreaterThan(60);
    }
    const q = tools.find((t) => t.name === 'codegraph_query')!;
    expect(q.inputSchema.required).toEqual(['query']);
    const retrieval = ['codegraph_query', 'search_symbols', 'get_references', 'get_context', 'get_structure', 'get_blast_radius', 'tests_for'];
    for (const name of retrieval) expect(tools.find((t) => t.name === name)!.description, name).toMatch(/grep|read_file/);
  });

  it('codegraph_query answers the places `cg query --json` ranks, best first, with freshness', async () => {
    const a = await call(s, 'codegraph_query', { query: 'create a product and save it', token_budget: 2000, max_depth: 1, format: 'json' });
    expect(a.isError).toBe(false);
    const cli = runCg(['query', 'create a product and save it', '--budget', '2000', '--json'], root).json;
    expect(a.body.status).toBe('success');
    const ours = a.body.files.map((f: any) => `${f.path} ${f.symbol}`);
    expect(ours.length).toBeGreaterThan(2);
    expect(ours).toEqual(cli.files.slice(0, ours.length).map((f: any) => `${f.path} ${f.symbol}`));
    const first = a.body.files[0];
    expect(first).toMatchObject({ path: 'shop/service.py', symbol: 'create_product', excerpt: 'def create_product(name)' });
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['path', 'line_range', 'symbol', 'excerpt', 'rationale', 'confidence']));
    expect(first.snippet).toBeUndefined();
    expect(a.body.tokens_used).toBeLessThanOrEqual(2000);
    expect(a.body.total_symbols).toBe(a.body.files.length);
    expect(a.body.freshness).toMatchObject({ generation: expect.any(Number), indexedCommit: git(root, 'rev-parse', 'HEAD').slice(0, 12), stale: false, pendingChanges: 0 });
    expect(JSON.parse(a.text)).toEqual(a.body);
  });

  it('codegraph_query takes the cursor file, snippets, the markdown table, and a stack trace', async () => {
    const md = await call(s, 'codegraph_query', { query: 'discount price', cursor_file: 'shop/service.py' });
    expect(md.isError).toBe(false);
    expect(md.text).toMatch(/^\| shop\/models\.py \| \d+-\d+ \| Product\.\w+ \| `def /m);
    expect(md.body.files.every((f: any) => f.snippet === undefined)).toBe(true);
    const snip = await call(s, 'codegraph_query', { query: 'discount price', include_snippets: true, format: 'json' });
    expect(snip.body.files[0].snippet).toContain('def ');
    const trace = 'Traceback (most recent call last):\n  File "shop/models.py", line 30, in apply\n    self.price = self.price * (100 - pct) / 100\nTypeError: bad';
    const sig = await call(s, 'codegraph_query', { query: 'price is wrong', signals: trace, format: 'json' });
    expect(sig.body.files[0]).toMatchObject({ path: 'shop/models.py', symbol: 'Product.apply' });
  });

  it('get_context gives the bundle `cg context` ranks, in Bombe\'s shape', async () => {
    const a = await call(s, 'get_context', { query: 'create a product and save it', token_budget: 3000, include_signatures_only: true, expansion_depth: 1 });
    expect(a.isError).toBe(false);
    const cli = runCg(['context', 'create a product and save it', '--budget', '3000', '--json'], root).json;
    expect(a.body.context_bundle.summary).toBe(cli.summary);
    expect(a.body.context_bundle.files[0].path).toBe(cli.files[0].path);
    const cp = a.body.context_bundle.files.flatMap((f: any) => f.symbols).find((x: any) => x.name === 'create_product');
    expect(cp).toMatchObject({ included_as: 'full_source', kind: 'function' });
    expect(cp.source).toContain('def create_product');
  });

  it('search_symbols, get_references (with depth), file_context', async () => {
    const sym = await call(s, 'search_symbols', { query: 'Product', kind: 'class' });
    expect(sym.body.symbols.map((x: any) => `${x.qualified_name} ${x.file_path}:${x.start_line}`)).toEqual(['Product shop/models.py:14', 'SaleProduct shop/admin.py:5']);
    const refs = await call(s, 'get_references', { symbol_name: 'Product.apply', direction: 'callers', depth: 2 });
    expect(refs.body.callers.map((c: any) => `${c.depth} ${c.name}`)).toEqual(['1 Product.discounted', '1 SaleProduct.apply', '2 TestService.test_discount']);
    expect(refs.body.callees).toBeUndefined();
    const capped = await call(s, 'get_references', { symbol_name: 'create_product', direction: 'callers', token_budget: 150 });
    expect(capped.body).toMatchObject({ totals: { callers: 3 }, truncated: true });
    expect(capped.body.callers.length + capped.body.omitted.callers).toBe(3);
    const hier = await call(s, 'get_references', { symbol_name: 'Base', direction: 'implementors' });
    expect(hier.body.implementors.map((c: any) => c.name)).toEqual(['Product']);
    const file = await call(s, 'file_context', { file_path: 'shop/service.py' });
    expect(file.body.file_path).toBe('shop/service.py');
    expect(file.body.symbols.map((x: any) => x.name)).toContain('Service.run');
    expect(file.body.imports.map((i: any) => i.source)).toContain('shop.util');
    expect((await call(s, 'file_context', { file_path: `${root}/shop/util.py` })).body.file_path).toBe('shop/util.py');
  });

  it('get_references names registrations, fired events and data access, and warns about weak relations', async () => {
    const route = await call(s, 'get_references', { symbol_name: 'show_sale' });
    expect(route.body.callers.map((c: any) => `${c.name} ${c.relation} ${c.target}`))
      .toEqual(['GET, DELETE /sales/<int:sale_id> registers route:GET, DELETE /sales/<int:sale_id>']);
    expect(route.body.reads.map((r: any) => `${r.name} ${r.target}`)).toEqual(['Sale table:sales']);
    const event = await call(s, 'get_references', { symbol_name: 'on_sold', direction: 'callers' });
    expect(event.body.callers.map((c: any) => `${c.name} ${c.relation}`)).toEqual(['shop.admin registers', 'sell fires']);
    // `sell` fires 'sold' on some object: joined with the registration by name only, below the 0.7 threshold.
    expect(event.body.warnings).toEqual([expect.stringMatching(/^1 of 2 relation\(s\) in this answer have a confidence of 70 % or less/)]);
    const override = await call(s, 'get_references', { symbol_name: 'SaleProduct.save', direction: 'supers' });
    expect(override.body.supers.map((c: any) => `${c.name} ${c.relation}`)).toEqual(['Base.save overrides']);
  });

  it('status reports coverage, skipped files, secrets, pending records, the model and freshness', async () => {
    const a = await call(s, 'status', { detailed: true });
    expect(a.isError).toBe(false);
    expect(a.body.detailed.coverage).toMatchObject({ indexed: 7, partial: 1 });
    expect(a.body.detailed).toHaveProperty('skipped.byReason');
    expect(a.body.detailed).toHaveProperty('excludedSecrets');
    expect(a.body.detailed.vectors.status).toBe('ok');
    expect(a.body.freshness.pendingChanges).toBe(0);
    expect(a.body.projects[0].status).toBe('indexed');
  });

  it('get_structure maps the repository by PageRank under a budget, and one folder', async () => {
    const all = await call(s, 'get_structure', {});
    expect(all.body.total_files).toBe(7);
    expect(all.text).toMatch(/^shop\/$/m);
    const folder = await call(s, 'get_structure', { path: 'tests' });
    expect(folder.text).toContain('def test_create_product()');
    expect(folder.text).not.toContain('shop/');
    const tiny = await call(s, 'get_structure', { token_budget: 100 });
    expect(tiny.body.tokens_used).toBeLessThanOrEqual(100);
    expect(tiny.body.truncated).toBe(true);
    const none = await call(s, 'get_structure', { path: 'nothing/here' });
    expect(none.isError).toBe(true);
    expect(none.body.error_type).toBe('empty_results');
  });

  it('tests_for (hand-checked): a diff in Product.apply is reached by test_discount through discounted', async () => {
    const diff = ['diff --git a/shop/models.py b/shop/models.py', '--- a/shop/models.py', '+++ b/shop/models.py',
      '@@ -30,1 +30,1 @@ class Product(Base):', '-        self.price = self.price * (100 - pct) / 100', '+        self.price = self.price * (100 - pct) // 100', ''].join('\n');
    const a = await call(s, 'tests_for', { diff });
    expect(a.isError).toBe(false);
    expect(a.body.changed.map((c: any) => c.name)).toEqual(['Product.apply']);
    // Calls: TestService.test_discount -> Product.discounted -> Product.apply. Imports, weaker: the test
    // module imports shop.service, which imports Product. test_create_product never reaches apply.
    expect(a.body.tests.map((t: any) => t.name)).toEqual(['TestService.test_discount', 'tests.test_service']);
    expect(a.body.tests[0].path).toBe('TestService.test_discount -calls-> Product.discounted -calls-> Product.apply');
    expect(a.body.test_files).toEqual([{ file: 'tests/test_service.py', tests: 2, confidence: a.body.tests[0].confidence }]);
    const named = await call(s, 'tests_for', { symbols: ['create_product'], max_depth: 1 });
    expect(named.body.tests.map((t: any) => t.name).sort()).toEqual(['TestService.test_discount', 'test_create_product', 'tests.test_service'].sort());
    const helper = await call(s, 'tests_for', { files: ['shop/util.py'] });
    // util.log is called by create_product and Repository.store, which the tests call.
    expect(helper.body.tests.map((t: any) => t.name)).toEqual(expect.arrayContaining(['test_create_product', 'TestService.test_discount']));
  });

  it('get_blast_radius (hand-checked): Base.save, by change type', async () => {
    const a = await call(s, 'get_blast_radius', { symbol_name: 'Base.save', change_type: 'behavior' });
    expect(a.isError).toBe(false);
    expect(a.body.impact.direct_callers.map((d: any) => d.name).sort()).toEqual(['Repository.store', 'create_product']);
    // Depth 2: Service.run calls both callers; the tests call create_product.
    expect(a.body.impact.transitive_callers.filter((d: any) => d.depth === 2).map((d: any) => d.name).sort())
      .toEqual(['Service.run', 'TestService.test_discount', 'test_create_product'].sort());
    expect(a.body.impact.transitive_callers.filter((d: any) => d.depth === 3).map((d: any) => d.name)).toEqual(['Service.fetch']);
    expect(a.body.impact.affected_files.sort()).toEqual(['shop/service.py', 'tests/test_service.py']);
    expect(a.body.impact.risk_assessment).toMatch(/^(low|medium|high) - 2 direct callers, 4 transitive dependents, 1 test file \(.*2 tests reach it/);
    // A deletion also breaks the test module that imports the module of a caller (through the imports of shop.service).
    const del = await call(s, 'get_blast_radius', { symbol_name: 'Base.save', change_type: 'delete' });
    expect(del.body.impact.transitive_callers.map((d: any) => `${d.name} ${d.relation ?? 'calls'}`)).toContain('tests.test_service imports');
    // and the method that overrides it (SaleProduct.save does not call it: a behaviour change does not reach it).
    expect(del.body.impact.direct_callers.map((d: any) => `${d.name} ${d.relation ?? 'calls'}`)).toContain('SaleProduct.save overrides');
    expect(a.body.impact.direct_callers.map((d: any) => d.name)).not.toContain('SaleProduct.save');
    const mermaid = await call(s, 'get_blast_radius', { symbol_name: 'Base.save', format: 'mermaid' });
    expect(mermaid.text.startsWith('flowchart RL')).toBe(true);
    expect(mermaid.text).toContain('-- calls -->');
    const cli = runCg(['impact', '--symbol', 'Base.save', '--change-type', 'behavior', '--json'], root).json;
    expect(cli.direct.callers.map((d: any) => d.symbol).sort()).toEqual(['Repository.store', 'create_product']);
    expect(cli.transitive.length).toBe(a.body.impact.transitive_callers.length);
  });

  it('refuses paths outside the repository, wrong types and huge strings, answers what is not there, and keeps serving', async () => {
    const bad: [string, unknown, string][] = [
      ['file_context', { file_path: '../../etc/passwd' }, 'invalid_input'],
      ['file_context', { file_path: '/etc/passwd' }, 'invalid_input'],
      ['file_context', { file_path: 'shop/../../outside.py' }, 'invalid_input'],
      ['codegraph_query', { query: 'x', cursor_file: '../secret.py' }, 'invalid_input'],
      ['tests_for', { files: ['../../x.py'] }, 'invalid_input'],
      ['get_structure', { path: '..' }, 'invalid_input'],
      ['codegraph_query', {}, 'invalid_input'],
      ['codegraph_query', { query: 'x'.repeat(30_000) }, 'invalid_input'],
      ['search_symbols', { query: 'y'.repeat(5000) }, 'invalid_input'],
      ['file_context', { file_path: `${'a/'.repeat(2000)}b.py` }, 'invalid_input'],
      // Globs that would make picomatch's backtracking regular expressions run for hours.
      ['search_symbols', { query: 'x', file_pattern: '*a*a*a*a*a*a*a*a*a*a*b' }, 'invalid_input'],
      ['get_references', { symbol_name: 'x', file_pattern: '+(a|aa)+(a|aa)+(a|aa)b' }, 'invalid_input'],
      ['get_references', { symbol_name: ['a'] }, 'invalid_input'],
      ['tests_for', {}, 'invalid_input'],
      ['file_context', { file_path: 'shop/missing.py' }, 'not_found'],
      ['get_references', { symbol_name: 'NoSuchThing' }, 'not_found'],
      ['get_references', { symbol_name: '__init__' }, 'ambiguous'],
      ['get_blast_radius', { symbol_name: '__init__' }, 'ambiguous'],
    ];
    for (const [name, args, code] of bad) {
      const a = await call(s, name, args);
      expect(a.isError, `${name} ${JSON.stringify(args).slice(0, 80)}`).toBe(true);
      expect(a.body.status).toBe('error');
      expect(a.body.error_type, `${name} ${JSON.stringify(args).slice(0, 80)}: ${a.text.slice(0, 300)}`).toBe(code);
      expect(a.body.fallback_suggestion.length).toBeGreaterThan(10);
      expect(a.body.partial_results).toEqual([]);
      expect(a.text.length).toBeLessThan(5000);
    }
    expect((await call(s, 'codegraph_query', { query: 'x', max_depth: 99 })).body.details.issues[0].field).toBe('max_depth');
    expect((await call(s, 'get_references', { symbol_name: '__init__' })).body.details.candidates.length).toBe(2);
    expect((await call(s, 'status', {})).isError).toBe(false);
    expect(s.errors).toEqual([]);
  });

  it('answers concurrent requests, each correctly', async () => {
    const names = ['create_product', 'Service.run', 'Base.save', 'log', 'Product.apply'];
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => (i % 2
      ? call(s, 'get_references', { symbol_name: names[i % 5], direction: 'callers' })
      : call(s, 'search_symbols', { query: names[i % 5] }))));
    answers.forEach((a, i) => {
      expect(a.isError).toBe(false);
      if (i % 2) expect(a.body.target_symbol.name).toBe(names[i % 5]);
      else expect(a.body.symbols[0].qualified_name.endsWith(names[i % 5].split('.').pop()!)).toBe(true);
    });
  });

  it('treats FTS and SQL syntax as words', async () => {
    for (const q of ['"foo" OR *', "'; DROP TABLE symbols; --", 'NEAR(a b) AND NOT c*', '%_\\', 'col:val ^x']) {
      for (const name of ['codegraph_query', 'search_symbols', 'get_context', 'search']) {
        const a = await call(s, name, { query: q });
        expect(!a.isError || a.body.error_type === 'empty_results', `${name} ${q}: ${a.text.slice(0, 200)}`).toBe(true);
      }
    }
    const refs = await call(s, 'get_references', { symbol_name: '" OR 1=1 --' });
    expect(refs.body.error_type).toBe('not_found');
    expect((await call(s, 'search_symbols', { query: 'create' })).body.total_matches).toBe(2);
  });

  it('graph://callers/{symbol} and friends: resource templates that read as the tools answer, whatever the toolsets', async () => {
    // A server whose toolset has none of the tools behind the resources still serves them.
    const r = await serve(root, ['--toolsets', 'codemem', '--no-warm']);
    expect(r.client.getServerCapabilities()).toMatchObject({ resources: {}, completions: {} });
    const { resourceTemplates } = await r.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => `${t.uriTemplate} ${t.mimeType}`)).toEqual(['graph://callers/{symbol} application/json',
      'graph://callees/{symbol} application/json', 'graph://impact/{symbol} application/json', 'graph://tests/{symbol} application/json']);
    expect((await r.client.listResources()).resources).toEqual([]);
    const read = async (uri: string) => {
      const { contents } = await r.client.readResource({ uri });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
      return JSON.parse(contents[0].text as string);
    };
    // Hand-checked (as get_references above, at depth 1), and the same as the tool's answer.
    const callers = await read('graph://callers/Product.apply');
    expect(callers.callers.map((c: any) => c.name)).toEqual(['Product.discounted', 'SaleProduct.apply']);
    expect(callers.callees).toBeUndefined();
    expect(callers.freshness.indexedCommit).toMatch(/^[0-9a-f]{12}$/);
    const tool = await call(s, 'get_references', { symbol_name: 'Product.apply', direction: 'callers' });
    expect(callers.callers).toEqual(tool.body.callers);
    // file:name, percent-encoded or with its slash as is.
    expect((await read(`graph://callers/${encodeURIComponent('shop/models.py:Product.apply')}`)).callers).toEqual(tool.body.callers);
    expect((await read('graph://callers/shop/models.py:Product.apply')).callers).toEqual(tool.body.callers);
    expect((await read('graph://callees/Product.apply')).callees)
      .toEqual((await call(s, 'get_references', { symbol_name: 'Product.apply', direction: 'callees' })).body.callees);
    const impact = await read('graph://impact/Product.apply');
    expect(impact.impact).toEqual((await call(s, 'get_blast_radius', { symbol_name: 'Product.apply' })).body.impact);
    expect(impact.impact.direct_callers.map((c: any) => c.name)).toContain('Product.discounted');
    const tests = await read('graph://tests/Product.apply');
    expect(tests.tests).toEqual((await call(s, 'tests_for', { symbols: ['Product.apply'] })).body.tests);
    expect(tests.tests.map((t: any) => t.name)).toContain('TestService.test_discount');
    // Errors are JSON-RPC errors: an unknown symbol or resource is "not found" (-32002) and says what to do.
    await expect(r.client.readResource({ uri: 'graph://callers/NoSuchThing' })).rejects.toMatchObject({ code: -32002,
      message: expect.stringMatching(/NoSuchThing.*search_symbols/) });
    await expect(r.client.readResource({ uri: 'graph://owners/Product.apply' })).rejects.toMatchObject({ code: -32002,
      message: expect.stringContaining('graph://callers/{symbol}') });
    await expect(r.client.readResource({ uri: 'graph://callers/apply' })).rejects.toMatchObject({ code: -32602,
      message: expect.stringContaining('names 2 symbols') });
    await expect(r.client.readResource({ uri: 'graph://callers/%E0%A4%A' })).rejects.toMatchObject({ code: -32602 });
    // An @-mention completes the symbol as file:name.
    const done = await r.client.complete({ ref: { type: 'ref/resource', uri: 'graph://callers/{symbol}' }, argument: { name: 'symbol', value: 'discoun' } });
    expect(done.completion.values).toEqual(['shop/models.py:Product.discounted', 'shop/models.py:MAX_DISCOUNT',
      'tests/test_service.py:TestService.test_discount']);
    const other = await r.client.complete({ ref: { type: 'ref/resource', uri: 'file:///{path}' }, argument: { name: 'path', value: 'x' } });
    expect(other.completion.values).toEqual([]);
  });
});

describe('cg serve across index changes', () => {
  it('answers from the new generation after a re-index and an incremental update, without a restart', async () => {
    const root = indexedRepo('python');
    const s = await serve(root, ['--toolsets', 'all']);
    const before = await call(s, 'status', { detailed: true });
    expect((await call(s, 'search_symbols', { query: 'refund_order' })).body.total_matches).toBe(0);
    fs.appendFileSync(path.join(root, 'shop/util.py'), '\n\ndef refund_order(order):\n    return log("refund")\n');
    git(root, 'commit', '-qam', 'refund');
    // While HEAD is ahead of the index, answers say so.
    const stale = await call(s, 'search_symbols', { query: 'log' });
    expect(stale.body.freshness.stale).toBe(true);
    expect(stale.body.freshness.hint).toContain('cg update');
    expect((await call(s, 'get_references', { symbol_name: 'refund_order' })).body.message).toContain('the index is behind');
    expect(runCg(['index', '--full', '-q'], root).code).toBe(0);
    const after = await call(s, 'search_symbols', { query: 'refund_order' });
    expect(after.body.symbols.map((x: any) => x.file_path)).toEqual(['shop/util.py']);
    const st = await call(s, 'status', { detailed: true });
    expect(st.body.detailed.buildId).not.toBe(before.body.detailed.buildId);
    expect(st.body.freshness).toMatchObject({ stale: false, indexedCommit: git(root, 'rev-parse', 'HEAD').slice(0, 12) });
    // An incremental update: a new generation inside the same build.
    fs.appendFileSync(path.join(root, 'shop/util.py'), '\n\ndef void_order(order):\n    return refund_order(order)\n');
    git(root, 'commit', '-qam', 'void');
    expect(runCg(['update', '-q'], root).code).toBe(0);
    const inc = await call(s, 'get_references', { symbol_name: 'refund_order', direction: 'callers' });
    expect(inc.body.callers.map((c: any) => c.name)).toEqual(['void_order']);
    expect(inc.body.freshness.generation).toBeGreaterThan(st.body.freshness.generation);
    expect(s.stderr.join('')).toContain('cg serve: serving');
  });

  it('keeps one open database while the build pointer is unchanged, and swaps it when a build replaces it (in-process)', async () => {
    const root = indexedRepo('python');
    const h = createServer(root, { toolsets: ['all'] });
    try {
      for (let i = 0; i < 3; i++) expect((await h.call('search_symbols', { query: 'log' })).isError).toBeFalsy();
      expect(runCg(['update', '-q'], root).code).toBe(0); // no change: same build
      await h.call('status', {});
      expect(h.live.opened).toBe(1);
      expect(runCg(['index', '--full', '-q'], root).code).toBe(0);
      const st = await h.call('status', { detailed: true });
      expect(h.live.opened).toBe(2);
      expect((st.structuredContent as any).detailed.buildId).toBe(fs.readFileSync(path.join(root, '.codegraph', 'CURRENT'), 'utf8').trim());
    } finally {
      h.live.close();
    }
  });

  it('with --no-auto-index, starts without an index, says so with a fallback, and answers once one is built', async () => {
    const root = makeRepo({ 'app.py': 'def handler(event):\n    return event\n' }, { commit: true });
    const s = await serve(root, ['--no-auto-index', '--toolsets', 'all']);
    const a = await call(s, 'search_symbols', { query: 'handler' });
    expect(a.isError).toBe(true);
    expect(a.body.error_type).toBe('index_unavailable');
    expect(a.body.fallback_suggestion).toMatch(/grep/);
    expect(fs.existsSync(path.join(root, '.codegraph', 'CURRENT'))).toBe(false);
    expect(runCg(['index', '-q'], root).code).toBe(0);
    expect((await call(s, 'search_symbols', { query: 'handler' })).body.symbols[0].file_path).toBe('app.py');
    // A pointer to a build that is gone: corrupt, reported, and the server keeps running.
    fs.writeFileSync(path.join(root, '.codegraph', 'CURRENT'), '999999\n');
    const c = await call(s, 'status', {});
    expect(c.body.error_type).toBe('index_corrupt');
    expect(runCg(['index', '--full', '-q'], root).code).toBe(0);
    expect((await call(s, 'status', {})).isError).toBe(false);
  });

  it('says index_stale for a file added since the index was built', async () => {
    const root = indexedRepo('python');
    const s = await serve(root, ['--toolsets', 'codemem']);
    fs.writeFileSync(path.join(root, 'shop/new_mod.py'), 'def fresh():\n    return 1\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'new');
    const a = await call(s, 'file_context', { file_path: 'shop/new_mod.py' });
    expect(a.body.error_type).toBe('index_stale');
    expect(a.body.fallback_suggestion).toContain('read_file');
  });

  it('writes nothing but protocol messages to stdout', async () => {
    const root = indexedRepo('python');
    const child = spawn(process.execPath, [CG, 'serve', root], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'codegraph_query', arguments: { query: 'save a product' } } });
    child.stdin.write('this is not json\n');
    // Larger than any message the server reads: not read, answered with an error (the id found wherever
    // it is: the MCP SDK writes it last), noted on stderr, and the server carries on. A notification
    // that large gets no answer, as JSON-RPC says.
    const big = 'z'.repeat(12 * 1024 * 1024);
    child.stdin.write(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"status","arguments":{"x":"${big}"}}}\n`);
    child.stdin.write(`{"method":"tools/call","params":{"name":"status","arguments":{"id":1,"x":"${big}"}},"jsonrpc":"2.0","id":"ten"}\n`);
    child.stdin.write(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"${big}"}}\n`);
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_symbols', arguments: { query: 'save' } } });
    await waitFor(() => out.includes('"id":3'), 60_000);
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
    const lines = out.split('\n').filter(Boolean);
    for (const l of lines) expect(JSON.parse(l).jsonrpc).toBe('2.0');
    const byId = new Map(lines.map((l) => [JSON.parse(l).id, JSON.parse(l)]));
    expect([...byId.keys()].sort()).toEqual([1, 2, 3, 9, 'ten'].sort());
    for (const id of [9, 'ten']) {
      expect(byId.get(id).error).toMatchObject({ code: -32600, data: { code: 'invalid_input', limit: 8 * 1024 * 1024 } });
      expect(byId.get(id).error.message).toMatch(/^The request is \d+ bytes; cg serve reads messages of up to 8388608 bytes/);
    }
    expect(err).toMatch(/refused a \d+-byte message \(the limit is 8388608 bytes\): request 9/);
    expect(err).toMatch(/refused a \d+-byte message \(the limit is 8388608 bytes\): request "ten"/);
    expect(err.match(/refused a \d+-byte message/g)).toHaveLength(3);
  });
});

describe('the id of a request too large to read', () => {
  it('is found at the top level of the message wherever it is, however the bytes arrive', () => {
    const messages: [string, string | number | undefined][] = [
      ['{"jsonrpc":"2.0","id":9,"method":"tools/call"}', 9],
      ['{"method":"x","params":{"id":4,"a":[1,{"id":2}],"s":"\\"id\\":7"},"jsonrpc":"2.0","id":"ab\\"c"}', 'ab"c'],
      ['{ "id" : 12 }', 12],
      ['{"a":"x\\\\","b":"}","id":5}', 5],
      ['{"id":"é"}', 'é'],
      ['{"id":null}', undefined],
      ['{"id":{"x":1}}', undefined],
      ['{"method":"notifications/cancelled"}', undefined],
      ['[{"id":3}]', undefined],
    ];
    for (const [text, id] of messages) {
      const bytes = Buffer.from(text);
      for (const step of [1, 2, 3, 7, bytes.length]) {
        const scan = new TopLevelId();
        for (let i = 0; i < bytes.length; i += step) scan.feed(bytes.subarray(i, i + step));
        expect(scan.id(), `${text} in pieces of ${step}`).toBe(id);
      }
    }
  });
});

describe('cg serve process life', () => {
  it('exits on SIGTERM even while its stdin stays open, and on end of input', async () => {
    const root = indexedRepo('python');
    for (const how of ['signal', 'eof'] as const) {
      // --repo, as `cg mcp-config --absolute` writes it, goes through the same fast start as a PATH.
      const child = spawn(process.execPath, [CG, 'serve', '--repo', root], { stdio: ['pipe', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => (err += String(d)));
      await waitFor(() => err.includes('cg serve: serving'), 60_000);
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      if (how === 'signal') child.kill('SIGTERM');
      else child.stdin.end();
      expect(await exited).toBe(0);
    }
  });
});

describe('cg serve when idle', () => {
  it('gives back the token encoding and the model after --idle-release seconds without a request, and reloads them when asked', async () => {
    const root = indexedRepo('python');
    const s = await serve(root, ['--idle-release', '1', '--toolsets', 'all']);
    const query = await call(s, 'codegraph_query', { query: 'apply a discount to the order total', format: 'json' });
    expect(query.isError).toBe(false);
    // Each status call restarts the idle clock, so poll more slowly than the one second it waits.
    let server: any;
    for (let i = 0; i < 30; i++) {
      await new Promise((r) => setTimeout(r, 1500));
      server = (await call(s, 'status', { detailed: true })).body.detailed.server;
      if (server.idleReleases > 0) break;
    }
    expect(server).toMatchObject({ tokenCounterLoaded: false, embeddersLoaded: 0 });
    expect(server.idleReleases).toBeGreaterThan(0);
    expect(s.stderr.join('')).toContain('released the token encoding and the embedding model');
    const again = await call(s, 'codegraph_query', { query: 'apply a discount to the order total', format: 'json' });
    expect(again.body.files).toEqual(query.body.files);
    expect((await call(s, 'status', { detailed: true })).body.detailed.server).toMatchObject({ tokenCounterLoaded: true, embeddersLoaded: 1 });
  }, 120_000);

  it('refuses an --idle-release that is not a number of seconds', () => {
    const res = runCg(['serve', '--idle-release', 'soon'], tempDir());
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--idle-release takes a number of seconds');
  });
});

async function waitFor(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('tests_for and get_blast_radius on TypeScript and Go (hand-checked)', () => {
  it('TypeScript: Repository.save is tested by the module-level suite; Model has Product below it', async () => {
    const s = await serve(indexedRepo('typescript'));
    const t = await call(s, 'tests_for', { symbols: ['Repository.save'] });
    expect(t.body.tests.map((x: any) => `${x.name} ${x.file}`)).toEqual(['test/service.test test/service.test.ts']);
    expect(t.body.tests[0].path.startsWith('test/service.test -calls-> ')).toBe(true);
    const b = await call(s, 'get_blast_radius', { symbol_name: 'Model', max_depth: 1, change_type: 'delete' });
    expect(b.body.impact.direct_callers.filter((d: any) => d.relation === 'extends').map((d: any) => d.name)).toEqual(['Product']);
    const impl = await call(s, 'get_references', { symbol_name: 'Model', direction: 'implementors' });
    expect(impl.body.implementors.map((d: any) => d.name)).toEqual(['Product']);
  });

  it('Go: format is reached by BenchmarkFormat, FuzzFormat and, through Service.Sell, TestSell', async () => {
    const root = indexedRepo('go');
    const s = await serve(root);
    const t = await call(s, 'tests_for', { symbols: ['service/format.go:format'] });
    expect(t.body.tests.map((x: any) => `${x.depth} ${x.name}`).sort()).toEqual(['1 BenchmarkFormat', '1 FuzzFormat', '2 TestSell']);
    const sell = t.body.tests.find((x: any) => x.name === 'TestSell');
    expect(sell.path).toBe('TestSell -calls-> Service.Sell -calls-> format');
    const b = await call(s, 'get_blast_radius', { symbol_name: 'service/format.go:format', max_depth: 2 });
    expect(b.body.impact.direct_callers.filter((d: any) => !d.is_test).map((d: any) => d.name)).toEqual(['Service.Sell']);
    expect(b.body.impact.transitive_callers.filter((d: any) => !d.is_test).map((d: any) => `${d.name} ${d.file}`)).toEqual(['main cmd/shop/main.go']);
    expect(b.body.impact.affected_files.sort()).toEqual(['cmd/shop/main.go', 'service/service.go', 'service/service_test.go']);
    // The CLI twins answer the same from the same functions.
    const cliTests = runCg(['tests-for', '--symbol', 'service/format.go:format', '--json'], root);
    expect(cliTests.code, cliTests.stderr).toBe(0);
    expect(cliTests.json.tests.map((x: any) => x.symbol)).toEqual(t.body.tests.map((x: any) => x.name));
    const cliImpact = runCg(['impact', '--symbol', 'service/format.go:format', '--depth', '2', '--change-type', 'behavior', '--json'], root);
    expect(cliImpact.json.affectedFiles.map((f: any) => f.file).sort()).toEqual(b.body.impact.affected_files);
    expect(runCg(['impact', '--symbol', 'service/format.go:format', '--mermaid'], root).stdout).toMatch(/^flowchart RL/);
    const diff = ['--- a/service/format.go', '+++ b/service/format.go', '@@ -1,0 +1,1 @@', '+// x', ''].join('\n');
    fs.writeFileSync(path.join(root, 'change.diff'), diff);
    expect(runCg(['tests-for', '--diff', 'change.diff', '--json'], root).json.changed.map((c: any) => c.symbol)).toEqual(['service/format']);
    const map = runCg(['map', 'models', '--budget', '400', '--json'], root).json;
    expect(map.files.every((f: any) => f.path.startsWith('models/'))).toBe(true);
    expect(map.tokens_used).toBeLessThanOrEqual(400);
    expect(runCg(['map', '../..', '--json'], root).code).toBe(2);
  });
});

describe('cg mcp-config', () => {
  it('prints a configuration that runs cg serve for the repository, per client, with no machine path unless asked', () => {
    const root = makeRepo({ 'a.py': 'x = 1\n' }, { git: true });
    const claude = runCg(['mcp-config', '--json'], root).json;
    expect(claude.json.mcpServers.cg).toEqual({ command: 'cg', args: ['serve'] });
    expect(claude.command).toBe('claude mcp add --scope project cg -- cg serve');
    const sets = runCg(['mcp-config', '--toolsets', 'bombe,codemem', '--json'], root).json;
    expect(sets.json.mcpServers.cg.args).toEqual(['serve', '--toolsets', 'bombe,codemem']);
    expect(sets.command).toContain('--toolsets bombe,codemem');
    const wrong = runCg(['mcp-config', '--toolsets', 'bombe,nope'], root);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Unknown toolset "nope"');
    const cursor = runCg(['mcp-config', 'cursor', '--json'], root).json;
    expect(cursor.json.mcpServers.cg).toEqual({ command: 'cg', args: ['serve', '--repo', '${workspaceFolder}'] });
    const vscode = runCg(['mcp-config', 'vscode', '--json'], root).json;
    expect(vscode.json.servers.cg).toEqual({ type: 'stdio', command: 'cg', args: ['serve', '--repo', '${workspaceFolder}'] });
    for (const c of [claude, cursor, vscode]) expect(JSON.stringify(c)).not.toContain(fs.realpathSync(root));
    const mine = runCg(['mcp-config', 'cursor', '--absolute', '--json'], root).json;
    expect(mine.json.mcpServers.cg).toEqual({ command: process.execPath, args: [CG, 'serve', '--repo', fs.realpathSync(root)] });
    expect(mine.file).toContain('~/.cursor/mcp.json');
    const bad = runCg(['mcp-config', 'emacs'], root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Use one of: claude, cursor, vscode');
  });
});
