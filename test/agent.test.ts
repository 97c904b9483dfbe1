import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CG, git, makeRepo, runCg, tempDir, until } from './helpers.js';
import { ADDON, CORE } from './registry-fixtures.js';
import { openRegistry } from '../src/registry/db.js';
import { listJobs } from '../src/registry/jobs.js';
import { requireProject } from '../src/registry/projects.js';
import { openReader } from '../src/store/db.js';
import { dumpIndex } from '../src/store/dump.js';
import { buildIndex } from '../src/indexer/build.js';

/**
 * `cg agent` as a real process: MCP over Streamable HTTP for several clients at once, the heartbeat and
 * health metrics, the watcher applying an edit, and kill -9 in the middle of indexing.
 */
interface Agent {
  proc: ChildProcess;
  url: Promise<string | null>;
  stderr: string[];
}

const agents: Agent[] = [];

function startAgent(home: string, args: string[]): Agent {
  const proc = spawn(process.execPath, [CG, 'agent', ...args], { env: { ...process.env, CG_HOME: home, CG_DEBUG: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr: string[] = [];
  const url = new Promise<string | null>((resolve) => {
    proc.stderr!.on('data', (d) => {
      stderr.push(String(d));
      const m = /cg agent: .*?(?:MCP at (http\S+))?; registry/.exec(stderr.join(''));
      if (m) resolve(m[1] ?? null);
    });
    proc.on('exit', () => resolve(null));
  });
  const a = { proc, url, stderr };
  agents.push(a);
  return a;
}

async function stop(a: Agent, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (a.proc.exitCode !== null || a.proc.signalCode) return;
  const exited = new Promise((resolve) => a.proc.once('exit', resolve));
  a.proc.kill(signal);
  await exited;
}

afterAll(async () => {
  for (const a of agents) await stop(a, 'SIGKILL');
});


describe('cg agent serving MCP over HTTP', () => {
  it('serves several agents at once, each under its own session, watches projects and keeps a heartbeat', async () => {
    const home = tempDir('cg-home-agent-');
    const env = { ...process.env, CG_HOME: home };
    const core = makeRepo(CORE, { commit: true });
    const addon = makeRepo(ADDON, { commit: true });
    expect(runCg(['project', 'add', core, '--name', 'core', '--collection', 'pm'], core, { env }).code).toBe(0);
    expect(runCg(['project', 'add', addon, '--name', 'addon', '--collection', 'pm'], addon, { env }).code).toBe(0);
    const task = runCg(['scope', 'create', 'task-core', '--level', 'project', '--project', 'core'], core, { env }).stdout.trim();
    const eco = runCg(['scope', 'create', 'eco', '--level', 'collection', '--collection', 'pm'], core, { env }).stdout.trim();
    const agent = startAgent(home, ['--http', '0', '--heartbeat', '1', '--debounce', '100']);
    const url = (await agent.url)!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

    // Two clients at once: one sends its session as a header, the other in each call.
    const a = new Client({ name: 'a', version: '1' });
    const b = new Client({ name: 'b', version: '1' });
    await a.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'X-CG-Session': task } } }));
    await b.connect(new StreamableHTTPClientTransport(new URL(url)));
    const [sa, sb] = await Promise.all([
      a.callTool({ name: 'status', arguments: {} }),
      b.callTool({ name: 'status', arguments: { session_id: eco } }),
    ]);
    expect((sa.structuredContent as any).projects.map((p: any) => p.name)).toEqual(['core']);
    expect((sb.structuredContent as any).projects.map((p: any) => p.name)).toEqual(['addon', 'core']);
    const map = await b.callTool({ name: 'collection_map', arguments: { session_id: eco } });
    expect((map.structuredContent as any).graph_json.edges).toEqual([expect.objectContaining({ from: 'addon', to: 'core', type: 'hooks_into' })]);
    expect((await a.callTool({ name: 'collection_map', arguments: {} })).isError).toBe(true);
    await a.close();
    await b.close();

    // A page in a browser reaching the port through another host name is refused (DNS rebinding).
    const port = Number(new URL(url).port);
    const status = await new Promise<number>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: 'attacker.example:80', 'content-type': 'application/json' } },
        (res) => resolve(res.statusCode ?? 0));
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }));
    });
    expect(status).toBe(403);
    const health = await (await fetch(`http://127.0.0.1:${port}/health`)).json() as any;
    expect(health).toMatchObject({ status: 'healthy', projects_count: 2, watching: 2 });

    // The heartbeat file, rewritten every second.
    const beat = path.join(home, 'agent.heartbeat.json');
    const first = JSON.parse(fs.readFileSync(beat, 'utf8'));
    expect(first).toMatchObject({ pid: agent.proc.pid, projects_count: 2, stale_count: 0, http: url });
    await until('a newer heartbeat', () => JSON.parse(fs.readFileSync(beat, 'utf8')).last_alive > first.last_alive);

    // An edit in a watched project goes through its change log into its index.
    fs.writeFileSync(path.join(core, 'includes', 'extra.php'), '<?php\nfunction pum_freshly_added() { do_action( "pum_fresh" ); }\n');
    await until('the watcher to apply the edit', () => {
      const db = openReader(core);
      try {
        return db.prepare("SELECT 1 FROM symbols WHERE name = 'pum_freshly_added'").get();
      } finally {
        db.close();
      }
    });
    expect(fs.readFileSync(path.join(core, '.codegraph', 'wal', 'changes.log'), 'utf8')).toContain('extra.php');

    // The project's git hooks leave their records to the agent, which announced itself there
    // (src/indexer/warm-applier.ts): a commit that changes no file reaches the index through the change log alone.
    const note = path.join(core, '.codegraph', 'warm-applier.json');
    expect(JSON.parse(fs.readFileSync(note, 'utf8'))).toMatchObject({ pid: agent.proc.pid, command: 'cg agent' });
    expect(runCg(['hooks', 'install'], core, { env }).code).toBe(0);
    git(core, 'commit', '-q', '--allow-empty', '-m', 'empty');
    const head = git(core, 'rev-parse', 'HEAD');
    await until('the agent to apply the commit', () => JSON.parse(runCg(['status', '--json'], core, { env }).stdout).freshness.indexedCommit === head);
    const appliers = fs.readFileSync(path.join(core, '.codegraph', 'applier.log'), 'utf8').split('\n').filter((l) => l.includes(' start'));
    expect(appliers.at(-1), 'applied in the agent, not by a process the hook started').toContain(`pid=${agent.proc.pid} `);
    await stop(agent);
    expect(agent.proc.exitCode).toBe(0);
    expect(fs.existsSync(path.join(home, 'agent.lock'))).toBe(false);
    expect(fs.existsSync(note), 'the announcement is taken back').toBe(false);
  });
});

describe('crash recovery', () => {
  it('kill -9 of the agent mid-indexing: the restarted agent resumes the job and the index equals a clean build', async () => {
    const home = tempDir('cg-home-crash-');
    const env = { ...process.env, CG_HOME: home };
    const files: Record<string, string> = {};
    for (let i = 0; i < 160; i++) {
      files[`pkg${i % 10}/mod${i}.py`] = Array.from({ length: 25 }, (_, j) =>
        `def f${i}_${j}(x):\n    """Step ${j} of module ${i}."""\n    return f${i}_${(j + 1) % 25}(x) + ${j}\n`).join('\n');
    }
    const repo = makeRepo(files, { commit: true });
    expect(runCg(['project', 'add', repo, '--name', 'big', '--no-index'], repo, { env }).code).toBe(0);
    const first = startAgent(home, ['--no-http', '--heartbeat', '1']);
    const db = openRegistry(home);
    try {
      await until('the job to start', () => listJobs(db).find((j) => j.status === 'in_progress'));
      // Into the build itself: its database exists but is not published yet.
      await until('the build to be under way', () => fs.existsSync(path.join(repo, '.codegraph', 'builds')), 30_000);
      await stop(first, 'SIGKILL');
      expect(first.proc.signalCode).toBe('SIGKILL');
      // Killed mid-job: the job and the project still say so.
      const left = listJobs(db)[0];
      expect(left.status).toBe('in_progress');
      expect(requireProject(db, 'big').status).toBe('indexing');
      const second = startAgent(home, ['--no-http', '--heartbeat', '1']);
      await until('the job to complete', () => listJobs(db).find((j) => j.id === left.id && j.status === 'completed'));
      expect(requireProject(db, 'big').status).toBe('indexed');
      expect(second.stderr.join('')).toContain('resuming 1 job(s)');
      await stop(second);
    } finally {
      db.close();
    }
    const clean = tempDir('cg-clean-');
    fs.cpSync(repo, clean, { recursive: true, filter: (src) => !src.includes(`${path.sep}.codegraph`) });
    await buildIndex(clean);
    const [x, y] = [openReader(repo), openReader(clean)];
    try {
      expect(dumpIndex(x)).toEqual(dumpIndex(y));
    } finally {
      x.close();
      y.close();
    }
  });
});
