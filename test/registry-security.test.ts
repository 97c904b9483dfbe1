import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from './helpers.js';
import { ADDON, CLIENT, CORE } from './registry-fixtures.js';
import { openRegistry, type RegistryDb } from '../src/registry/db.js';
import { addProject, requireProject } from '../src/registry/projects.js';
import { indexNow } from '../src/registry/indexing.js';
import { IndexPool } from '../src/registry/federate.js';
import { collectExpired, createScope, revokeScope, validateSession } from '../src/registry/sessions.js';
import { createRegistryServer, sessionOf, type CallContext, type RegistryServerHandle } from '../src/registry/server.js';
import { REGISTRY_TOOLS } from '../src/registry/tools.js';
import { readAudit } from '../src/registry/audit.js';

/**
 * Access control in registry mode (CodeMem "Access control", promise 9): every call goes through the
 * same server code an MCP client reaches; the sessions are real rows, the projects real indexes. Each
 * refusal here is a check that, removed, lets the call through.
 */
const SECRET = {
  'secret.php': `<?php
function topSecretFunction() { add_action( 'pum_init', 'topSecretFunction' ); return 'classified'; }
`,
};

let db: RegistryDb;
let pool: IndexPool;
let server: RegistryServerHandle;
let admin: string;
let task: string;
let eco: string;
const roots: Record<string, string> = {};

async function call(name: string, args: Record<string, unknown>, ctx: CallContext = {}) {
  const res = await server.call(name, args, ctx);
  return { isError: !!res.isError, body: res.structuredContent as any, text: (res.content as { text: string }[])[0].text };
}

beforeAll(async () => {
  db = openRegistry(tempDir('cg-home-sec-'));
  for (const [name, files] of Object.entries({ core: CORE, addon: ADDON, client: CLIENT, vault: SECRET })) {
    roots[name] = makeRepo(files, { commit: true });
    const p = addProject(db, { path: roots[name], name, collection: name === 'vault' ? undefined : 'pm' });
    expect((await indexNow(db, p, 'incremental'))[0].error).toBeNull();
  }
  pool = new IndexPool();
  server = createRegistryServer({ db, pool, envSession: null, kick: async () => {} });
  admin = createScope(db, { agentId: 'persistence', level: 'global' }).session_id;
  task = createScope(db, { agentId: 'task-addon', level: 'project', projects: ['addon'] }).session_id;
  eco = createScope(db, { agentId: 'ecosystem', level: 'collection', collections: ['pm'] }).session_id;
});

afterAll(() => {
  pool?.close();
  db?.close();
});

describe('sessions', () => {
  it('a forged, malformed or missing session is refused by every tool', async () => {
    const forged = '3f2c1a4e-9b7d-4e21-8c3a-5d6e7f8a9b0c';
    for (const t of REGISTRY_TOOLS) {
      for (const session of [forged, 'not-a-uuid', undefined]) {
        const r = await call(t.name, session ? { session_id: session } : {});
        expect(r.isError, `${t.name} ${session}`).toBe(true);
        expect(r.body.status).toBe('unauthorized');
      }
    }
    // The message is the same for an unknown id as for an expired one: a forger learns nothing.
    expect((await call('status', { session_id: forged })).body.error.message).toBe('The session is not valid (unknown, revoked or expired)');
  });

  it('an expired session is refused and its row collected', async () => {
    const old = createScope(db, { agentId: 'late', level: 'global', lifetimeMinutes: 30 }, Date.now() - 31 * 60_000).session_id;
    expect((await call('status', { session_id: old })).body.status).toBe('unauthorized');
    expect(() => validateSession(db, old)).toThrow(/not valid/);
    expect(collectExpired(db)).toBeGreaterThanOrEqual(1);
    expect(db.prepare('SELECT COUNT(*) FROM sessions WHERE id = ?').pluck().get(old)).toBe(0);
  });

  it('revoke takes effect on the next call', async () => {
    const s = createScope(db, { agentId: 'short-lived', level: 'project', projects: ['core'] }).session_id;
    expect((await call('status', { session_id: s })).isError).toBe(false);
    const r = await call('revoke_scope', { agent_id: 'short-lived', session_id: admin });
    expect(r.body).toMatchObject({ status: 'revoked', revoked: 1 });
    expect((await call('status', { session_id: s })).body.status).toBe('unauthorized');
  });

  it('is read from the argument, the request _meta, the X-CG-Session header or the server environment, in that order', async () => {
    expect(sessionOf({ session_id: 'a' }, { meta: { session_id: 'b' } }, 'c')).toBe('a');
    expect(sessionOf({}, { meta: { 'codegrapher/session_id': 'b' }, headers: { 'x-cg-session': 'h' } }, 'c')).toBe('b');
    expect(sessionOf({}, { headers: { 'x-cg-session': 'h' } }, 'c')).toBe('h');
    expect(sessionOf({}, {}, 'c')).toBe('c');
    expect(sessionOf({}, {}, null)).toBeNull();
    expect((await call('status', {}, { meta: { session_id: task } })).body.scope.agent_id).toBe('task-addon');
    const envServer = createRegistryServer({ db, pool, envSession: eco, kick: async () => {} });
    expect((await envServer.call('status', {})).structuredContent).toMatchObject({ scope: { agent_id: 'ecosystem', level: 'collection' } });
  });

  it('scope is what the table says: a session cannot widen itself, and create_scope needs a global session', async () => {
    for (const s of [task, eco]) {
      const r = await call('create_scope', { agent_id: 'me', level: 'global', session_id: s });
      expect(r.body.status).toBe('forbidden');
      for (const admin_tool of ['register_project', 'register_collection', 'reindex', 'revoke_scope']) {
        expect((await call(admin_tool, { session_id: s })).body.status, admin_tool).toBe('forbidden');
      }
    }
    expect(() => createScope(db, { agentId: 'x', level: 'project', projects: ['core'], collections: ['pm'] })).toThrow(/no collections/);
  });
});

describe('a project-scoped session cannot read another project through any tool', () => {
  it('search and symbols return only its own project', async () => {
    const s = await call('search', { query: 'topSecretFunction classified popup settings', limit: 20, session_id: task });
    expect(s.body.results.length).toBeGreaterThan(0);
    expect(new Set(s.body.results.map((r: any) => r.project))).toEqual(new Set(['addon']));
    expect(JSON.stringify(s.body.results)).not.toMatch(/classified|topSecret|pum_init\(\)/);
    const sym = await call('symbols', { query: '*', limit: 500, session_id: task });
    expect(new Set(sym.body.symbols.map((r: any) => r.project))).toEqual(new Set(['addon']));
    expect((await call('symbols', { query: 'topSecret*', session_id: task })).body.symbols).toEqual([]);
  });

  it('naming another project is refused the same way whether it exists or not', async () => {
    for (const tool of ['search', 'symbols', 'references', 'impact', 'file_context', 'status']) {
      const args: Record<string, unknown> = { session_id: task, query: 'x', symbol_name: 'topSecretFunction', file_path: 'secret.php' };
      if (tool === 'status') { delete args.query; delete args.symbol_name; delete args.file_path; }
      if (tool === 'references' || tool === 'impact') delete args.query;
      if (tool === 'file_context') { delete args.query; delete args.symbol_name; }
      if (tool === 'search' || tool === 'symbols') delete args.symbol_name;
      if (tool !== 'file_context') delete args.file_path;
      const real = await call(tool, { ...args, project: 'vault' });
      const none = await call(tool, { ...args, project: 'no-such-project' });
      expect(real.isError, tool).toBe(true);
      expect(real.body.error.message.replace('vault', 'P')).toBe(none.body.error.message.replace('no-such-project', 'P'));
    }
  });

  it('references and impact find nothing outside the scope, and carry no cross-project data', async () => {
    const refs = await call('references', { symbol_name: 'topSecretFunction', session_id: task });
    expect(refs.body.status).toBe('not_found');
    const own = await call('references', { symbol_name: 'pum_addon_setup', session_id: task });
    expect(own.body.status).toBe('ok');
    expect(own.body.cross_project).toBeNull();
    const impact = await call('impact', { symbol_name: 'pum_addon_setup', session_id: task });
    expect(impact.body.cross_project).toBeNull();
    expect(impact.body.affected_files.every((f: string) => f.startsWith('addon:'))).toBe(true);
  });

  it('cross_refs and collection_map are refused', async () => {
    expect((await call('cross_refs', { symbol_name: 'pum_init', session_id: task })).body.status).toBe('forbidden');
    expect((await call('collection_map', { session_id: task })).body.status).toBe('forbidden');
  });

  it('file paths cannot leave the project: .., absolute paths elsewhere, NUL bytes', async () => {
    const attempts = ['../' + path.basename(roots.vault) + '/secret.php', '../../../../etc/passwd', path.join(roots.vault, 'secret.php'),
      '/etc/passwd', 'docs/../../secret.php', 'addon.php\u0000.txt'];
    for (const p of attempts) {
      const r = await call('file_context', { file_path: p, session_id: task });
      expect(r.isError, p).toBe(true);
      expect(r.text).not.toMatch(/topSecret|root:x:0/);
    }
    expect((await call('file_context', { file_path: 'addon.php', session_id: task })).body.symbols.length).toBeGreaterThan(0);
    expect((await call('file_context', { file_path: path.join(fs.realpathSync(roots.addon), 'addon.php'), session_id: task })).isError).toBe(false);
  });

  it('status lists only its own project and no registry totals', async () => {
    const st = await call('status', { session_id: task });
    expect(st.body.projects.map((p: any) => p.name)).toEqual(['addon']);
    expect(st.body.global).toBeUndefined();
    expect(st.body.scope_registry).toBeUndefined();
  });
});

describe('a collection-scoped session sees its collection and the links inside it only', () => {
  it('cross_refs leaves out edges from projects outside the collection', async () => {
    const inColl = await call('cross_refs', { symbol_name: 'pum_init', session_id: eco });
    expect(inColl.body.edges.map((e: any) => e.from_project)).toEqual(['addon']);
    expect(inColl.body.sites.map((s: any) => s.project).sort()).toEqual(['addon', 'core']);
    const global = await call('cross_refs', { symbol_name: 'pum_init', session_id: admin });
    expect(global.body.edges.map((e: any) => e.from_project).sort()).toEqual(['addon', 'vault']);
    const map = await call('collection_map', { session_id: eco, visualization: 'mermaid' });
    expect(map.text).not.toContain('vault');
    expect(map.body.projects.map((p: any) => p.name)).toEqual(['addon', 'client', 'core']);
  });
});

describe('bad input through every argument', () => {
  const payloads = [`' OR 1=1 --`, `"; DROP TABLE projects; --`, `x" OR name MATCH "*`, 'NEAR(popup settings)', '"unterminated', '*', 'AND OR NOT',
    `${'a'.repeat(600)}`, '%', '_', '\\', '${jndi:x}', '../../etc/passwd'];

  it('SQL and FTS syntax in any string argument is data: no crash, no rows from outside the scope, the registry intact', async () => {
    let tried = 0;
    for (const t of REGISTRY_TOOLS) {
      const shape = t.schema.shape as Record<string, { def?: { type?: string } }>;
      for (const [field, schema] of Object.entries(shape)) {
        if (field === 'session_id') continue;
        const type = (schema as any)._zod?.def?.type === 'optional' || (schema as any)._zod?.def?.type === 'default' || (schema as any)._zod?.def?.type === 'nullable'
          ? (schema as any)._zod.def.innerType._zod.def.type : (schema as any)._zod?.def?.type;
        if (type !== 'string') continue;
        for (const payload of payloads) {
          // Admin tools run with the admin session, so the payload reaches them (revoke_scope with `' OR 1=1 --` must revoke nothing).
          const r = await call(t.name, { [field]: payload, session_id: t.level === 'global' ? admin : task });
          tried++;
          if (r.isError) expect(['invalid_input', 'not_found', 'forbidden', 'empty_results', 'ambiguous'], `${t.name}.${field} ${payload}: ${r.text}`).toContain(r.body.error.code);
          expect(r.text).not.toMatch(/topSecret|classified/);
          expect(r.text).not.toMatch(/SQLITE|syntax error|fts5/i);
        }
      }
    }
    expect(tried).toBeGreaterThan(200);
    for (const sid of [admin, task, eco]) expect(() => validateSession(db, sid)).not.toThrow();
    expect(requireProject(db, 'vault').name).toBe('vault');
    expect(db.prepare('SELECT COUNT(*) FROM projects').pluck().get()).toBe(4);
  });

  it('an unknown or misspelt argument is an error that names it', async () => {
    const r = await call('search', { query: 'popup', limt: 3, session_id: task });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('limt');
  });
});

describe('audit log', () => {
  it('records every call, refused ones included, with agent, scope, tool, outcome and count, never the session id', async () => {
    const before = readAudit(db, { limit: 100000 }).length;
    await call('symbols', { query: 'pum_*', session_id: eco });
    await call('collection_map', { session_id: task });
    await call('status', { session_id: '3f2c1a4e-9b7d-4e21-8c3a-5d6e7f8a9b0c' });
    const rows = readAudit(db, { limit: 3 });
    expect(readAudit(db, { limit: 100000 }).length).toBe(before + 3);
    expect(rows.map((r) => [r.agent_id, r.scope_level, r.tool_called, r.outcome])).toEqual([
      ['anonymous', 'none', 'status', 'denied'], ['task-addon', 'project', 'collection_map', 'denied'], ['ecosystem', 'collection', 'symbols', 'ok']]);
    expect(rows[2].result_count).toBeGreaterThan(0);
    const all = JSON.stringify(db.prepare('SELECT * FROM audit_log').all());
    for (const s of [admin, task, eco]) expect(all).not.toContain(s);
  });
});

describe('revocation and lookups by agent', () => {
  it('revoke_scope by agent id removes every session of that agent', () => {
    createScope(db, { agentId: 'twice', level: 'global' });
    createScope(db, { agentId: 'twice', level: 'global' });
    expect(revokeScope(db, { agentId: 'twice' }).revoked).toBe(2);
  });
});
