import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Allowlist } from '../src/secrets/allowlist.js';
import { redactSpans, scrubText, type SecretPolicy } from '../src/secrets/redact.js';
import { re2ToJs } from '../src/secrets/re2.js';
import { GITLEAKS_RULES_FILE, ruleSet, secretRuleIds } from '../src/secrets/rules.js';
import { scanSecrets } from '../src/secrets/scan.js';
import { KeywordScanner } from '../src/secrets/keywords.js';
import { keywordGroup, matcherFor } from '../src/secrets/prefilter.js';
import { findSecretsInDatabase } from '../src/secrets/database.js';
import { makeRepo, ROOT, runCg } from './helpers.js';
import { buildIndex } from '../src/indexer/build.js';
import { currentDbPath, openReader } from '../src/store/db.js';
import { SourceReader } from '../src/retrieve/source.js';

// Test values are assembled at run time so that this file itself does not look like it holds secrets.
const AWS_KEY = ['AKIA', 'Z7QH2KXW', '4LMN6PRT'].join('');
const RANDOM_40 = ['q8Z', 'fT2vLk9', 'XwR4mNc7', 'Hb8Y1pJd6', 'GsE3aUo5', 'Vi0Kr2QfT'].join('');
const GH_TOKEN = ['ghp_', 'a1B2c3D4e5F6g7H8i9J0', 'k1L2m3N4o5P6q7R8'].join('');
const PEM_BODY = ['MIIEowIBAAKCAQEA7x9Qm2Lk', 'Rz8vT4pN1sWc6YbHj3GdF0aUe5KiXo'].join('');
const PRIVATE_KEY = [`-----BEGIN RSA ${'PRIVATE'} KEY-----`, PEM_BODY, `${PEM_BODY.split('').reverse().join('')}`, `-----END RSA ${'PRIVATE'} KEY-----`].join('\n');

const scan = (text: string, allow = Allowlist.empty(), file = 'a.py') => scanSecrets(file, text, allow).map((f) => f.rule);
const policy = (allow = Allowlist.empty()): SecretPolicy => ({ enabled: true, mode: 'redact', allow });

describe('the rule set', () => {
  it('compiles every gitleaks rule that reads text, and adds cg rules with their own ids', () => {
    const raw = JSON.parse(fs.readFileSync(GITLEAKS_RULES_FILE, 'utf8')) as { rules: { id: string; regex?: string }[] };
    const set = ruleSet();
    const gitleaks = set.rules.filter((r) => r.source === 'gitleaks').map((r) => r.id);
    expect(gitleaks).toEqual(raw.rules.filter((r) => r.regex).map((r) => r.id));
    expect(set.pathOnly).toEqual(raw.rules.filter((r) => !r.regex).map((r) => r.id));
    expect(gitleaks.length).toBeGreaterThan(200);
    expect(secretRuleIds()).toEqual(expect.arrayContaining(['generic-api-key', 'private-key', 'credential-assignment', 'high-entropy-string']));
    expect(new Set(secretRuleIds()).size).toBe(secretRuleIds().length);
    // Each rule compiles when it first runs: all of them must compile, with the flags the scanner needs.
    for (const r of set.rules) {
      expect(r.regex.flags, r.id).toContain('g');
      expect(Array.isArray(r.allowlists), r.id).toBe(true);
    }
  });

  it('translates RE2 flag groups, classes and anchors into JavaScript that matches as RE2 does', () => {
    const js = (src: string) => new RegExp(re2ToJs(src));
    expect(js('(?i)key(?-i:ID)').test('KEYID')).toBe(true);
    expect(js('(?i)key(?-i:ID)').test('KEYid')).toBe(false);
    expect(js('p8e-(?i)[a-f]{2}').test('p8e-AF')).toBe(true);
    expect(js('p8e-(?i)[a-f]{2}').test('P8E-af')).toBe(false); // (?i) applies from where it stands
    expect(js('(?:a(?i)b)c').test('aBc')).toBe(true);
    expect(js('(?:a(?i)b)c').test('aBC')).toBe(false); // … to the end of its group
    expect(js('x[[:alnum:]]{3}').test('xa9Z')).toBe(true);
    expect(js('a.b').test('a\nb')).toBe(false);
    expect(js('a(?s:.)b').test('a\nb')).toBe(true);
    expect(js('ab\\z').test('xab')).toBe(true);
    expect(js('(?i)[a-z0-9_-]{2}').test('Z-')).toBe(true); // other cases go before a trailing '-'
    expect(js('(?P<alg>ab)c').exec('abc')![1]).toBe('ab');
    expect(() => re2ToJs('\\p{Greek}')).toThrow(/unsupported/);
  });
});

describe('secret detection', () => {
  it('finds provider keys, private keys and tokens, named by the most specific rule', () => {
    expect(scan(`KEY = "${AWS_KEY}"`)).toEqual(['aws-access-token']);
    expect(scan(`pem = """${PRIVATE_KEY}"""`)).toEqual(['private-key']);
    expect(scan(`t = "${GH_TOKEN}"`)).toEqual(['github-pat']);
    // A key pasted without its END line is still found, body and all.
    const cut = scanSecrets('a.go', `${PRIVATE_KEY.split('\n').slice(0, 3).join('\n')}\nfunc main() {}\n`, Allowlist.empty());
    expect(cut.map((f) => f.rule)).toEqual(['private-key-body']);
  });

  it('finds passwords of any entropy assigned to names that say so, in the forms languages write them', () => {
    expect(scan('password = "hunter2x"')).toEqual(['credential-assignment']);
    expect(scan("const dbPass = 'letmein42';", undefined, 'a.ts')).toEqual(['credential-assignment']);
    expect(scan('let pwd: &str = "s3cr3tpw";', undefined, 'a.rs')).toEqual(['credential-assignment']);
    expect(scan('var adminPassword string = "Tr0ub4dor"', undefined, 'a.go')).toEqual(['credential-assignment']);
    expect(scan('String password = "Qz7!mwKe2x";', undefined, 'A.java')).toEqual(['credential-assignment']);
    expect(scan('let password: String = "n0tagain7"', undefined, 'a.swift')).toEqual(['credential-assignment']);
    expect(scan("$db_password = 'Qz7!mwKe2x';", undefined, 'a.php')).toEqual(['credential-assignment']);
    expect(scan('conn = "postgres://app:Zx81kLmQ@db.internal:5432/app"')).toEqual(['connection-string-password']);
    expect(scan(`headers = {"Authorization": "Bearer ${RANDOM_40.slice(0, 24)}"}`)).toEqual(['authorization-header']);
  });

  it('leaves placeholders, references and ordinary code alone', () => {
    for (const text of [
      'password = os.environ["DB_PASSWORD"]', 'password = ""', 'token = "<your token here>"', 'api_key = "${API_KEY}"',
      'SECRET_KEY_INSECURE_PREFIX = "django-insecure-"', 'PASSWORD_FIELD = "password_hash"', 'secret = "changeme-please"',
      'TOKEN_ENV = "GITHUB_TOKEN"', 'INTERNAL_RESET_SESSION_TOKEN = "_password_reset_token"', 'password = "password"',
      'B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"', 'sha = "3f786850e387550fdab836ed7e6dc881de23001b"',
      'const urlAlphabet = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"',
      'def check_password(password):\n    return password == stored', 'token_type = "bearer_v2x"', 'help = "Enter your password"',
      'url = "postgres://user:password@localhost/db"',
    ]) expect([text, scan(text)]).toEqual([text, []]);
  });

  it('flags long random literals named like credentials as high-entropy strings, not other random data', () => {
    expect(scan(`session_id = "${RANDOM_40}"`)).toEqual(['high-entropy-string']);
    expect(scan(`blob = "${RANDOM_40}"`)).toEqual([]); // test data, a gzip/base64 fixture, a request id
  });

  it('accepts allowlisted findings by fingerprint, by path pattern and by rule', () => {
    const [finding] = scanSecrets('conf/a.py', `KEY = "${AWS_KEY}"`, Allowlist.empty());
    expect(finding.fingerprint).toMatch(/^[0-9a-f]{24}$/);
    expect(scanSecrets('conf/a.py', `KEY = "${AWS_KEY}"`, Allowlist.parse(`# ok: a test key\n${finding.fingerprint}\n`))).toEqual([]);
    expect(scanSecrets('conf/a.py', `KEY = "${AWS_KEY}"`, Allowlist.parse('conf/\n'))).toEqual([]);
    // Turning a rule off leaves the catch-all rules that match the same value.
    expect(scan(`KEY = "${AWS_KEY}"`, Allowlist.parse('rule:aws-access-token\n'))).toEqual(['generic-api-key']);
    expect(scan(`KEY = "${AWS_KEY}"`, Allowlist.parse('rule:aws-access-token\nrule:generic-api-key\n'))).toEqual([]);
    // A fingerprint is tied to the file: the same key elsewhere is still reported.
    expect(scanSecrets('other.py', `KEY = "${AWS_KEY}"`, Allowlist.parse(finding.fingerprint))).toHaveLength(1);
    // One finding per secret: the token that three rules match is one fingerprint to allow.
    const [gh] = scanSecrets('a.py', `token = "${GH_TOKEN}"`, Allowlist.empty());
    expect(scanSecrets('a.py', `token = "${GH_TOKEN}"`, Allowlist.parse(gh.fingerprint))).toEqual([]);
  });
});

describe('the scan\'s fast paths find what the plain definitions find', () => {
  // A seeded generator: the same texts on every run, and many of them near a rule's keywords.
  const random = (seed: number) => () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

  it('keywords: one pass over the text, case aside, as includes() over the lower-cased text', () => {
    const keywords = ruleSet().keywords.keywords;
    const r = random(7);
    const pieces = [...keywords.slice(0, 60), 'K', '\u212a', '\u0130', 'Σ', 'ß', 'x', ' ', '_', '.', 'é', '\ud83d\ude00'];
    for (let i = 0; i < 3000; i++) {
      let text = '';
      for (let j = 1 + Math.floor(r() * 10); j > 0; j--) {
        let p = pieces[Math.floor(r() * pieces.length)];
        if (r() < 0.3) p = p.toUpperCase();
        if (r() < 0.2) p = p.slice(1);
        if (r() < 0.1) p = p.replace(/k/g, '\u212a').replace(/i/g, '\u0130'); // lower-case to 'k' and 'i'
        text += p;
      }
      const lower = text.toLowerCase();
      expect([...ruleSet().keywords.present(text)].sort(), JSON.stringify(text)).toEqual(keywords.filter((k) => lower.includes(k)).sort());
    }
    expect([...new KeywordScanner(['key', 'api_key', 'token']).present('const API_KEY = 1')].sort()).toEqual(['api_key', 'key']);
  });

  it('rules behind a name prefix: the same matches, groups and positions as the regex run as written', () => {
    const prefixed = ruleSet().rules.filter((rule) => keywordGroup(rule.regex.source));
    expect(prefixed.length).toBeGreaterThan(90); // gitleaks' generic-api-key and the provider rules written like it
    const r = random(11);
    const token = (n: number) => Array.from({ length: n }, () => ALNUM[Math.floor(r() * ALNUM.length)]).join('');
    const words = ['api_key', 'API_TOKEN', 'my.secret', 'x-auth', 'passwd', 'credentials', 'access', 'lob', 'linear', 'adobe'];
    const seps = [' = ', '=', ': ', ' := ', '=> ', '", "', ' ', '\n', '?= '];
    for (let i = 0; i < 400; i++) {
      let text = '';
      for (let j = 1 + Math.floor(r() * 5); j > 0; j--) {
        const q = ['"', "'", '`', ''][Math.floor(r() * 4)];
        text += `${r() < 0.5 ? token(Math.floor(r() * 60)) : ''}${words[Math.floor(r() * words.length)]}${seps[Math.floor(r() * seps.length)]}${q}${token(8 + Math.floor(r() * 40))}${q}${r() < 0.5 ? '\n' : '; '}`;
      }
      for (const rule of prefixed) {
        const plain = new RegExp(rule.regex.source, rule.regex.flags);
        const fast = matcherFor(rule.regex);
        expect(fast).not.toBe(rule.regex);
        const all = (re: { lastIndex: number; exec(t: string): RegExpExecArray | null }) => {
          const out: string[] = [];
          re.lastIndex = 0;
          for (let m = re.exec(text); m; m = re.exec(text)) {
            out.push(JSON.stringify([m.index, [...m], m.indices]));
            re.lastIndex = m.index + 1; // as ruleFindings goes on after a rejected match of a cg rule
          }
          return out;
        };
        expect(all(fast), `${rule.id} on ${JSON.stringify(text)}`).toEqual(all(plain));
      }
    }
  });
});

describe('redaction', () => {
  it('replaces the secret and nothing else, keeping every line where it was', () => {
    const text = `def connect():\n    key = "${AWS_KEY}"\n    return Client(key)\n`;
    const out = scrubText('a.py', text, policy());
    expect(out.text).toBe('def connect():\n    key = "[REDACTED:aws-access-token]"\n    return Client(key)\n');
    const pem = `x = 1\nPEM = """\n${PRIVATE_KEY}\n"""\ny = 2\n`;
    const red = scrubText('k.py', pem, policy()).text;
    expect(red.split('\n')).toHaveLength(pem.split('\n').length);
    expect(red).not.toContain(PEM_BODY.slice(0, 12));
    expect(red.split('\n')[7]).toBe('y = 2');
    expect(redactSpans('abcdef', [{ rule: 'r', line: 1, fingerprint: '', start: 1, end: 3 }, { rule: 's', line: 1, fingerprint: '', start: 2, end: 4 }]))
      .toBe('a[REDACTED:r]ef');
  });

  it('passes text unchanged when secrets are off', () => {
    const text = `key = "${AWS_KEY}"`;
    expect(scrubText('a.py', text, { ...policy(), enabled: false }).text).toBe(text);
  });
});

/** Every file under a build directory, and the snapshot archives, as one lower-cased haystack. */
function indexBytes(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(fs.readFileSync(p).toString('latin1'));
    }
  };
  walk(path.join(dir, '.codegraph'));
  return out.join('\n').toLowerCase();
}

describe('secrets in the index', () => {
  const settings = `def connect():\n    """Connects with the service key."""\n    return Client(key="${AWS_KEY}")\n\n\ndef close(client):\n    return client.close()\n`;

  it('redacts by default: the file is indexed, the credential is in no table, answer or status line but its fingerprint', () => {
    const dir = makeRepo({ 'app.py': 'def handler():\n    return connect()\n', 'settings.py': settings });
    const idx = runCg(['index', '--json'], dir);
    expect(idx.json.files).toBe(2);
    expect(idx.json.skippedByReason).toEqual({});
    const status = runCg(['status', '--json'], dir).json;
    expect(status.redactedSecrets).toEqual([
      { path: 'settings.py', rule: 'aws-access-token', line: 3, fingerprint: expect.stringMatching(/^[0-9a-f]{24}$/) },
    ]);
    expect(status.excludedSecrets).toEqual([]);
    expect(status.secretRules).toMatchObject({ enabled: true, mode: 'redact', ids: secretRuleIds() });
    expect(runCg(['status'], dir).stdout).toContain('settings.py:3  aws-access-token');
    expect(runCg(['status', '--secret-rules'], dir).stdout).toContain('generic-api-key');
    expect(runCg(['symbols', 'connect', '--json'], dir).json.total).toBe(1);
    const ctx = runCg(['context', 'connect to the service with the key', '--json'], dir);
    expect(ctx.stdout).toContain('[REDACTED:aws-access-token]');
    expect(ctx.stdout).not.toContain(AWS_KEY);
    expect(indexBytes(dir)).not.toContain(AWS_KEY.toLowerCase());
    expect(fs.readFileSync(path.join(dir, 'settings.py'), 'utf8')).toContain(AWS_KEY); // the user's file is untouched
  });

  it('redacts a credential added after indexing when an answer reads the file', () => {
    const dir = makeRepo({ 'settings.py': settings.replace(`key="${AWS_KEY}"`, 'key=load_key()') });
    runCg(['index'], dir);
    fs.writeFileSync(path.join(dir, 'settings.py'), settings);
    const q = runCg(['query', 'connect with the service key', '--snippets', '--json'], dir);
    expect(q.stdout).not.toContain(AWS_KEY);
    expect(q.stdout).toContain('[REDACTED:aws-access-token]');
  });

  it('in one process, answers keep scrubbed text only for the same bytes under the same allowlist', async () => {
    const dir = makeRepo({ 'settings.py': settings });
    await buildIndex(dir);
    const excerpt = () => {
      const db = openReader(dir);
      try {
        const reader = new SourceReader(db, dir);
        return reader.lines('settings.py')!.join('\n');
      } finally {
        db.close();
      }
    };
    expect(excerpt()).toContain('[REDACTED:aws-access-token]');
    expect(excerpt()).not.toContain(AWS_KEY); // the kept lines, read again
    const fp = runCg(['status', '--json'], dir).json.redactedSecrets[0].fingerprint;
    fs.writeFileSync(path.join(dir, '.cgsecrets'), `${fp}  # test fixture key, not real\n`);
    expect(excerpt()).toContain(AWS_KEY); // another allowlist: scrubbed again, and this finding is allowed
    fs.writeFileSync(path.join(dir, '.cgsecrets'), '');
    expect(excerpt()).not.toContain(AWS_KEY);
  });

  it('with secrets.mode exclude, leaves the whole file out and lists it with the reason', () => {
    const dir = makeRepo({ 'app.py': 'def handler():\n    return connect()\n', 'settings.py': settings });
    fs.mkdirSync(path.join(dir, '.codegraph'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.codegraph', 'config.json'), JSON.stringify({ secrets: { mode: 'exclude' } }));
    const idx = runCg(['index', '--json'], dir);
    expect(idx.json.files).toBe(1);
    expect(idx.json.skippedByReason).toEqual({ secret: 1 });
    expect(runCg(['status', '--json'], dir).json.excludedSecrets).toEqual([
      { path: 'settings.py', rule: 'aws-access-token', line: 3, fingerprint: expect.stringMatching(/^[0-9a-f]{24}$/) },
    ]);
    expect(runCg(['symbols', 'connect', '--json'], dir).json.total).toBe(0);
    const file = runCg(['file', 'settings.py'], dir);
    expect(file.code).toBe(4);
    expect(file.stderr).toContain('skipped as secret');
    expect(indexBytes(dir)).not.toContain(AWS_KEY.toLowerCase());
  });

  it('stores the value once its finding is allowlisted in .cgsecrets', () => {
    const dir = makeRepo({ 'settings.py': settings });
    runCg(['index'], dir);
    const fp = runCg(['status', '--json'], dir).json.redactedSecrets[0].fingerprint;
    fs.writeFileSync(path.join(dir, '.cgsecrets'), `${fp}  # test fixture key, not real\n`);
    expect(runCg(['index', '--json'], dir).json).toMatchObject({ files: 1, skipped: 0 });
    expect(runCg(['status', '--json'], dir).json.redactedSecrets).toEqual([]);
    expect(runCg(['context', 'connect with the service key', '--json'], dir).stdout).toContain(AWS_KEY);
  });

  it('finds a credential stored in a database, for snapshot verification', () => {
    const file = path.join(makeRepo({}), 'x.db');
    const db = new Database(file);
    db.exec('CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT); CREATE TABLE symbols (id INTEGER PRIMARY KEY, file_id INTEGER, signature TEXT, doc TEXT)');
    db.prepare('INSERT INTO files VALUES (1, ?)').run('a.py');
    db.prepare('INSERT INTO symbols VALUES (1, 1, ?, NULL)').run('def f(x):');
    db.close();
    expect(findSecretsInDatabase(file, Allowlist.empty())).toEqual([]);
    const w = new Database(file);
    w.prepare('INSERT INTO symbols VALUES (2, 1, ?, NULL)').run(`def connect(key="${AWS_KEY}"):`);
    w.close();
    expect(findSecretsInDatabase(file, Allowlist.empty())).toEqual([expect.objectContaining({ table: 'symbols', rule: 'aws-access-token' })]);
  });

  it('reads a stored JSON list as the pieces of source it holds, not as one quoted text', () => {
    // sqlalchemy's `def pop(self, key, default=NO_ARG)`: its parameters stored as ["self","key","default=NO_ARG"] read,
    // quotes and all, as a value assigned to a key, and refused every snapshot of sqlalchemy.
    const dir = makeRepo({ 'coll.py': 'class Bag:\n    def pop(self, key, default=NO_ARG):\n        return default\n' });
    runCg(['index', '-q'], dir);
    const db = currentDbPath(dir)!;
    expect(findSecretsInDatabase(db, Allowlist.empty())).toEqual([]);
    // A credential inside one piece is still found.
    const file = path.join(makeRepo({}), 'x.db');
    const w = new Database(file);
    w.exec('CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT); CREATE TABLE symbols (id INTEGER PRIMARY KEY, file_id INTEGER, params TEXT)');
    w.prepare('INSERT INTO files VALUES (1, ?)').run('a.py');
    w.prepare('INSERT INTO symbols VALUES (1, 1, ?)').run(JSON.stringify(['self', 'key', 'default=NO_ARG']));
    w.prepare('INSERT INTO symbols VALUES (2, 1, ?)').run(JSON.stringify(['self', `key="${AWS_KEY}"`]));
    // Text in a column declared INTEGER (SQLite keeps what it cannot convert) is read too.
    w.exec('CREATE TABLE edges (src_id INTEGER, line INTEGER, file_id INTEGER)');
    w.prepare('INSERT INTO edges VALUES (1, ?, 1)').run(`aws_key = "${AWS_KEY}"`);
    w.close();
    expect(findSecretsInDatabase(file, Allowlist.empty())).toEqual([expect.objectContaining({ table: 'edges', path: 'a.py', rule: 'aws-access-token' }),
      expect.objectContaining({ table: 'symbols', rule: 'aws-access-token' })]);
  });
});

describe('no way around the choke point', () => {
  // Modules that may read files themselves: none of them reads a repository's source files.
  const ALLOWED = new Set([
    'src/extract/process.ts', // reads a file for indexing and scrubs it before anything else
    'src/secrets/read.ts', // the redacting reader of the manifests import resolution reads
    'src/repo/contained.ts', // the one contained read under both, whose callers scrub (process.ts, read.ts, source.ts)
    'src/secrets/allowlist.ts', 'src/config/config.ts', 'src/config/ignore.ts', 'src/indexer/state.ts', 'src/indexer/lock.ts',
    'src/store/db.ts', 'src/repo/head.ts', 'src/repo/hooks.ts', 'src/snapshot/manifest.ts', 'src/lang/loader.ts',
    'src/vectors/model.ts', 'src/vectors/static.ts', 'src/vectors/store.ts', 'src/secrets/rules.ts',
    'src/retrieve/model-file.ts', // the models cg ships (the learned ranker, the confidence model)
    'src/config/migrate.ts', 'src/repo/lefthook.ts', // the legacy config file; lefthook's config and hook scripts
    'src/repo/vendored.ts', // a file's first bytes, for a generated-code header; nothing of it is kept
    'src/extract/documents/view.ts', // a PDF's text as cg kept it (scrubbed by SourceReader when shown)
    'src/registry/manifest.ts', // a collection manifest the user names
    'src/agents/install.ts', 'src/agents/records.ts', 'src/cli/commands/hook-cmd.ts', // agent clients' config files, cg's records, a hook's stdin
    'src/check/base.ts', 'src/check/config.ts', // the configuration
    'src/view/server.ts', // the web page's own assets
    'src/changes/log.ts', 'src/snapshot/archive.ts', 'src/snapshot/verify.ts', // cg's change log, a snapshot's archive and manifest
    'src/retrieve/recorded.ts', // cg's own .codegraph/signals.json (paths and lines a recorded run named)
    'src/indexer/generation-cache.ts', // cg's own rows beside the database (ids, numbers, and names and paths the database holds)
    'src/vectors/delta.ts', // cg's own vector deltas beside the database (ids and numbers)
    'src/indexer/warm-applier.ts', // cg's own .codegraph/warm-applier.json (a pid, a command name, a time)
    'src/retrieve/bpe-table.ts', 'src/retrieve/tokens.ts', // the cl100k table cg ships (vendor/cl100k/)
    'src/cli/commands/signals.ts', 'src/cli/commands/notify-cmd.ts', 'src/cli/commands/impact-cmd.ts', // the user's own input
  ]);

  it('only the scrubbing reader and non-source readers call fs.readFile*', () => {
    const offenders: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts')) {
          const rel = path.relative(ROOT, p).split(path.sep).join('/');
          if (/\breadFile(Sync)?\(|createReadStream\(|\bopenSync\(/.test(fs.readFileSync(p, 'utf8')) && !ALLOWED.has(rel)) offenders.push(rel);
        }
      }
    };
    walk(path.join(ROOT, 'src'));
    expect(offenders).toEqual([]);
  });
});
