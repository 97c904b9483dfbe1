import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { makeRepo, runCg, tempDir } from './helpers.js';
import { makePdf } from './pdf-fixture.js';
import { buildIndex } from '../src/indexer/build.js';
import { updateIndex, recordSaves } from '../src/indexer/update.js';
import { openReader } from '../src/store/db.js';
import { symbolsWhere } from '../src/store/queries.js';
import { runQuery } from '../src/retrieve/query.js';
import { documentFormatOf } from '../src/extract/documents/formats.js';
import { ADDON, CLIENT, CORE } from './registry-fixtures.js';
import { openRegistry } from '../src/registry/db.js';
import { addProject } from '../src/registry/projects.js';
import { indexNow } from '../src/registry/indexing.js';
import { IndexPool, federatedSearch } from '../src/registry/federate.js';

/**
 * Documents indexed beside code (CodeMem Phase 4): Markdown sections, YAML/JSON key paths, PDF pages,
 * plain-text sections, `.env` key names without values; searchable with code, filtered by type.
 */
const ENV_SECRET = 'zq9Xv2LmR7tKp4Wn8YbC3dHs';
const FILES: Record<string, string | Buffer> = {
  'README.md': `---
title: front matter is not a section
---
Popup Maker builds popups.

# Installation

Run the installer.

## Requirements

PHP 8.1 and WordPress 6.4 are required.

\`\`\`md
# not a heading inside a fence
\`\`\`

Upgrading
---------

Back up the database before upgrading.
`,
  'config/app.yaml': `database:
  primary:
    host: db.internal
    port: 5432
servers:
  - url: https://api.example.org
    region: eu-west
---
second: document
`,
  'data/settings.json': '{\n  "retry": {\n    "maxAttempts": 7,\n    "backoff": "exponential with jitter"\n  },\n  "tags": ["a", "b"]\n}\n',
  '.env': `# Stripe key for the checkout webhook\nSTRIPE_WEBHOOK_SECRET=${ENV_SECRET}\nexport LOG_LEVEL=debug\n`,
  'docs/notes.txt': 'Release process\n===============\n\nTag the release and publish the changelog.\n\nHotfixes\n--------\n\nCherry-pick onto the release branch.\n',
  'manual.pdf': makePdf([
    ['Operator manual', 'Chapter 1: Overview', 'The relay controller forwards telemetry frames.'],
    ['Chapter 2: Calibration', 'Calibrate the thermal sensor every ninety days.', 'Use the quartz reference probe.'],
    ['Chapter 3: Shutdown', 'Hold the red button for five seconds to power down.'],
  ]),
  'src/app.py': 'def calibrate_sensor(probe):\n    """Calibrate the sensor with a probe."""\n    return probe\n',
  'package-lock.json': '{"lockfileVersion": 3}\n',
  'data/runs.json': `{"runs": [\n${Array.from({ length: 10 }, (_, i) => `  {"id": ${i}, "score": 0.${i}}`).join(',\n')}\n]}\n`,
};

let root: string;
let db: Database.Database;

beforeAll(async () => {
  root = makeRepo(FILES, { commit: true });
  await buildIndex(root);
  db = openReader(root);
});

afterAll(() => db?.close());

const units = (file: string) => symbolsWhere(db, "f.path = ? AND s.kind != 'module'", [file], 'ORDER BY s.start_line, s.qualified_name')
  .map((s) => `${s.kind} ${s.qualifiedName} ${s.startLine}-${s.endLine}`);

describe('document units', () => {
  it('Markdown: sections on ATX and setext headings, nested, outside fences and front matter', () => {
    expect(units('README.md')).toEqual([
      'section (introduction) 4-5',
      'section Installation 6-22',
      'section Installation > Requirements 10-17',
      'section Installation > Upgrading 18-22',
    ]);
    const req = symbolsWhere(db, "s.qualified_name = 'Installation > Requirements'")[0];
    expect(req).toMatchObject({ language: 'markdown', signature: '## Requirements', doc: 'PHP 8.1 and WordPress 6.4 are required.' });
  });

  it('YAML and JSON: key paths with their lines and scalar values', () => {
    expect(units('config/app.yaml')).toEqual([
      'key database 1-4', 'key database.primary 2-4', 'key database.primary.host 3-3', 'key database.primary.port 4-4',
      'key servers 5-7', 'key servers.0 6-7', 'key servers.0.url 6-6', 'key servers.0.region 7-7', 'key second 9-9',
    ]);
    expect(symbolsWhere(db, "s.qualified_name = 'retry.backoff'")[0]).toMatchObject({ signature: 'retry.backoff: exponential with jitter', startLine: 4 });
    expect(units('data/settings.json')).toContain('key tags 6-6');
    // A list of records: its first three say its shape; the list's own key spans all ten.
    expect(units('data/runs.json')).toEqual(['key runs 1-12', 'key runs.0 2-2', 'key runs.0.id 2-2', 'key runs.0.score 2-2',
      'key runs.1 3-3', 'key runs.1.id 3-3', 'key runs.1.score 3-3', 'key runs.2 4-4', 'key runs.2.id 4-4', 'key runs.2.score 4-4']);
  });

  it('.env: key names only; the values are in no table, term or answer', async () => {
    expect(units('.env')).toEqual(['key STRIPE_WEBHOOK_SECRET 2-2', 'key LOG_LEVEL 3-3']);
    expect(symbolsWhere(db, "s.name = 'STRIPE_WEBHOOK_SECRET'")[0]).toMatchObject({ signature: 'STRIPE_WEBHOOK_SECRET=', doc: 'Stripe key for the checkout webhook' });
    const dbFiles = fs.readdirSync(path.join(root, '.codegraph'), { recursive: true }) as string[];
    for (const f of dbFiles) {
      const abs = path.join(root, '.codegraph', f);
      if (fs.statSync(abs).isFile()) expect(fs.readFileSync(abs).includes(ENV_SECRET), f).toBe(false);
    }
    expect(db.prepare("SELECT COUNT(*) FROM terms WHERE term LIKE '%zq9xv%' OR term LIKE '%debug%'").pluck().get()).toBe(0);
    const q = await runQuery(db, root, { text: 'stripe webhook secret', snippets: true, filterType: 'documents' });
    expect(q.files[0]).toMatchObject({ path: '.env', symbol: 'STRIPE_WEBHOOK_SECRET' });
    expect(JSON.stringify(q)).not.toContain(ENV_SECRET);
    expect(q.files[0].excerpt).toBe('STRIPE_WEBHOOK_SECRET= …');
    const cli = runCg(['query', 'stripe webhook secret', '--snippets', '--type', 'all', '--json'], root);
    expect(cli.json.files.map((f: { path: string }) => f.path)).toContain('.env');
    expect(cli.stdout).not.toContain(ENV_SECRET);
    expect(runCg(['file', '.env', '--json'], root).stdout).not.toContain(ENV_SECRET);
  });

  it('plain text: sections on underlined titles', () => {
    expect(units('docs/notes.txt')).toEqual(['section Release process 1-10', 'section Release process > Hotfixes 6-10']);
  });

  it('PDF: one unit per page, its text searchable and shown in excerpts', async () => {
    expect(units('manual.pdf').map((u) => u.replace(/ \d+-\d+$/, ''))).toEqual(['section manual.pdf p.1', 'section manual.pdf p.2', 'section manual.pdf p.3']);
    const q = await runQuery(db, root, { text: 'how often must the thermal sensor be calibrated', snippets: true, filterType: 'documents' });
    expect(q.files[0]).toMatchObject({ path: 'manual.pdf', symbol: 'manual.pdf p.2' });
    expect(q.files[0].excerpt).toContain('Calibrate the thermal sensor every ninety days.');
  });

  it('lockfiles and source maps are not documents', () => {
    expect(documentFormatOf('package-lock.json')).toBeNull();
    expect(documentFormatOf('dist/app.js.map')).toBeNull();
    expect(documentFormatOf('.env.production')).toBe('env');
    expect(db.prepare("SELECT COUNT(*) FROM files WHERE path = 'package-lock.json'").pluck().get()).toBe(0);
  });
});

describe('filter_type and results that say their type', () => {
  it('code (the default), documents, or both merged by rank', async () => {
    const all = await runQuery(db, root, { text: 'calibrate the sensor with a probe', filterType: 'all' });
    // Each kind is ranked among its own and the lists interleave: the best code and the best document lead.
    expect(all.files.slice(0, 2).map((f) => f.path).sort()).toEqual(['manual.pdf', 'src/app.py']);
    const code = await runQuery(db, root, { text: 'calibrate the sensor with a probe' });
    expect(code.files.every((f) => f.path === 'src/app.py')).toBe(true);
    // Words only a document holds: with all, the document is among the first places.
    const onlyDocs = await runQuery(db, root, { text: 'quartz reference probe ninety days', filterType: 'all' });
    expect(onlyDocs.files.slice(0, 2).map((f) => f.path)).toContain('manual.pdf');
    const docs = await runQuery(db, root, { text: 'calibrate the sensor with a probe', filterType: 'documents' });
    expect(docs.files.some((f) => f.path === 'src/app.py')).toBe(false);
    expect(runCg(['query', 'calibrate', '--type', 'docs'], root).code).toBe(2);
  });

  it('federated search returns document sections with type document', async () => {
    const home = tempDir('cg-home-docs-');
    const reg = openRegistry(home);
    const pool = new IndexPool();
    try {
      const projects = [];
      for (const [name, files] of Object.entries({ core: CORE, addon: { ...ADDON, 'docs/triggers.md': '# Triggers\n\nA cookie trigger opens the popup once per visitor.\n' }, client: CLIENT })) {
        const p = addProject(reg, { path: makeRepo(files, { commit: true }), name });
        expect((await indexNow(reg, p, 'incremental'))[0].error).toBeNull();
        projects.push(p);
      }
      const docs = await federatedSearch(pool, projects, { query: 'cookie trigger visitor', limit: 5, filterType: 'documents' });
      expect(docs.results.map((r) => [r.project, r.file_path, r.type, r.language])).toEqual([['addon', 'docs/triggers.md', 'document', 'markdown']]);
      const code = await federatedSearch(pool, projects, { query: 'cookie trigger visitor', limit: 5, filterType: 'code' });
      expect(code.results.every((r) => r.type === 'code')).toBe(true);
    } finally {
      pool.close();
      reg.close();
    }
  });
});

describe('documents change like code', () => {
  it('an edited Markdown file is re-split by an incremental update', async () => {
    const repo = makeRepo({ 'guide.md': '# One\n\ntext\n' }, { commit: true });
    await buildIndex(repo);
    fs.writeFileSync(path.join(repo, 'guide.md'), '# One\n\ntext\n\n## Two\n\nmore\n');
    recordSaves(repo, ['guide.md']);
    await updateIndex(repo);
    const d = openReader(repo);
    try {
      expect(symbolsWhere(d, "s.kind = 'section'", [], 'ORDER BY s.start_line').map((s) => s.qualifiedName)).toEqual(['One', 'One > Two']);
    } finally {
      d.close();
    }
  });

  it('a document holding a credential is indexed without it, as code is; a PDF holding one is left out whole', async () => {
    const token = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const repo = makeRepo({ 'ops.md': `# Deploy with ${token}\n\nUse the token ${token} for the release bot.\n`, 'ok.md': '# Fine\n',
      'keys.pdf': makePdf([[`Release token ${token}`]]) });
    await buildIndex(repo);
    const d = openReader(repo);
    try {
      expect(d.prepare("SELECT COUNT(*) FROM files WHERE path IN ('ops.md', 'ok.md')").pluck().get()).toBe(2);
      expect(d.prepare("SELECT reason FROM skipped WHERE path = 'keys.pdf'").pluck().get()).toBe('secret');
      const texts = (d.prepare('SELECT signature, doc, qualified_name FROM symbols').raw().all() as unknown[][]).flat().join('\n');
      expect(texts).toContain('[REDACTED:');
      expect(texts).not.toContain(token.slice(4, 16));
      const q = await runQuery(d, repo, { text: 'deploy release bot token', snippets: true, filterType: 'documents' });
      const ops = q.files.find((f) => f.path === 'ops.md');
      expect(ops?.excerpt).toContain('[REDACTED:');
      expect(JSON.stringify(q)).not.toContain(token.slice(4, 16));
    } finally {
      d.close();
    }
    expect(fs.readdirSync(path.join(repo, '.codegraph')).join(' ')).not.toContain('text'); // no PDF text kept
    // secrets.mode exclude: the document is left out whole.
    fs.writeFileSync(path.join(repo, 'cg.config.json'), '{ "secrets": { "mode": "exclude" } }\n');
    await buildIndex(repo);
    const e = openReader(repo);
    try {
      expect(e.prepare("SELECT reason FROM skipped WHERE path = 'ops.md'").pluck().get()).toBe('secret');
      expect(e.prepare("SELECT COUNT(*) FROM files WHERE path = 'ok.md'").pluck().get()).toBe(1);
    } finally {
      e.close();
    }
  });
});
