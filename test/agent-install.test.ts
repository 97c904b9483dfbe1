import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLIENT_IDS, clientDecls, type ClientId, type Scope } from '../src/agents/clients.js';
import { install, uninstall } from '../src/agents/install.js';
import { searchWords } from '../src/agents/claude-hooks.js';
import { CG, indexedRepo, makeRepo, runCg, tempDir } from './helpers.js';

// Every test here writes user-scoped files under a temporary HOME, never the real one.
const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, XDG_STATE_HOME: process.env.XDG_STATE_HOME, CODEX_HOME: process.env.CODEX_HOME };
let home: string;
beforeAll(() => {
  home = tempDir('cg-home-');
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
  delete process.env.XDG_STATE_HOME;
  delete process.env.CODEX_HOME;
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** Parses a client's file in that client's own format (strict JSON where the client reads strict JSON). */
function parseAs(client: ClientId, file: string): any {
  const text = fs.readFileSync(file, 'utf8');
  const d = clientDecls()[client];
  if (d.format === 'toml') return parseToml(text);
  if (d.format === 'yaml-file') return parseYaml(text);
  if (client === 'vscode' || client === 'zed') {
    const errors: any[] = [];
    const v = parseJsonc(text, errors, { allowTrailingComma: true });
    expect(errors).toEqual([]);
    return v;
  }
  return JSON.parse(text);
}

/** The entry cg wrote, read back from the parsed file. */
function entryOf(client: ClientId, doc: any): any {
  if (client === 'continue') return doc.mcpServers.find((s: any) => s.name === 'cg');
  let v = doc;
  for (const k of clientDecls()[client].key) v = v?.[k];
  return v;
}

/** A file with the user's own entries, in the client's format (JSONC with comments where the client allows them). */
function userFile(client: ClientId): string {
  const d = clientDecls()[client];
  if (d.format === 'toml') return '# my settings\nmodel = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-server"\nargs = ["--port", "1"]\n';
  if (d.format === 'yaml-file') return '';
  const other = { [d.key[1] === 'cg' ? 'docs' : 'docs']: { command: 'docs-server', args: ['--port', '1'] } };
  const body = JSON.stringify({ theme: 'dark', [d.key[0]]: other }, null, 4);
  return client === 'vscode' || client === 'zed' ? `// my settings\n${body.replace(/\n}$/, ',\n}')}\n` : `${body}\n`;
}

const cases: { client: ClientId; scope: Scope }[] = CLIENT_IDS.flatMap((client) =>
  (Object.keys(clientDecls()[client].scopes) as Scope[]).map((scope) => ({ client, scope })));

describe('cg install / uninstall, per client and scope', () => {
  it('covers the nine clients', () => {
    expect(new Set(cases.map((c) => c.client)).size).toBe(9);
  });

  for (const { client, scope } of cases) {
    it(`${client} (${scope}): written in the client's format, idempotent, undone byte for byte`, () => {
      const root = makeRepo({ 'a.py': 'def a():\n    pass\n' }, { git: true });
      const res0 = install({ client, scope, root, dryRun: true });
      const file = res0.changes[0].file;
      expect(fs.existsSync(file)).toBe(false); // a dry run writes nothing
      const original = userFile(client);
      if (original) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, original);
      }
      const first = install({ client, scope, root });
      expect(first.changes[0].action).toBe(original ? 'update' : 'create');
      const doc = parseAs(client, file);
      const entry = entryOf(client, doc);
      expect(entry.command).toBe('cg');
      expect(entry.args[0]).toBe('serve');
      const repoArg = clientDecls()[client].scopes[scope]!.repoArg;
      expect(entry.args.slice(1)).toEqual(repoArg === 'cwd' ? [] : repoArg === 'workspace' ? ['${workspaceFolder}'] : [root]);
      if (scope === 'project') expect(fs.readFileSync(file, 'utf8')).not.toContain(root); // no machine path in a shared file
      if (client === 'vscode') expect(entry.type).toBe('stdio');
      if (original && client !== 'continue') {
        // The user's own entries are still there.
        const docs = client === 'codex' ? doc.mcp_servers.docs : doc[clientDecls()[client].key[0]].docs;
        expect(docs.command).toBe('docs-server');
      }
      const bytes = fs.readFileSync(file);
      const again = install({ client, scope, root });
      expect(again.changes[0].action).toBe('unchanged');
      expect(fs.readFileSync(file).equals(bytes)).toBe(true);

      const undone = uninstall({ client, scope, root });
      expect(undone.changes[0].action).toBe('restore');
      if (original) expect(fs.readFileSync(file, 'utf8')).toBe(original);
      else {
        expect(fs.existsSync(file)).toBe(false);
        // the folders cg made for the file are gone too (the repository and the home folder stay)
        if (scope === 'project') expect(fs.readdirSync(root).sort()).toEqual(['.git', 'a.py']);
      }
      expect(uninstall({ client, scope, root }).changes[0].action).toBe('absent');
    });
  }

  it('a file edited since the install loses only cg\'s entry, and a replaced entry comes back', () => {
    const root = makeRepo({}, { git: true });
    fs.writeFileSync(path.join(root, '.mcp.json'), JSON.stringify({ mcpServers: { cg: { command: 'old-cg', args: [] } } }, null, 2));
    install({ client: 'claude', scope: 'project', root, toolsets: ['all'] });
    const file = path.join(root, '.mcp.json');
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers.cg.args).toEqual(['serve', '--toolsets', 'all']);
    const edited = JSON.parse(fs.readFileSync(file, 'utf8'));
    edited.mcpServers.mine = { command: 'mine' };
    fs.writeFileSync(file, JSON.stringify(edited, null, 2));
    const res = uninstall({ client: 'claude', scope: 'project', root });
    expect(res.changes[0].action).toBe('remove');
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers).toEqual({ cg: { command: 'old-cg', args: [] }, mine: { command: 'mine' } });
  });

  it('a TOML file edited since keeps the user\'s tables', () => {
    const root = makeRepo({}, { git: true });
    install({ client: 'codex', scope: 'project', root });
    const file = path.join(root, '.codex', 'config.toml');
    fs.appendFileSync(file, '\n[mcp_servers.mine]\ncommand = "mine"\n');
    uninstall({ client: 'codex', scope: 'project', root });
    expect(parseToml(fs.readFileSync(file, 'utf8'))).toEqual({ mcp_servers: { mine: { command: 'mine' } } });
  });

  it('refuses what it cannot do safely: a broken file, machine paths in a shared file, a scope the client lacks', () => {
    const root = makeRepo({ '.cursor/mcp.json': '{ "mcpServers": { ' }, { git: true });
    expect(() => install({ client: 'cursor', scope: 'project', root })).toThrow(/not valid JSON/);
    expect(fs.readFileSync(path.join(root, '.cursor/mcp.json'), 'utf8')).toBe('{ "mcpServers": { ');
    expect(() => install({ client: 'claude', scope: 'project', root, absolute: true })).toThrow(/shared with the team/);
    expect(() => install({ client: 'windsurf', scope: 'project', root })).toThrow(/no project-scoped/);
    const r = runCg(['install', 'nope'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown client');
    expect(runCg(['install', 'windsurf', '--scope', 'project'], root).code).toBe(2);
  });

  it('--absolute (user scope) runs this Node and this checkout by path', () => {
    const root = makeRepo({}, { git: true });
    const res = install({ client: 'gemini', scope: 'user', root, absolute: true });
    const entry = JSON.parse(fs.readFileSync(res.changes[0].file, 'utf8')).mcpServers.cg;
    expect(entry.command).toBe(process.execPath);
    expect(entry.args.slice(0, 2)).toEqual([CG, 'serve']);
    uninstall({ client: 'gemini', scope: 'user', root });
  });
});

describe('Claude Code hooks', () => {
  it('are added next to the user\'s own hooks and removed exactly', () => {
    const root = makeRepo({}, { git: true });
    const settings = path.join(root, '.claude', 'settings.json');
    const original = `${JSON.stringify({ permissions: { allow: ['Bash(ls)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit' }] }] } }, null, 2)}\n`;
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    fs.writeFileSync(settings, original);
    const res = install({ client: 'claude', scope: 'project', root, hooks: true });
    expect(res.changes.map((c) => [c.part, c.action])).toEqual([['mcp', 'create'], ['hooks', 'update']]);
    const s = JSON.parse(fs.readFileSync(settings, 'utf8'));
    expect(s.hooks.PreToolUse.map((g: any) => g.matcher)).toEqual(['Bash', 'Grep|Glob']);
    expect(s.hooks.SessionStart[0].hooks[0].command).toContain('cg hook session-start');
    expect(s.hooks.PostToolUse.map((g: any) => [g.matcher, g.hooks[0].command])).toEqual([['Edit|MultiEdit|Write|NotebookEdit',
      'command -v cg >/dev/null 2>&1 && cg hook post-edit || true']]);
    expect(install({ client: 'claude', scope: 'project', root, hooks: true }).changes.every((c) => c.action === 'unchanged')).toBe(true);
    uninstall({ client: 'claude', scope: 'project', root });
    expect(fs.readFileSync(settings, 'utf8')).toBe(original);
    expect(fs.existsSync(path.join(root, '.mcp.json'))).toBe(false);
  });

  it('reads search words from Grep and Glob patterns', () => {
    expect(searchWords('def\\s+parse_file\\(')).toEqual(['parse_file']);
    expect(searchWords('getUser|fetchUser')).toEqual(['getUser', 'fetchUser']);
  });

  describe('the hook commands, as Claude Code runs them', () => {
    let root: string;
    beforeAll(() => {
      root = indexedRepo('python');
    });
    const hook = (event: string, input: unknown, cwd: string) =>
      spawnSync(process.execPath, [CG, 'hook', event], { cwd, input: JSON.stringify(input), encoding: 'utf8', timeout: 60_000 });

    it('session-start gives the repository map as additional context', () => {
      const r = hook('session-start', { hook_event_name: 'SessionStart', cwd: root, source: 'startup' }, root);
      expect(r.status).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
      expect(out.hookSpecificOutput.additionalContext).toContain('shop/service.py');
    });

    it('pre-search names the definitions and places for a Grep pattern', () => {
      const r = hook('pre-search', { hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Grep', tool_input: { pattern: 'def create_product' } }, root);
      expect(r.status).toBe(0);
      const ctx = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
      expect(ctx).toMatch(/shop\/service\.py:31\s+function create_product/);
    });

    it('post-edit records the file the agent edited, and the index follows it before any commit', async () => {
      const file = path.join(root, 'shop', 'edited_by_agent.py');
      fs.writeFileSync(file, 'def written_by_the_agent():\n    return 1\n');
      const r = hook('post-edit', { hook_event_name: 'PostToolUse', cwd: root, tool_name: 'Write', tool_input: { file_path: file, content: '' } }, root);
      expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
      expect(fs.readFileSync(path.join(root, '.codegraph', 'wal', 'changes.log'), 'utf8')).toContain('"paths":["shop/edited_by_agent.py"]');
      // The background applier it started (no warm applier runs here) applies the record.
      const end = Date.now() + 60_000;
      while (!runCg(['symbols', 'written_by_the_agent'], root).stdout.includes('shop/edited_by_agent.py')) {
        if (Date.now() > end) throw new Error('the edit never reached the index');
        await new Promise((res) => setTimeout(res, 100));
      }
      // A file outside the repository is not recorded.
      const before = fs.readFileSync(path.join(root, '.codegraph', 'wal', 'changes.log'), 'utf8');
      const outside = hook('post-edit', { cwd: root, tool_input: { file_path: path.join(tempDir('cg-elsewhere-'), 'a.py') } }, root);
      expect([outside.status, outside.stdout]).toEqual([0, '']);
      expect(fs.readFileSync(path.join(root, '.codegraph', 'wal', 'changes.log'), 'utf8')).toBe(before);
    });

    it('prints nothing and exits 0 without an index or with bad input', () => {
      const bare = makeRepo({ 'x.py': 'pass\n' }, { git: true });
      for (const [event, input] of [['session-start', { cwd: bare }], ['pre-search', 'not json'], ['post-edit', 'not json'],
        ['post-edit', { cwd: bare, tool_input: { file_path: path.join(bare, 'x.py') } }]] as const) {
        const r = spawnSync(process.execPath, [CG, 'hook', event], { cwd: bare, input: typeof input === 'string' ? input : JSON.stringify(input), encoding: 'utf8' });
        expect([r.status, r.stdout]).toEqual([0, '']);
      }
    });
  });
});

describe('a written entry starts a working server', () => {
  // `cg` from PATH, as the client would run it: a shim in a temporary bin folder.
  let bin: string;
  let root: string;
  beforeAll(() => {
    bin = tempDir('cg-bin-');
    fs.writeFileSync(path.join(bin, 'cg'), `#!/bin/sh\nexec '${process.execPath}' '${CG}' "$@"\n`, { mode: 0o755 });
    root = indexedRepo('python');
  });

  for (const client of ['claude', 'vscode'] as const) {
    it(`${client}: the client's command, in the client's working directory, answers tools/list`, async () => {
      const res = install({ client, scope: 'project', root });
      const entry = entryOf(client, parseAs(client, res.changes[0].file));
      // What the client does: expand ${workspaceFolder}, start the command in the project folder.
      const args = (entry.args as string[]).map((a) => a.replace('${workspaceFolder}', root));
      const transport = new StdioClientTransport({ command: entry.command, args, cwd: root, env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` } as Record<string, string>, stderr: 'ignore' });
      const mcp = new Client({ name: 'cg-install-test', version: '0.0.1' });
      await mcp.connect(transport);
      try {
        const { tools } = await mcp.listTools();
        expect(tools.map((t) => t.name)).toContain('tests_for');
      } finally {
        await mcp.close();
        uninstall({ client, scope: 'project', root });
      }
    }, 60_000);
  }
});
