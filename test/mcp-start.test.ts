import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { CG, indexedRepo, makeRepo, runCg } from './helpers.js';
import { createServer } from '../src/mcp/server.js';
import { IndexKeeper } from '../src/mcp/keeper.js';

/**
 * `cg serve` where there is no usable index yet: it restores the newest verified snapshot (as the CLI's
 * query commands do), or on a repository never indexed builds one in the background and answers
 * meanwhile with what it is doing and how far it got; and progress notifications for a call.
 */
const clients: Client[] = [];

async function serve(root: string, extra: string[] = []): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client({ name: 'cg-test', version: '0.0.1' });
  let err = '';
  const transport = new StdioClientTransport({ command: process.execPath, args: [CG, 'serve', root, ...extra], stderr: 'pipe',
    env: { ...process.env, CG_DEBUG: '' } as Record<string, string> });
  transport.stderr?.on('data', (d) => (err += String(d)));
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => err };
}

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
});

async function callJson(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: any }> {
  const res = await client.callTool({ name, arguments: args });
  return { isError: !!res.isError, body: res.structuredContent };
}

/** Calls until an answer is not an error; returns every answer on the way. */
async function untilAnswered(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: any }[]> {
  const seen = [];
  for (let i = 0; i < 600; i++) {
    const a = await callJson(client, name, args);
    seen.push(a);
    if (!a.isError) return seen;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer: ${JSON.stringify(seen.at(-1))}`);
}

describe('cg serve without a usable index', () => {
  it('restores the newest verified snapshot at start, and says so', async () => {
    const root = indexedRepo('spec-examples');
    const made = runCg(['snapshot', 'create', '--json'], root);
    expect(made.code, made.stderr).toBe(0);
    // A fresh clone's state: the snapshot is there (a CI artifact put in .codegraph/snapshots), the index is not.
    for (const name of fs.readdirSync(path.join(root, '.codegraph'))) {
      if (name !== 'snapshots') fs.rmSync(path.join(root, '.codegraph', name), { recursive: true, force: true });
    }
    const s = await serve(root);
    const seen = await untilAnswered(s.client, 'search_symbols', { query: 'authenticate_user' });
    for (const a of seen.slice(0, -1)) expect(a.body.error_type).toBe('indexing');
    expect(seen.at(-1)!.body.symbols[0]).toMatchObject({ name: 'authenticate_user', file_path: 'src/auth/service.py' });
    expect(s.stderr()).toMatch(/restored the index from snapshot \S+/);
    expect(s.stderr()).not.toContain('Indexing this repository');
  });

  it('indexes a repository never indexed in the background, then answers', async () => {
    const root = makeRepo({ 'app.py': 'def handler(event):\n    return dispatch(event)\n\n\ndef dispatch(event):\n    return event\n' }, { commit: true });
    const s = await serve(root, ['--toolsets', 'all']);
    const seen = await untilAnswered(s.client, 'get_references', { symbol_name: 'dispatch', direction: 'callers' });
    // Whatever arrived while it was being built said so, with the phase it had reached.
    for (const a of seen.slice(0, -1)) {
      expect(a.body).toMatchObject({ status: 'error', error_type: 'indexing' });
      expect(a.body.message).toContain('Indexing this repository in the background');
    }
    expect(seen.at(-1)!.body.callers.map((c: any) => c.name)).toEqual(['handler']);
    expect(s.stderr()).toContain('cg serve: Indexing this repository in the background');
    expect(s.stderr()).toMatch(/cg serve: indexed 1 files/);
    expect(fs.existsSync(path.join(root, '.codegraph', 'CURRENT'))).toBe(true);
  });

  it('answers every tool at once while indexing: status with the progress, the others an indexing error with a fallback (in-process)', async () => {
    const root = makeRepo({ 'a.py': 'x = 1\n' }, { commit: true });
    const keeper = new IndexKeeper(root, { autoIndex: false, log: () => undefined });
    keeper.state = { state: 'indexing', message: 'Indexing this repository in the background because there is no index',
      progress: { phase: 'parse', done: 120, total: 300 } };
    const h = createServer(root, { toolsets: ['all'], keeper });
    const st = await h.call('status', {});
    expect(st.isError).toBeFalsy();
    expect((st.structuredContent as any).projects[0]).toMatchObject({ status: 'indexing', progress: { phase: 'parse', done: 120, total: 300 } });
    expect((st.structuredContent as any).projects[0].message).toContain('parse 120/300 (40%)');
    const q = await h.call('codegraph_query', { query: 'anything' });
    expect(q.isError).toBe(true);
    expect(q.structuredContent).toMatchObject({ status: 'error', error_type: 'indexing', partial_results: [], details: { progress: { done: 120 } } });
    expect((q.structuredContent as any).fallback_suggestion).toMatch(/grep/);
    // Bad arguments are still refused first.
    expect((await h.call('codegraph_query', { qurey: 'x' })).structuredContent).toMatchObject({ error_type: 'invalid_input' });
    keeper.state = { state: 'unavailable', message: 'Indexing this repository failed: disk full' };
    expect((await h.call('search_symbols', { query: 'x' })).structuredContent).toMatchObject({ error_type: 'index_unavailable', message: 'Indexing this repository failed: disk full' });
    expect((await h.call('status', {})).structuredContent).toMatchObject({ projects: [{ status: 'failed' }] });
    h.live.close();
  });
});

describe('progress notifications', () => {
  it('sends progress for a call that asks for it', async () => {
    const root = indexedRepo('spec-examples');
    const s = await serve(root);
    // What the server sent, read off the transport: the SDK's client hands a notification to its
    // progress handler a microtask later but settles the request at once, so a progress notification
    // that arrives in the same read as the response is dropped (it happened on a loaded machine).
    const notes: { progress: number; message?: string }[] = [];
    const transport = s.client.transport!;
    const onmessage = transport.onmessage;
    transport.onmessage = (m, extra) => {
      if ('method' in m && m.method === 'notifications/progress') notes.push(m.params as { progress: number; message?: string });
      onmessage?.(m, extra);
    };
    const res = await s.client.request({ method: 'tools/call', params: { name: 'codegraph_query', arguments: { query: 'token expiry' } } },
      CallToolResultSchema, { onprogress: () => undefined });
    expect(res.isError).toBeFalsy();
    expect(notes.map((n) => n.message)).toEqual(['ranking the candidates', 'fitting the answer into the token budget']);
    expect(notes.map((n) => n.progress)).toEqual([1, 2]);
  });

  it('refuses an unknown toolset before serving', () => {
    const res = runCg(['serve', '--toolsets', 'default,bomb'], makeRepo({ 'a.py': 'x = 1\n' }, { commit: true }));
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Unknown toolset "bomb"');
    expect(res.stderr).toContain('default, codegrapher, bombe, codemem, analysis, all');
  });
});

describe('warm-up', () => {
  it('loads the query path and collects the heap before the first request, then answers as usual', async () => {
    const root = indexedRepo('spec-examples');
    const s = await serve(root);
    for (let i = 0; i < 300 && !s.stderr().includes('query path warm'); i++) await new Promise((r) => setTimeout(r, 50));
    // The full collection after the warm-up (src/mcp/warm.ts) ran: the first scavenges of requests then
    // copy less. An engine that refuses it would leave the note out, and the answers the same.
    expect(s.stderr()).toMatch(/cg serve: query path warm in \d+ ms \(heap collected\)/);
    const a = await callJson(s.client, 'search_symbols', { query: 'authenticate_user' });
    expect(a.body.symbols[0]).toMatchObject({ name: 'authenticate_user' });
  });
});
