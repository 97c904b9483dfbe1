import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { documentFormatOf } from '../src/extract/documents/formats.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, listedTool, type ServerHandle } from '../src/mcp/server.js';
import { Allowlist } from '../src/secrets/allowlist.js';
import { ruleSet } from '../src/secrets/rules.js';
import { scanSecrets } from '../src/secrets/scan.js';
import { git, makeRepo, ROOT, runCg, tempDir } from './helpers.js';

/**
 * The acceptance test of issue 21: cg's own corpus (fixtures/secrets-corpus.json, written by
 * scripts/make-secrets-corpus.mjs: one or more examples of every rule, in strings, comments,
 * docstrings, default arguments and test files of cg's languages) is indexed, and then no secret,
 * nor any 8-character piece of one, is in any CLI answer, any MCP tool's answer, the SQLite files,
 * the vector files or a snapshot archive. Each example is also checked against its rule alone, so
 * taking a rule out of the set fails here, and a rule without an example fails too.
 */
interface Entry {
  rule: string;
  file: string;
  function: string | null;
  secret_reversed: string;
}

const corpus = JSON.parse(fs.readFileSync(path.join(ROOT, 'fixtures', 'secrets-corpus.json'), 'utf8')) as {
  files: { path: string; text_reversed: string }[];
  secrets: Entry[];
};
const reverse = (s: string) => [...s].reverse().join('');
const files = Object.fromEntries(corpus.files.map((f) => [f.path, reverse(f.text_reversed)]));
const secrets = corpus.secrets.map((e) => ({ ...e, secret: reverse(e.secret_reversed) }));
const FRAGMENT = 8;

/**
 * The pieces whose presence means a leak: every 8-character piece of every secret (lower-cased: the
 * search terms are), less the pieces the corpus also holds outside its secrets (a PEM header, a
 * keyword) and those of rule ids (a redaction mark names its rule: `[REDACTED:age-secret-key]`).
 */
function leakPieces(): { pieces: Map<string, string>; whole: Map<string, string> } {
  const publicText: string[] = [ruleSet().rules.map((r) => r.id).join('\n')];
  for (const text of Object.values(files)) {
    let rest = text;
    for (const s of secrets) rest = rest.split(s.secret).join('\n');
    publicText.push(rest);
  }
  const known = new Set<string>();
  for (const t of publicText.map((x) => x.toLowerCase())) for (let i = 0; i + FRAGMENT <= t.length; i++) known.add(t.slice(i, i + FRAGMENT));
  const pieces = new Map<string, string>();
  const whole = new Map<string, string>();
  for (const s of secrets) {
    const low = s.secret.toLowerCase();
    if (low.length < FRAGMENT) whole.set(low, s.rule);
    for (let i = 0; i + FRAGMENT <= low.length; i++) {
      const p = low.slice(i, i + FRAGMENT);
      // Pieces across a line break or a space are layout and labels (`  Private-Lines: 1` of a PuTTY key),
      // not key material; every line of a multi-line key still gives its own pieces.
      if (!known.has(p) && !/\s/.test(p)) pieces.set(p, s.rule);
    }
  }
  return { pieces, whole };
}

const { pieces, whole } = leakPieces();

/** The leaks in a text: `rule: piece` for every piece of a secret it holds. */
function leaks(text: string): string[] {
  const low = text.toLowerCase();
  const out = new Set<string>();
  for (let i = 0; i + FRAGMENT <= low.length; i++) {
    const rule = pieces.get(low.slice(i, i + FRAGMENT));
    if (rule) out.add(`${rule}: ${low.slice(i, i + FRAGMENT)}`);
  }
  for (const [w, rule] of whole) if (low.includes(w)) out.add(`${rule}: ${w}`);
  return [...out];
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** The members of an uncompressed tar archive, as name and bytes. */
function tarMembers(tar: Buffer): { name: string; data: Buffer }[] {
  const out: { name: string; data: Buffer }[] = [];
  for (let at = 0; at + 512 <= tar.length;) {
    const name = tar.subarray(at, at + 100).toString('latin1').replace(/\0.*$/s, '');
    if (!name) break;
    const size = parseInt(tar.subarray(at + 124, at + 136).toString('latin1').replace(/\0.*$/s, '').trim() || '0', 8);
    out.push({ name, data: tar.subarray(at + 512, at + 512 + size) });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

describe('the secrets corpus', () => {
  it('has an example of every rule, and each rule alone finds its example where the corpus says', () => {
    const set = ruleSet();
    const covered = new Set(secrets.map((s) => s.rule));
    expect(set.rules.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
    const missed: string[] = [];
    for (const s of secrets) {
      const only = Allowlist.parse(set.rules.filter((r) => r.id !== s.rule).map((r) => `rule:${r.id}`).join('\n'));
      const text = files[s.file];
      const found = scanSecrets(s.file, text, only).map((f) => text.slice(f.start, f.end));
      if (!found.includes(s.secret)) missed.push(`${s.rule} in ${s.file}`);
    }
    expect(missed).toEqual([]);
  });
});

describe('after indexing the corpus, no secret nor any 8-character piece of one comes out', () => {
  let root: string;
  let server: ServerHandle;
  const codeFiles = Object.keys(files).filter((p) => p.startsWith('src/') || p.startsWith('tests/'));
  // Configuration files in a document format (Kubernetes YAML) are indexed too, as documents.
  const indexedFiles = Object.keys(files).filter((p) => codeFiles.includes(p) || documentFormatOf(p) !== null);

  beforeAll(() => {
    root = makeRepo(files, { commit: true });
    const res = runCg(['index', '--json', '-q'], root);
    expect(res.code, res.stderr).toBe(0);
    server = createServer(root, { toolsets: ['all'] });
  }, 120_000);

  afterAll(() => server?.live.close());

  it('indexes every code and document file of the corpus (redacted, none left out) and lists each finding', () => {
    const status = runCg(['status', '--json'], root);
    expect(status.code).toBe(0);
    expect(indexedFiles.length).toBeGreaterThan(codeFiles.length);
    expect(status.json.files.indexed).toBe(indexedFiles.length);
    expect(status.json.excludedSecrets).toEqual([]);
    const redacted = new Set(status.json.redactedSecrets.map((r: { path: string }) => r.path));
    expect(indexedFiles.filter((f) => !redacted.has(f))).toEqual([]);
    expect(leaks(status.stdout)).toEqual([]);
  });

  it('in the SQLite files, their full-text terms and the vector files', () => {
    const cg = path.join(root, '.codegraph');
    const stored = filesUnder(cg);
    expect(stored.some((f) => f.endsWith('.usearch'))).toBe(true);
    expect(stored.some((f) => f.endsWith('.db'))).toBe(true);
    for (const f of stored) expect([path.relative(root, f), leaks(fs.readFileSync(f).toString('latin1'))]).toEqual([path.relative(root, f), []]);
    // FTS5 compresses its terms; read them back whole.
    const current = fs.readFileSync(path.join(cg, 'CURRENT'), 'utf8').trim();
    const db = new Database(path.join(cg, 'builds', current, 'index.db'), { readonly: true });
    try {
      db.exec("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, 'symbol_fts', 'row')");
      const terms = db.prepare('SELECT term FROM temp.vocab').pluck().all() as string[];
      expect(terms.length).toBeGreaterThan(100);
      expect(leaks(terms.join('\n'))).toEqual([]);
      const postings = db.prepare('SELECT term FROM terms').pluck().all() as string[];
      expect(leaks(postings.join('\n'))).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('in every CLI answer', () => {
    const answers: [string, string][] = [];
    const ask = (args: string[]) => {
      const r = runCg(args, root);
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 0]);
      answers.push([args.join(' '), r.stdout + r.stderr]);
    };
    const task = 'configure the client with the api key, token, password and secret';
    ask(['query', task, '--snippets', '--budget', '200000', '--json']);
    ask(['query', task, '--snippets', '--budget', '200000']);
    ask(['context', task, '--budget', '200000', '--json']);
    ask(['context', task, '--budget', '200000']);
    ask(['symbols', 'cfg', '--json']);
    ask(['refs', secrets.find((s) => s.function)!.function!, '--json']);
    ask(['map', '--json']);
    ask(['map']);
    ask(['tests-for', ...codeFiles.flatMap((f) => ['--file', f]), '--json']);
    ask(['impact', ...codeFiles.flatMap((f) => ['--file', f]), '--json']);
    ask(['status', '--secret-rules']);
    // One file per language and kind (the MCP test reads every file through file_context, in-process).
    const sample = [...new Map(codeFiles.map((f) => [`${path.dirname(f)}${path.extname(f)}`, f])).values()];
    for (const f of sample) ask(['file', f, '--json']);
    for (const [what, text] of answers) expect([what, leaks(text)]).toEqual([what, []]);
    // The answers did show the redacted places, not just signatures.
    expect(answers.filter(([, t]) => t.includes('[REDACTED:')).length).toBeGreaterThan(3);
  }, 180_000);

  it('in every MCP tool\'s answer', async () => {
    // Every tool of every toolset, its arguments made from its own schema: the task for a query, a
    // function of the corpus for a symbol, the corpus files for files, the largest budget it takes.
    const task = 'configure the client with the api key, token, password and secret';
    const fn = secrets.find((s) => s.function)!.function!;
    const calls: [string, Record<string, unknown>][] = [];
    for (const tool of server.tools) {
      const schema = listedTool(tool).inputSchema as { properties?: Record<string, any>; required?: string[] };
      const args: Record<string, unknown> = {};
      let perFile: string | null = null;
      for (const [k, p] of Object.entries(schema.properties ?? {})) {
        const wanted = schema.required?.includes(k) || /budget|snippet|source|detailed|limit/.test(k);
        if (!wanted) continue;
        if (p.type === 'string') {
          if (/path|file/.test(k)) perFile = k;
          else args[k] = /symbol|name/.test(k) ? fn : task;
        } else if (p.type === 'array') args[k] = /file|path/.test(k) ? codeFiles : [fn];
        else if ((p.type === 'integer' || p.type === 'number') && p.maximum !== undefined) args[k] = p.maximum;
        else if (p.type === 'boolean') args[k] = true;
      }
      if (perFile) for (const f of codeFiles) calls.push([tool.name, { ...args, [perFile]: f }]);
      else calls.push([tool.name, args]);
    }
    const failed: string[] = [];
    let redactedShown = 0;
    for (const [name, args] of calls) {
      const res = await server.call(name, args);
      const text = JSON.stringify(res);
      if (res.isError) failed.push(`${name}: ${text.slice(0, 200)}`);
      if (text.includes('[REDACTED:')) redactedShown++;
      expect([name, leaks(text)]).toEqual([name, []]);
    }
    expect(new Set(calls.map(([n]) => n)).size).toBe(server.tools.length);
    expect(failed.length, failed.join('\n')).toBeLessThanOrEqual(calls.length / 10);
    expect(redactedShown).toBeGreaterThan(3);
  }, 180_000);

  it('in a snapshot archive, which verifies', () => {
    const out = tempDir('cg-snap-');
    const created = runCg(['snapshot', 'create', '--out', out, '--json'], root);
    expect(created.code, created.stderr).toBe(0);
    const tar = zlib.gunzipSync(fs.readFileSync(created.json.file));
    const members = tarMembers(tar);
    expect(members.some((m) => m.name.endsWith('.db'))).toBe(true);
    for (const m of members) expect([m.name, leaks(m.data.toString('latin1'))]).toEqual([m.name, []]);
    expect(runCg(['snapshot', 'verify', created.json.file, '--json'], root).code).toBe(0);
  }, 120_000);

  it('a snapshot whose database holds a credential is refused by verify', () => {
    // Indexed with its finding allowlisted, a default argument's credential is stored in the signature as it is.
    const token = secrets.find((x) => x.rule === 'github-pat')!.secret;
    const dir = makeRepo({ 'src/keys.py': `def connect(token="${token}"):\n    return token\n` }, { commit: true });
    runCg(['index', '-q'], dir);
    const fps = runCg(['status', '--json'], dir).json.redactedSecrets.map((r: { fingerprint: string }) => r.fingerprint);
    expect(fps).toHaveLength(1);
    fs.writeFileSync(path.join(dir, '.cgsecrets'), `${fps.join('\n')}\n`);
    git(dir, 'add', '.cgsecrets');
    git(dir, 'commit', '-qm', 'allow');
    expect(runCg(['index', '-q'], dir).code).toBe(0);
    const out = tempDir('cg-snap-');
    const created = runCg(['snapshot', 'create', '--out', out, '--json'], dir);
    expect(created.code, created.stderr).toBe(0);
    // With the repository's allowlist the findings are accepted; without it (the file alone) the snapshot is refused.
    expect(runCg(['snapshot', 'verify', created.json.file], dir).code).toBe(0);
    fs.rmSync(path.join(dir, '.cgsecrets'));
    const refused = runCg(['snapshot', 'verify', created.json.file], dir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/holds \d+ credential/);
  }, 120_000);
});
