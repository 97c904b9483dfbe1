import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Allowlist } from '../src/secrets/allowlist.js';
import { scanSecrets } from '../src/secrets/scan.js';
import { makeRepo, runCg } from './helpers.js';

// Test values are assembled at run time so that this file itself does not look like it holds secrets.
const AWS_KEY = ['AKIA', 'Z7QH2KXW', '4LMN9PRT'].join('');
const PRIVATE_KEY = ['-----BEGIN RSA ', 'PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA ', 'PRIVATE KEY-----'].join('');
const RANDOM_40 = ['q8Z', 'fT2vLk9', 'XwR4mNc7', 'Hb8Y1pJd6', 'GsE3aUo5', 'Vi0Kr2QfT'].join('');

const scan = (text: string, allow = Allowlist.empty(), file = 'a.py') => scanSecrets(file, text, allow).map((f) => f.rule);

describe('secret detection rules', () => {
  it('finds provider keys and private keys', () => {
    expect(scan(`KEY = "${AWS_KEY}"`)).toContain('aws-access-key-id');
    expect(scan(`pem = """${PRIVATE_KEY}"""`)).toContain('private-key');
    expect(scan(`t = "${['ghp_', 'a'.repeat(18), 'B'.repeat(18)].join('')}"`)).toContain('github-token');
  });

  it('finds password/secret/token/api_key assignments in the forms languages write them', () => {
    expect(scan('password = "hunter2hunter2"')).toEqual(['credential-assignment']);
    expect(scan("const apiKey = 'Zx81kLmQ0pWn';")).toEqual(['credential-assignment']);
    expect(scan('"client_secret": "a8F3kq0ZmW2x"')).toEqual(['credential-assignment']);
    expect(scan("$db_password = 'S3cr3t!pass';")).toEqual(['credential-assignment']);
    expect(scan('authToken := "tok-93jf8SkQ2m"')).toEqual(['credential-assignment']);
  });

  it('leaves placeholders, references and ordinary code alone', () => {
    expect(scan('password = os.environ["DB_PASSWORD"]')).toEqual([]);
    expect(scan('password = ""')).toEqual([]);
    expect(scan('token = "<your token here>"')).toEqual([]);
    expect(scan('api_key = "${API_KEY}"')).toEqual([]);
    expect(scan('SECRET_KEY_INSECURE_PREFIX = "django-insecure-"')).toEqual([]);
    expect(scan('PASSWORD_FIELD = "password_hash"')).toEqual([]);
    expect(scan('secret = "changeme-please"')).toEqual([]);
    expect(scan('TOKEN_ENV = "GITHUB_TOKEN"')).toEqual([]);
    expect(scan('B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"')).toEqual([]);
    expect(scan('sha = "3f786850e387550fdab836ed7e6dc881de23001b"')).toEqual([]);
    expect(scan('const urlAlphabet = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"')).toEqual([]);
    expect(scan('def check_password(password):\n    return password == stored')).toEqual([]);
  });

  it('flags long random literals named like credentials as high-entropy strings, not other random data', () => {
    expect(scan(`signing_key = "${RANDOM_40}"`)).toEqual(['high-entropy-string']);
    expect(scan(`headers = { Authorization: "${RANDOM_40}" }`)).toEqual(['high-entropy-string']);
    expect(scan(`blob = "${RANDOM_40}"`)).toEqual([]); // test data, a gzip/base64 fixture, a request id
  });

  it('accepts allowlisted findings by fingerprint, by path pattern and by rule', () => {
    const [finding] = scanSecrets('conf/a.py', `KEY = "${AWS_KEY}"`, Allowlist.empty());
    expect(finding.fingerprint).toMatch(/^[0-9a-f]{24}$/);
    expect(scanSecrets('conf/a.py', `KEY = "${AWS_KEY}"`, Allowlist.parse(`# ok: a test key\n${finding.fingerprint}\n`))).toEqual([]);
    expect(scanSecrets('conf/a.py', `KEY = "${AWS_KEY}"`, Allowlist.parse('conf/\n'))).toEqual([]);
    expect(scanSecrets('conf/a.py', `KEY = "${AWS_KEY}"`, Allowlist.parse('rule:aws-access-key-id\n'))).toEqual([]);
    // A fingerprint is tied to the file: the same key elsewhere is still reported.
    expect(scanSecrets('other.py', `KEY = "${AWS_KEY}"`, Allowlist.parse(finding.fingerprint))).toHaveLength(1);
  });
});

describe('secrets in the index', () => {
  it('excludes the whole file, stores nothing derived from it, and lists it with the reason', () => {
    const dir = makeRepo({
      'app.py': 'def handler():\n    return connect()\n',
      'settings.py': `def connect():\n    return Client(key="${AWS_KEY}")\n`,
    });
    const idx = runCg(['index', '--json'], dir);
    expect(idx.json.files).toBe(1);
    expect(idx.json.skippedByReason).toEqual({ secret: 1 });
    const status = runCg(['status', '--json'], dir).json;
    expect(status.excludedSecrets).toEqual([
      { path: 'settings.py', rule: 'aws-access-key-id', line: 2, fingerprint: expect.stringMatching(/^[0-9a-f]{24}$/) },
    ]);
    expect(runCg(['status'], dir).stdout).toContain('settings.py:2  aws-access-key-id');
    expect(runCg(['symbols', 'connect', '--json'], dir).json.total).toBe(0);
    const file = runCg(['file', 'settings.py'], dir);
    expect(file.code).toBe(4);
    expect(file.stderr).toContain('skipped as secret');
    // Not a symbol, signature or byte of the file's text reaches the database.
    const dbDir = path.join(dir, '.codegraph', 'builds');
    for (const build of fs.readdirSync(dbDir)) {
      for (const f of fs.readdirSync(path.join(dbDir, build))) {
        expect(fs.readFileSync(path.join(dbDir, build, f)).includes(AWS_KEY)).toBe(false);
      }
    }
    expect(fs.readFileSync(path.join(dir, 'settings.py'), 'utf8')).toContain(AWS_KEY); // the user's file is untouched
  });

  it('indexes the file once its finding is allowlisted in .cgsecrets', () => {
    const dir = makeRepo({ 'settings.py': `def connect():\n    return Client(key="${AWS_KEY}")\n` });
    runCg(['index'], dir);
    const fp = runCg(['status', '--json'], dir).json.excludedSecrets[0].fingerprint;
    fs.writeFileSync(path.join(dir, '.cgsecrets'), `${fp}  # test fixture key, not real\n`);
    expect(runCg(['index', '--json'], dir).json).toMatchObject({ files: 1, skipped: 0 });
    expect(runCg(['status', '--json'], dir).json.excludedSecrets).toEqual([]);
  });
});
