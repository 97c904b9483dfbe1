import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../src/indexer/build.js';
import { openReader } from '../src/store/db.js';
import { dumpIndex } from '../src/store/dump.js';
import { runQuery } from '../src/retrieve/query.js';
import { buildContext } from '../src/retrieve/context.js';
import { createServer } from '../src/mcp/server.js';
import { readContained } from '../src/repo/contained.js';
import { appendRecord } from '../src/changes/log.js';
import { makeRepo, runCg, tempDir } from './helpers.js';

// Promise 6, "paths outside the repo (refused)", at answer time as at index time: a file or folder
// swapped for a symbolic link after the index was built is never read through it.

const OUTSIDE = 'OUTSIDE_MARKER root:x:0:0';
const INSIDE = 'INSIDE_MARKER';

/** The same function names as the indexed file, on the same lines: what a swap would show if it were followed. */
const lookalike = (marker: string) => `def refresh_session_token(session):\n    return "${marker}"\n\n\ndef expire_session_token(session):\n    return "${marker}"\n`;

describe('a file or folder swapped for a symbolic link after indexing', () => {
  let root: string;
  let outside: string;
  const task = 'refresh the session token before it expires';

  beforeAll(async () => {
    root = makeRepo({
      'auth/session.py': 'def refresh_session_token(session):\n    session.token = new_token()\n    return session\n\n\n'
        + 'def expire_session_token(session):\n    session.token = None\n    return session\n',
      'auth/tokens.py': 'from auth.session import refresh_session_token\n\ndef new_token():\n    return "t"\n',
      // Inside the repository but not indexed (a vendored folder): its text can only come through a link.
      'vendor/lib/session.py': lookalike(INSIDE),
    }, { commit: true });
    outside = tempDir('cg-outside-');
    fs.writeFileSync(path.join(outside, 'session.py'), lookalike(OUTSIDE));
    await buildIndex(root);
  });

  /** Swaps `rel` for a link to `target` while `body` runs, then puts the original back. */
  async function swapped(rel: string, target: string, body: () => Promise<void>): Promise<void> {
    const abs = path.join(root, rel);
    const kept = `${abs}.kept`;
    fs.renameSync(abs, kept);
    fs.symlinkSync(target, abs);
    try {
      await body();
    } finally {
      fs.rmSync(abs);
      fs.renameSync(kept, abs);
    }
  }

  /** Every way an answer reads a file: query snippets, the context bundle, and both MCP tools. */
  async function answers(): Promise<{ text: string; warnings: string[]; each: string[][] }> {
    const db = openReader(root);
    const server = createServer(root);
    try {
      const q = await runQuery(db, root, { text: task, snippets: true, cursorFile: 'auth/tokens.py' });
      const c = await buildContext(db, root, { text: task });
      const mq = await server.call('codegraph_query', { query: task, cursor_file: 'auth/tokens.py', include_snippets: true });
      const mc = await server.call('get_context', { query: task });
      for (const m of [mq, mc]) expect(m.isError, JSON.stringify(m.structuredContent)).toBeFalsy();
      expect(q.files.map((f) => f.path)).toContain('auth/session.py'); // the place is still answered, without its source
      const bodies = [q, c, mq.structuredContent, mc.structuredContent] as { warnings?: string[] }[];
      return { text: JSON.stringify(bodies), warnings: bodies.flatMap((b) => b.warnings ?? []), each: bodies.map((b) => b.warnings ?? []) };
    } finally {
      server.live.close();
      db.close();
    }
  }

  it('reads the real files before any swap (the check itself hides nothing)', async () => {
    const { text, warnings } = await answers();
    expect(text).toContain('session.token = new_token()');
    expect(warnings.filter((w) => w.includes('was not read'))).toEqual([]);
  });

  it('a file linked to a file outside the repository', async () => {
    await swapped('auth/session.py', path.join(outside, 'session.py'), async () => {
      const { text, each } = await answers();
      expect(text).not.toContain('OUTSIDE_MARKER');
      // Every answer says why (query, context, and both MCP tools).
      for (const warnings of each) {
        expect(warnings).toContain('auth/session.py was not read: it is reached through a symbolic link to a path outside the repository');
      }
    });
  });

  it('a file linked to another file inside the repository', async () => {
    await swapped('auth/session.py', path.join(root, 'vendor', 'lib', 'session.py'), async () => {
      const { text, warnings } = await answers();
      expect(text).not.toContain(INSIDE);
      expect(warnings).toContain('auth/session.py was not read: it is reached through a symbolic link (to vendor/lib/session.py)');
    });
  });

  it('a folder linked to a folder outside the repository', async () => {
    await swapped('auth', outside, async () => {
      fs.writeFileSync(path.join(outside, 'tokens.py'), `def new_token():\n    return "${OUTSIDE}"\n`);
      const { text, warnings } = await answers();
      expect(text).not.toContain('OUTSIDE_MARKER');
      expect(warnings).toContain('auth/session.py was not read: it is reached through a symbolic link to a path outside the repository');
    });
  });

  it('a folder linked to a folder inside the repository', async () => {
    await swapped('auth', path.join(root, 'vendor', 'lib'), async () => {
      const { text, warnings } = await answers();
      expect(text).not.toContain(INSIDE);
      expect(warnings).toContain('auth/session.py was not read: it is reached through a symbolic link (to vendor/lib/session.py)');
    });
  });

  it('a file edited since indexing is read, with a note; one that became binary is not', async () => {
    const file = path.join(root, 'auth', 'session.py');
    const original = fs.readFileSync(file);
    try {
      fs.writeFileSync(file, `# edited\n${original}`);
      const edited = await answers();
      expect(edited.text).toContain('session.token = new_token()');
      expect(edited.warnings).toContain('auth/session.py changed since it was indexed: its line numbers may have moved (`cg update` indexes it again)');
      fs.writeFileSync(file, Buffer.concat([original, Buffer.from([0, 1, 2])]));
      const binary = await answers();
      expect(binary.text).not.toContain('session.token = new_token()');
      expect(binary.warnings).toContain('auth/session.py was not read: it changed since it was indexed and is binary now');
    } finally {
      fs.writeFileSync(file, original);
    }
  });

  it('through the cg process: query --snippets --cursor-file and context', async () => {
    await swapped('auth/session.py', path.join(outside, 'session.py'), async () => {
      for (const args of [['query', task, '--snippets', '--cursor-file', 'auth/tokens.py'], ['context', task]]) {
        const res = runCg(args, root);
        expect(res.code, res.stderr).toBe(0);
        expect(res.stdout).not.toContain('OUTSIDE_MARKER');
        expect(res.stdout).toContain('warning: auth/session.py was not read: it is reached through a symbolic link to a path outside');
      }
    });
  });
});

describe('indexing through a linked folder', () => {
  let root: string;
  let outside: string;

  beforeAll(() => {
    root = makeRepo({ 'pkg/a.py': 'def alpha():\n    return 1\n' }, { commit: true });
    outside = tempDir('cg-outside-dir-');
    fs.writeFileSync(path.join(outside, 'leak.py'), 'def leaked_from_outside():\n    return 1\n');
    expect(runCg(['index', '-q'], root).code).toBe(0);
    fs.writeFileSync(path.join(root, '.codegraph', 'config.json'), JSON.stringify({ hooks: { autoApply: false } }));
  });

  afterAll(() => fs.rmSync(path.join(root, 'linked'), { force: true }));

  it('cg notify and cg update store nothing reached through a folder link to outside, as a full build', async () => {
    fs.symlinkSync(outside, path.join(root, 'linked'));
    fs.writeFileSync(path.join(root, 'pkg/b.py'), 'def beta():\n    return alpha()\n');
    // Named to cg notify: refused, with the reason.
    const refused = runCg(['notify', 'linked/leak.py', '--json'], root);
    expect(refused.code).toBe(2);
    expect(refused.json.error.message).toMatch(/^linked\/leak\.py is reached through a symbolic link to a path outside the repository/);
    // Named in the change log anyway (a record written by another tool): the update leaves it out.
    expect(runCg(['notify', 'pkg/b.py'], root).code).toBe(0);
    appendRecord(root, { v: 1, event: 'save', paths: ['linked/leak.py'], at: 0 });
    const round = runCg(['update', '--json'], root).json.rounds[0];
    expect(round).toMatchObject({ mode: 'incremental', added: 1 });
    expect(runCg(['symbols', 'leaked_from_outside', '--json'], root).json.total).toBe(0);
    expect(runCg(['symbols', 'beta', '--json'], root).json.total).toBe(1);
    // The same index as a full build of the same tree, which never enters a linked folder.
    const updated = openReader(root);
    const dump = JSON.stringify(dumpIndex(updated));
    updated.close();
    const fresh = tempDir('cg-fresh-link-');
    fs.cpSync(root, fresh, { recursive: true, verbatimSymlinks: true, filter: (src) => !src.includes('.codegraph') });
    await buildIndex(fresh);
    const built = openReader(fresh);
    expect(dump).toBe(JSON.stringify(dumpIndex(built)));
    built.close();
  });

  it('module manifests are read through the same check, and a probe under a file is a miss, not a failure', async () => {
    // The TypeScript resolver looks for `keys.json/package.json` (an import may name a folder).
    // And go.mod is a link to another module's: its module path must not be the one imports resolve against.
    const repo = makeRepo({ 'src/a.ts': "import keys from './keys.json';\nexport const k = keys;\n", 'src/keys.json': '{}\n',
      'pkg/p.go': 'package pkg\n\nfunc P() int { return 1 }\n',
      'main.go': 'package main\n\nimport "example.com/outside/pkg"\n\nfunc main() { pkg.P() }\n' });
    const elsewhere = tempDir('cg-outside-mod-');
    fs.writeFileSync(path.join(elsewhere, 'go.mod'), 'module example.com/outside\n');
    fs.symlinkSync(path.join(elsewhere, 'go.mod'), path.join(repo, 'go.mod'));
    const summary = await buildIndex(repo);
    expect(summary.files).toBe(4); // three code files and src/keys.json, a document
    const db = openReader(repo);
    const resolution = db.prepare("SELECT resolution FROM imports WHERE module = 'example.com/outside/pkg'").pluck().get();
    db.close();
    expect(resolution).not.toBe('internal');
  });

  it('a file reached through a linked folder is refused by the read itself', () => {
    const read = readContained(root, 'linked/leak.py', 1_000_000);
    expect(read).toMatchObject({ ok: false, reason: 'outside' });
    expect(readContained(root, '../x.py', 1_000_000)).toMatchObject({ ok: false, reason: 'outside' });
    expect(readContained(root, 'pkg/a.py', 1_000_000)).toMatchObject({ ok: true });
    expect(readContained(root, 'pkg/a.py', 5)).toMatchObject({ ok: false, reason: 'too_large' });
  });
});
