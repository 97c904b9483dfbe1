#!/usr/bin/env node
// Writes fixtures/secrets-corpus.json: cg's own corpus of credentials, one or more for every rule of
// the secret rule set, for test/secrets-corpus.test.ts. Nothing in it is copied from a scanner's
// repository: each example is sampled from the rule's own pattern with random characters of the
// classes it allows (seeded, so the file is reproducible), checked against the rule, and placed in a
// function of one of cg's languages (in a string, a comment, a docstring, a default argument or a
// test). A few dozen hand-written lines add the forms real code writes credentials in (typed
// declarations, connection strings, headers, keys pasted above a function).
//
// Secrets are stored reversed so that this repository does not itself look like it leaks them.
//
//   npm run build && node scripts/make-secrets-corpus.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ruleSet } from '../dist/secrets/rules.js';
import { scanSecrets } from '../dist/secrets/scan.js';
import { Allowlist } from '../dist/secrets/allowlist.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

// A small seeded generator (mulberry32): the same corpus on every run.
let seed = 0x5eed2101;
function rand() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (s) => s[Math.floor(rand() * s.length)];
const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

// ---- sampling a string from a JavaScript regular expression (the subset the rule set uses) ----

function parse(src) {
  let p = 0;
  function alternation() {
    const alts = [sequence()];
    while (src[p] === '|') {
      p++;
      alts.push(sequence());
    }
    return { type: 'alt', alts };
  }
  function sequence() {
    const items = [];
    while (p < src.length && src[p] !== '|' && src[p] !== ')') {
      let atom = parseAtom();
      const q = quantifier();
      if (q) atom = { type: 'rep', atom, ...q };
      items.push(atom);
    }
    return { type: 'seq', items };
  }
  function quantifier() {
    let q = null;
    if (src[p] === '*') q = { min: 0, max: 8 };
    else if (src[p] === '+') q = { min: 1, max: 8 };
    else if (src[p] === '?') q = { min: 0, max: 1 };
    else if (src[p] === '{') {
      const m = /^\{(\d*)(,?)(\d*)\}/.exec(src.slice(p));
      if (!m) return null;
      const min = m[1] ? +m[1] : 0;
      const max = m[2] ? (m[3] ? +m[3] : min + 8) : min;
      p += m[0].length - 1;
      q = { min, max };
    }
    if (!q) return null;
    p++;
    if (src[p] === '?') {
      p++;
      q.lazy = true;
    }
    return q;
  }
  function parseAtom() {
    const c = src[p];
    if (c === '(') {
      p++;
      let kind = 'cap';
      if (src.startsWith('?:', p)) {
        kind = 'group';
        p += 2;
      } else if (src.startsWith('?=', p) || src.startsWith('?!', p)) {
        kind = 'look';
        p += 2;
      } else if (src.startsWith('?<=', p) || src.startsWith('?<!', p)) {
        kind = 'look';
        p += 3;
      }
      const inner = alternation();
      p++; // ')'
      return { type: kind, inner };
    }
    if (c === '[') return charClass();
    if (c === '\\') {
      const n = src[p + 1];
      p += 2;
      if (n === 'x') {
        const ch = String.fromCharCode(parseInt(src.slice(p, p + 2), 16));
        p += 2;
        return { type: 'set', chars: ch };
      }
      if (/\d/.test(n)) return { type: 'backref', n: +n };
      return escapeAtom(n);
    }
    p++;
    if (c === '.') return { type: 'set', chars: '.' };
    if (c === '^' || c === '$') return { type: 'empty' };
    return { type: 'set', chars: c };
  }
  function escapeAtom(n) {
    const sets = { w: ALNUM + '_', d: '0123456789', s: ' ', n: '\n', r: '\r', t: '\t', b: '', B: '' };
    if (n in sets) return n === 'b' || n === 'B' ? { type: 'empty' } : { type: 'set', chars: sets[n] };
    if (n === 'S' || n === 'W' || n === 'D') return { type: 'set', chars: 'xK7q' };
    return { type: 'set', chars: n };
  }
  function charClass() {
    p++;
    let neg = false;
    if (src[p] === '^') {
      neg = true;
      p++;
    }
    let chars = '';
    const first = p;
    while (p < src.length && (src[p] !== ']' || p === first)) {
      let c;
      if (src[p] === '\\') {
        const n = src[p + 1];
        p += 2;
        if (n === 'x') {
          c = String.fromCharCode(parseInt(src.slice(p, p + 2), 16));
          p += 2;
        } else if (n === 'w') { chars += ALNUM + '_'; continue; }
        else if (n === 'd') { chars += '0123456789'; continue; }
        else if (n === 's') { chars += ' '; continue; }
        else if (n === 'n') c = '\n';
        else if (n === 'r') c = '\r';
        else if (n === 't') c = '\t';
        else c = n;
      } else {
        c = src[p++];
      }
      if (src[p] === '-' && src[p + 1] !== ']') {
        let hi = src[p + 1];
        p += 2;
        if (hi === '\\') {
          hi = src[p];
          p++;
          if (hi === 'x') {
            hi = String.fromCharCode(parseInt(src.slice(p, p + 2), 16));
            p += 2;
          }
        }
        for (let k = c.charCodeAt(0); k <= hi.charCodeAt(0); k++) chars += String.fromCharCode(k);
      } else chars += c;
    }
    p++;
    if (neg && chars === '\n') return { type: 'set', chars: '.' }; // `.` as translated from RE2: mostly a literal dot
    if (neg) chars = [...(ALNUM + '_-.:/+= ')].filter((x) => !chars.includes(x)).join('');
    // Sample printable characters only: a class like [\s\S] or [^"] must not put a newline or control character in a value.
    const printable = [...chars].filter((x) => x >= ' ' && x <= '~' && x !== '\\').join('');
    return { type: 'set', chars: printable || chars };
  }
  const tree = alternation();
  return tree;
}

function sample(node, caps) {
  switch (node.type) {
    case 'alt': return sample(node.alts[0], caps);
    case 'seq': return node.items.map((i) => sample(i, caps)).join('');
    // [kK] (a letter of a case-insensitive word, as translated from RE2): the lower case, as people write keys' names.
    case 'set': return node.chars.length === 2 && node.chars[0].toLowerCase() === node.chars[1].toLowerCase() ? node.chars.toLowerCase()[0]
      : node.chars ? pick(node.chars) : '';
    case 'empty': case 'look': return '';
    case 'group': return sample(node.inner, caps);
    case 'cap': {
      const i = caps.length;
      caps.push('');
      const s = sample(node.inner, caps);
      caps[i] = s;
      return s;
    }
    case 'backref': return caps[node.n - 1] ?? '';
    case 'rep': {
      // Optional parts are left out; counted ones take their minimum, or a realistic length for secrets.
      let n = node.min;
      if (node.max > node.min && node.min >= 8) n = Math.min(node.max, node.min + Math.floor(rand() * 8));
      if (node.min === 0 && node.max >= 8 && node.atom.type === 'set' && node.atom.chars.length > 20) n = 0;
      let out = '';
      for (let k = 0; k < n; k++) out += sample(node.atom, caps);
      return out;
    }
    default: throw new Error(`cannot sample ${node.type}`);
  }
}

// ---- placing an example in code ----

const LANGS = ['python', 'typescript', 'javascript', 'go', 'java', 'php', 'rust', 'swift'];
const PLACES = ['string', 'comment', 'docstring', 'test', 'default'];

function fnName(rule, i) {
  return `cfg_${rule.replace(/[^a-zA-Z0-9]+/g, '_')}_${i}`;
}

/** One function holding `text` (the example line or lines) in the given place, in the given language. */
function place(lang, where, name, text) {
  const lines = text.split('\n');
  const comment = (p) => lines.map((l) => `${p}${l}`).join('\n');
  const oneLine = !text.includes('\n') && !/["'`\\$]/.test(text);
  if (where === 'default' && !oneLine) where = 'string';
  switch (lang) {
    case 'python':
      if (where === 'comment' || where === 'test') return `def ${name}():\n${comment('    # ')}\n    return None\n`;
      if (where === 'docstring') return `def ${name}():\n    """Configure the client.\n\n${comment('    ')}\n    """\n    return None\n`;
      if (where === 'default') return `def ${name}(value="${text}"):\n    return value\n`;
      return `def ${name}():\n    config = """\n${text}\n"""\n    return config\n`;
    case 'typescript':
    case 'javascript': {
      const ty = lang === 'typescript' ? ': string' : '';
      if (where === 'comment' || where === 'test') return `export function ${name}()${ty} {\n${comment('  // ')}\n  return '';\n}\n`;
      if (where === 'docstring') return `/**\n * Configure the client.\n${comment(' * ')}\n */\nexport function ${name}()${ty} {\n  return '';\n}\n`;
      if (where === 'default') return `export function ${name}(value${ty} = "${text}")${ty} {\n  return value;\n}\n`;
      return text.includes('`') || text.includes('${') ? `export function ${name}()${ty} {\n${comment('  // ')}\n  return '';\n}\n`
        : `export function ${name}()${ty} {\n  const config = \`\n${text}\n\`;\n  return config;\n}\n`;
    }
    case 'go':
      if (where === 'comment' || where === 'test' || where === 'docstring') return `// ${name} configures the client.\n${comment('// ')}\nfunc ${name}() string {\n\treturn ""\n}\n`;
      if (where === 'default') return `func ${name}() string {\n\tconst value = "${text}"\n\treturn value\n}\n`;
      return text.includes('`') ? `${comment('// ')}\nfunc ${name}() string {\n\treturn ""\n}\n`
        : `func ${name}() string {\n\tconfig := \`\n${text}\n\`\n\treturn config\n}\n`;
    case 'java':
      if (where === 'comment' || where === 'test') return `  String ${name}() {\n${comment('    // ')}\n    return "";\n  }\n`;
      if (where === 'docstring') return `  /**\n   * Configure the client.\n${comment('   * ')}\n   */\n  String ${name}() {\n    return "";\n  }\n`;
      if (where === 'default') return `  String ${name}() {\n    String value = "${text}";\n    return value;\n  }\n`;
      return `  String ${name}() {\n    String config = """\n${text}\n""";\n    return config;\n  }\n`;
    case 'php':
      if (where === 'comment' || where === 'test') return `function ${name}() {\n${comment('    // ')}\n    return '';\n}\n`;
      if (where === 'docstring') return `/**\n * Configure the client.\n${comment(' * ')}\n */\nfunction ${name}() {\n    return '';\n}\n`;
      if (where === 'default') return `function ${name}($value = "${text}") {\n    return $value;\n}\n`;
      return `function ${name}() {\n    $config = <<<'EOT'\n${text}\nEOT;\n    return $config;\n}\n`;
    case 'rust':
      if (where === 'comment' || where === 'test') return `pub fn ${name}() -> &'static str {\n${comment('    // ')}\n    ""\n}\n`;
      if (where === 'docstring') return `/// Configure the client.\n${comment('/// ')}\npub fn ${name}() -> &'static str {\n    ""\n}\n`;
      if (where === 'default') return `pub fn ${name}() -> &'static str {\n    let value: &str = "${text}";\n    value\n}\n`;
      return text.includes('"#') ? `${comment('// ')}\npub fn ${name}() -> &'static str {\n    ""\n}\n`
        : `pub fn ${name}() -> &'static str {\n    r#"\n${text}\n"#\n}\n`;
    case 'swift':
      if (where === 'comment' || where === 'test') return `func ${name}() -> String {\n${comment('    // ')}\n    return ""\n}\n`;
      if (where === 'docstring') return `/// Configure the client.\n${comment('/// ')}\nfunc ${name}() -> String {\n    return ""\n}\n`;
      if (where === 'default') return `func ${name}(value: String = "${text}") -> String {\n    return value\n}\n`;
      return text.includes('"""') || text.includes('\\') ? `${comment('// ')}\nfunc ${name}() -> String {\n    return ""\n}\n`
        : `func ${name}() -> String {\n    let config = #"""\n${text}\n"""#\n    return config\n}\n`;
    default: throw new Error(lang);
  }
}

/** Files of kinds cg does not index (yet) for the rules that apply to them only. */
const DOC_PATHS = ['infra/main.tf', 'deploy/secret.yaml', 'NuGet.config'];
const docs = [];

const EXT = { python: 'py', typescript: 'ts', javascript: 'js', go: 'go', java: 'java', php: 'php', rust: 'rs', swift: 'swift' };

function fileOf(lang, n, test, bodies) {
  const base = test ? { python: `test_creds_${n}.py`, typescript: `creds_${n}.test.ts`, javascript: `creds_${n}.test.js`,
    go: `creds_${n}_test.go`, java: `Creds${n}Test.java`, php: `Creds${n}Test.php`, rust: `creds_${n}_test.rs`, swift: `Creds${n}Tests.swift` }[lang]
    : `creds_${n}.${EXT[lang]}`;
  const dir = test ? 'tests' : 'src';
  const body = bodies.join('\n');
  const text = lang === 'go' ? `package creds\n\n${body}`
    : lang === 'java' ? `package creds;\n\nclass ${base.replace('.java', '')} {\n${body}}\n`
      : lang === 'php' ? `<?php\n\n${body}` : body;
  return { path: `${dir}/${base}`, text };
}

// ---- examples ----

const set = ruleSet();
const only = (id) => Allowlist.parse(set.rules.filter((r) => r.id !== id).map((r) => `rule:${r.id}`).join('\n'));

/** The secret the rule (alone) finds in `text` placed in a file (between `from` and `to`), or null. */
function secretOf(rule, filePath, text, from = 0, to = text.length) {
  const f = scanSecrets(filePath, text, only(rule)).filter((x) => x.start >= from && x.end <= to);
  return f.length === 1 ? text.slice(f[0].start, f[0].end) : null;
}

const random = (n, chars = ALNUM) => Array.from({ length: n }, () => pick(chars)).join('');
const hex = (n) => random(n, '0123456789abcdef');
const b64 = (n) => random(n, `${ALNUM}+/`);

// Hand-written: the forms real code writes credentials in, each with a fresh random secret.
const pemBody = () => Array.from({ length: 6 }, () => b64(64)).join('\n');
const entries = [];
const problems = [];
const HAND = [
  ['stripe-access-token', 'typescript', 'string', () => `STRIPE_KEY = "sk_test_${random(24)}"`],
  ['anthropic-api-key', 'python', 'string', () => `ANTHROPIC_API_KEY = "sk-ant-api03-${random(93, `${ALNUM}_-`)}AA"`],
  ['sendgrid-api-token', 'php', 'string', () => `$sendgrid = new SendGrid("SG.${random(22, `${ALNUM}_-`)}.${random(43, `${ALNUM}_-`)}");`],
  ['twilio-api-key', 'java', 'string', () => `twilioKey = "SK${hex(32)}";`],
  ['npm-access-token', 'javascript', 'string', () => `//registry.npmjs.org/:_authToken=npm_${random(36)}`],
  ['pypi-upload-token', 'python', 'docstring', () => `password = pypi-AgEIcHlwaS5vcmc${random(60, `${ALNUM}_-`)}`],
  ['mailgun-private-api-token', 'go', 'string', () => `mailgun_api_key = "key-${hex(32)}"`],
  ['digitalocean-pat', 'rust', 'string', () => `DIGITALOCEAN_TOKEN="dop_v1_${hex(64)}"`],
  ['vault-service-token', 'go', 'comment', () => `VAULT_TOKEN=hvs.${random(96, `${ALNUM}_-`)}`],
  ['shopify-access-token', 'swift', 'string', () => `shopifyToken = "shpat_${hex(32)}"`],
  ['azure-storage-account-key', 'typescript', 'string', () => `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${b64(86)}==;EndpointSuffix=core.windows.net`],
  ['telegram-bot-api-token', 'python', 'comment', () => `telegram_bot_token = "${random(10, '0123456789')}:A${random(34, `${ALNUM}_-`)}"`],
  ['authorization-header', 'javascript', 'string', () => `headers: { Authorization: "Bearer ${random(40, `${ALNUM}._-`)}" }`],
  ['credential-assignment', 'go', 'default', () => `const token = "${random(6, 'abcdefghjkmnpqrstuvwxyz')}${random(4, '23456789')}"`],
  ['putty-private-key', 'python', 'docstring', () => ['PuTTY-User-Key-File-3: ssh-ed25519', 'Encryption: none', 'Comment: deploy@build',
    'Public-Lines: 2', b64(64), b64(16), 'Private-Lines: 1', b64(44), `Private-MAC: ${hex(64)}`].join('\n')],
  ['private-key', 'typescript', 'comment', () => `-----BEGIN RSA ${'PRIVATE'} KEY-----\n${pemBody()}\n-----END RSA ${'PRIVATE'} KEY-----`],
  ['private-key-body', 'python', 'comment', () => `-----BEGIN OPENSSH ${'PRIVATE'} KEY-----\n${Array.from({ length: 4 }, () => b64(70)).join('\n')}`],
  ['connection-string-password', 'python', 'string', () => `DATABASE_URL = "postgresql://app:${random(14, `${ALNUM}!*`)}@db.internal:5432/orders"`],
  ['connection-string-password', 'java', 'string', () => `mongoUri = "mongodb+srv://svc:${random(12)}@cluster0.example.net/app";`],
  ['credential-assignment', 'typescript', 'string', () => `const password: string = "${random(5, 'abcdefghkmnpqrstuvwxyz')}${random(3, '0123456789')}";`],
  ['credential-assignment', 'rust', 'string', () => `let db_pass: &str = "${random(6, 'abcdefghkmnpqrstuvwxyz')}${random(2, '0123456789')}!";`],
  ['credential-assignment', 'swift', 'string', () => `let pwd: String = "${random(7, 'abcdefghkmnpqrstuvwxyz')}${random(2, '0123456789')}"`],
  ['credential-assignment', 'php', 'string', () => `$pass = '${random(5, 'abcdefghkmnpqrstuvwxyz')}${random(3, '0123456789')}';`],
  ['gitlab-pat', 'go', 'string', () => `GITLAB_TOKEN = "glpat-${random(20, `${ALNUM}_-`)}"`],
  ['slack-app-token', 'javascript', 'comment', () => `SLACK_APP_TOKEN=xapp-1-A${random(10, 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789')}-${random(13, '0123456789')}-${hex(64)}`],
  ['authorization-header', 'python', 'test', () => `session.headers["Authorization"] = "Basic ${b64(28)}="`],
  ['jwt', 'java', 'test', () => `String token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI${random(20, ALNUM)}In0.${random(43, `${ALNUM}_-`)}";`],
  ['aws-access-token', 'php', 'docstring', () => `aws_access_key_id = AKIA${random(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`],
  ['high-entropy-string', 'swift', 'comment', () => `let sessionSigner = "${random(44)}"`],
];


const add = (rule, lang, where, text) => {
  const i = entries.length;
  entries.push({ rule, lang, place: where, name: fnName(rule, i), text });
};
for (const [rule, lang, where, make] of HAND) {
  // A fresh random value until the rule accepts it (a random string can fall short of an entropy threshold).
  const text = Array.from({ length: 50 }, make).find((t) => secretOf(rule, `src/x.${EXT[lang]}`, place(lang, where, 'f', t)));
  if (text) add(rule, lang, where, text);
  else problems.push(`${rule} (hand-written)`);
}
const DOC_HAND = [
  ['kubernetes-secret-yaml', 'deploy/secret.yaml', () => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ntype: Opaque\ndata:\n  password: ${b64(32)}=\n`],
  ['nuget-config-password', 'NuGet.config', () => `<configuration>\n  <packageSourceCredentials>\n    <feed>\n      <add key="Username" value="ci" />\n      <add key="ClearTextPassword" value="${random(18)}" />\n    </feed>\n  </packageSourceCredentials>\n</configuration>`],
];
for (const [rule, file, make] of DOC_HAND) {
  const text = Array.from({ length: 50 }, make).find((t) => secretOf(rule, file, t));
  if (text) docs.push({ rule, path: file, text });
  else problems.push(`${rule} (hand-written)`);
}
set.rules.forEach((rule, k) => {
  if (HAND.some(([r]) => r === rule.id) || DOC_HAND.some(([r]) => r === rule.id)) return;
  const tree = parse(rule.regex.source);
  // A rule for one kind of file (Terraform, Kubernetes YAML, NuGet.config) gets its example in such a
  // file: cg does not index those yet, the test still checks the rule finds it there.
  const doc = rule.path && !LANGS.some((l) => rule.path.test(`src/x.${EXT[l]}`)) ? DOC_PATHS.find((d) => rule.path.test(d)) : null;
  const langs = rule.path ? LANGS.filter((l) => rule.path.test(`src/x.${EXT[l]}`)) : LANGS;
  const lang = langs[k % langs.length];
  const where = PLACES[k % PLACES.length];
  for (let attempt = 0; attempt < 200; attempt++) {
    const text = sample(tree, []).replace(/^\n+|\n+$/g, '');
    if (doc ? secretOf(rule.id, doc, text) : secretOf(rule.id, `src/x.${EXT[lang]}`, place(lang, where, fnName(rule.id, 0), text))) {
      if (doc) docs.push({ rule: rule.id, path: doc, text });
      else add(rule.id, lang, where, text);
      return;
    }
  }
  problems.push(rule.id);
});

// Files of up to 8 functions, one language each; 'test' placements go to test files.
const groups = new Map();
for (const e of entries) {
  const key = `${e.lang}:${e.place === 'test'}`;
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key).push(e);
}
const out = [];
for (const [key, list] of groups) {
  const [lang, test] = key.split(':');
  for (let n = 0; n * 8 < list.length; n++) {
    const chunk = list.slice(n * 8, n * 8 + 8);
    const bodies = chunk.map((e) => place(lang, e.place, e.name, e.text));
    const file = fileOf(lang, n + 1, test === 'true', bodies);
    for (const [k, e] of chunk.entries()) {
      const from = file.text.indexOf(bodies[k]);
      const secret = secretOf(e.rule, file.path, file.text, from, from + bodies[k].length);
      if (!secret) problems.push(`${e.rule} (in ${file.path}: ${JSON.stringify(bodies[k])})`);
      else out.push({ rule: e.rule, file: file.path, lang, place: e.place, function: e.name, secret_reversed: [...secret].reverse().join('') });
    }
    out.files ??= [];
    out.files.push({ path: file.path, text_reversed: [...file.text].reverse().join('') });
  }
}
for (const d of docs) {
  const secret = secretOf(d.rule, d.path, d.text);
  out.push({ rule: d.rule, file: d.path, lang: null, place: 'document', function: null, secret_reversed: [...secret].reverse().join('') });
  out.files.push({ path: d.path, text_reversed: [...`${d.text}\n`].reverse().join('') });
}
if (problems.length) {
  console.error(`no example found for: ${problems.join(', ')}`);
  process.exit(1);
}
const dest = path.join(ROOT, 'fixtures', 'secrets-corpus.json');
fs.writeFileSync(dest, `${JSON.stringify({
  about: 'Written by scripts/make-secrets-corpus.mjs (random values, not real credentials); texts and secrets are stored reversed.',
  gitleaks: set.source.commit,
  files: out.files,
  secrets: out,
}, null, 1)}\n`);
console.log(`${out.length} examples of ${new Set(out.map((e) => e.rule)).size} rules in ${out.files.length} files -> ${path.relative(process.cwd(), dest)}`);
