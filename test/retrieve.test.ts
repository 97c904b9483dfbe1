import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../src/retrieve/query.js';
import { buildContext, BUNDLE_MIN_CONFIDENCE, BUNDLE_PLACES } from '../src/retrieve/context.js';
import { renderContext } from '../src/cli/commands/query-cmd.js';
import { CgError } from '../src/errors.js';
import { createServer } from '../src/mcp/server.js';
import { baselineTokenize, tokenize } from '../src/retrieve/tokenize.js';
import { stretchCounter, tokenCounter, tokenCounterSource, tokenFloor } from '../src/retrieve/tokens.js';
import { BpeTable } from '../src/retrieve/bpe-table.js';
import { currentDbPath, openReader } from '../src/store/db.js';
import { copyFixture, git, indexFixture, makeRepo, ROOT, runCg, type Indexed } from './helpers.js';

interface GroundTruthTask {
  task_id: string;
  fixture: string;
  description: string;
  files_edited: string[];
  functions_edited: string[];
}

// Tasks written against our fixtures (fixtures/ground_truth.jsonl): the files and functions a change
// to each would edit are known, so a ranking regression shows here before it shows in the evaluation.
const tasks: GroundTruthTask[] = fs.readFileSync(path.join(ROOT, 'fixtures', 'ground_truth.jsonl'), 'utf8')
  .split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

const indexed = new Map<string, Indexed>();
beforeAll(async () => {
  for (const name of new Set(tasks.map((t) => t.fixture))) indexed.set(name, await indexFixture(name));
}, 120_000);
afterAll(() => {
  for (const i of indexed.values()) i.db.close();
});

function fixtureDb(name: string): { db: Database.Database; root: string } {
  const i = indexed.get(name)!;
  return { db: i.db, root: i.root };
}

describe('ranking on the synthetic ground truth', () => {
  it.each(tasks.map((t) => [t.task_id, t] as const))('%s: the edited file ranks first and the edited functions are among the places', async (_id, task) => {
    const { db, root } = fixtureDb(task.fixture);
    const res = await runQuery(db, root, { text: task.description, budget: 200_000 });
    expect(res.status).toBe('ok');
    const files = [...new Set(res.files.map((e) => e.path))];
    expect(files[0]).toBe(task.files_edited[0]);
    const symbols = res.files.map((e) => e.symbol);
    for (const fn of task.functions_edited) expect(symbols.some((s) => s === fn || s?.endsWith(`.${fn}`))).toBe(true);
  });
});

describe('tokenize', () => {
  it('splits identifiers, drops stop words and keeps the whole multi-part identifier', () => {
    expect(tokenize('the getTemplateName of HTTPServer')).toEqual(['get', 'template', 'name', 'gettemplatename', 'http', 'server', 'httpserver']);
  });

  it('gives back the e that -ing/-ed took where the stem is a short syllable or ends in at/bl/iz', () => {
    for (const [asked, defined] of [['saving', 'save'], ['created', 'create'], ['enabled', 'enable'], ['writing', 'write'], ['stored', 'store']]) {
      expect(tokenize(asked)).toEqual(tokenize(defined));
    }
    // Stems that were whole words stay as they are.
    expect(tokenize('reading opened fixing added')).toEqual(['read', 'open', 'fix', 'add']);
  });

  it('keeps the evaluation baseline tokenizer exactly as its spec says', () => {
    expect(baselineTokenize('saving created files')).toEqual(['sav', 'creat', 'file']);
  });
});

describe('token counts', () => {
  it('the cheap floor never exceeds the real count (it only lets packing skip places that cannot fit)', async () => {
    const count = await tokenCounter();
    const floor = await tokenFloor();
    const samples = [
      fs.readFileSync(path.join(ROOT, 'src', 'retrieve', 'query.ts'), 'utf8'),
      fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'),
      'déjà vu — 日本語のテキスト 😀 and emoji\r\n\t  indented\n\n\n',
      '<|endoftext|> special <|fim_prefix|> markers',
      '',
    ];
    for (const text of samples) {
      for (let i = 0; i < text.length; i += 613) {
        for (const s of [text.slice(i, i + 900), JSON.stringify(text.slice(i, i + 900))]) expect(floor(s)).toBeLessThanOrEqual(count(s));
      }
    }
    expect(floor('def f(x):\n    return x\n')).toBeGreaterThan(0);
  });

  it('counts with the shipped table of the ranks, each token at its rank; a damaged table is refused', async () => {
    expect(await tokenCounterSource()).toBe('table');
    const { Tiktoken } = await import('js-tiktoken/lite');
    const enc = new Tiktoken((await import('js-tiktoken/ranks/cl100k_base')).default);
    const file = path.join(ROOT, 'vendor', 'cl100k', 'ranks.bin');
    const table = BpeTable.load(file)!;
    const rankMap = (enc as unknown as { rankMap: Map<string, number> }).rankMap;
    expect(table.size).toBe(rankMap.size);
    let checked = 0;
    for (const [key, rank] of rankMap) {
      if (checked++ % 7) continue;
      const bytes = Uint8Array.from(key.split(',').map(Number));
      expect(table.rank(bytes, 0, bytes.length)).toBe(rank);
    }
    const text = new TextEncoder().encode('xx_qzqzqzq_not_a_token');
    expect(table.rank(text, 0, text.length)).toBe(-1);
    const data = fs.readFileSync(file);
    expect(BpeTable.fromBuffer(data.subarray(0, data.length - 1))).toBeNull();
    expect(BpeTable.fromBuffer(Buffer.concat([Buffer.from('NOTBPE1\0'), data.subarray(8)]))).toBeNull();
  });

  it('counts exactly what the encoder counts, though pieces are counted once and kept', async () => {
    const { Tiktoken } = await import('js-tiktoken/lite');
    const ranks = (await import('js-tiktoken/ranks/cl100k_base')).default;
    const enc = new Tiktoken(ranks);
    const count = await tokenCounter();
    const sources = [path.join(ROOT, 'src'), path.join(ROOT, 'fixtures')].flatMap((dir) => fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .map((rel) => path.join(dir, rel)).filter((p) => fs.statSync(p).isFile()));
    const samples = [
      ...sources.map((p) => fs.readFileSync(p, 'utf8')),
      'déjà vu — 日本語のテキスト 😀 and emoji\r\n\t  indented\n\n\n   x  12345678 1,000,000 \u00a0nbsp',
      '<|endoftext|> special <|fim_prefix|> markers',
      '    \n\t\t\n   ', '',
    ];
    expect(sources.length).toBeGreaterThan(100);
    // Twice: the second pass counts from the kept pieces.
    for (let pass = 0; pass < 2; pass++) {
      for (const text of samples) {
        expect(count(text)).toBe(enc.encode(text, 'all').length);
        expect(count(JSON.stringify(text))).toBe(enc.encode(JSON.stringify(text), 'all').length);
      }
    }
  });

  it('counts text with a few non-ASCII characters (split around them, ASCII stretches apart) exactly as the encoder', async () => {
    const { Tiktoken } = await import('js-tiktoken/lite');
    const ranks = (await import('js-tiktoken/ranks/cl100k_base')).default;
    const enc = new Tiktoken(ranks);
    const count = await tokenCounter();
    const floor = await tokenFloor();
    // Characters that end, continue or start pieces: ASCII letters, digits, contractions, spaces and line
    // breaks, punctuation; non-ASCII letters (é, ß, ǅ, Cyrillic, CJK), digits (Arabic ١, Roman Ⅻ), a
    // combining accent, spaces (no-break, line separator), punctuation (…, —), an emoji (two UTF-16 units).
    const parts = ['a', 'Z', 'name', 'x1', '7', '123', "'s", "'LL", "'", ' ', '  ', '\n', '\r\n', '\t', '"', '{"', '":', ',', '.', '_', '(', ')',
      'é', 'ß', 'ǅ', 'дом', '中文', '١٢', 'Ⅻ', '\u0301', '\u00a0', '\u2028', '…', '—', '😀', 'café', 'naïve'];
    let seed = 14;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const texts = ['… (12 more lines)', 'word…word', "it's…'s", 'a…1', '…', 'x …\n  y', '😀abc', 'abc😀', 'é"a', 'aé"b'];
    for (let i = 0; i < 3000; i++) texts.push(Array.from({ length: 1 + Math.floor(next() * 40) }, () => parts[Math.floor(next() * parts.length)]).join(''));
    for (const text of texts) {
      for (const s of [text, JSON.stringify(text)]) {
        expect(count(s), JSON.stringify(s)).toBe(enc.encode(s, 'all').length);
        expect(floor(s)).toBeLessThanOrEqual(count(s));
      }
    }
  });

  it('counts JSON answers stretch by stretch (cut after objects\' first keys) exactly as the encoder, stretches shared between texts', async () => {
    const { Tiktoken } = await import('js-tiktoken/lite');
    const ranks = (await import('js-tiktoken/ranks/cl100k_base')).default;
    const enc = new Tiktoken(ranks);
    const stretches = stretchCounter(await tokenCounter());
    // Keys that end in a letter (a cut), and keys where a cut would split a piece: `_` or a digit or a
    // non-ASCII letter before the quote, an escaped quote, a key's quote run into punctuation.
    const keys = ['name', 'file_path', 'line', 'a_', 'x1', 'é', 'naïve', 'q\\"', '', 'kind', 'ends_', 'confidence'];
    const values = ['Console.print', 'rich/console.py', 42, 0.25, null, true, 'déjà…', '"quoted"', 'a\nb', '<|endoftext|>', '😀', ''];
    let seed = 140;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
    const object = (depth: number): Record<string, unknown> => Object.fromEntries(Array.from({ length: 1 + Math.floor(next() * 5) }, () => {
      const r = next();
      return [pick(keys), depth < 3 && r < 0.2 ? object(depth + 1) : depth < 3 && r < 0.35 ? Array.from({ length: Math.floor(next() * 6) }, () => object(depth + 1)) : pick(values)];
    }));
    // Answers with a list cut at several lengths, as fitAnswer measures them: the later ones reuse stretches.
    const texts: string[] = [];
    for (let i = 0; i < 150; i++) {
      const entries = Array.from({ length: 1 + Math.floor(next() * 30) }, () => object(1));
      const head = object(1);
      for (const k of [entries.length, Math.floor(entries.length / 2), 1, 0]) texts.push(JSON.stringify({ ...head, callers: entries.slice(0, k), tokens_used: k * 7 }));
    }
    for (const text of texts) expect(stretches(text), text).toBe(enc.encode(text, 'all').length);
  });
});

describe('runQuery', () => {
  it('answers in the documented shape, with confidences in [0, 1] and scores relative to the best', async () => {
    const { db, root } = fixtureDb('python');
    const res = await runQuery(db, root, { text: 'apply a discount to the product price', snippets: true });
    expect(res).toMatchObject({ status: 'ok', tokenizer: 'cl100k_base', token_budget: 3500, stale_references: [] });
    expect(res.files.length).toBeGreaterThan(0);
    expect(res.files[0].score).toBe(1);
    for (const e of res.files) {
      // `weak` only on the places below the answer's confidence threshold (test/confidence.test.ts).
      expect(Object.keys(e).filter((k) => k !== 'weak').sort()).toEqual(['confidence', 'excerpt', 'kind', 'line_range', 'path', 'rationale', 'score',
        'signature', 'sources', 'symbol', 'symbol_id']);
      if ('weak' in e) expect(e.weak).toBe(true);
      expect(e.sources.length).toBeGreaterThan(0);
      expect(e.confidence).toBeGreaterThanOrEqual(0);
      expect(e.confidence).toBeLessThanOrEqual(1);
      expect(e.line_range[0]).toBeLessThanOrEqual(e.line_range[1]);
      expect(e.rationale.length).toBeGreaterThan(0);
      expect(fs.existsSync(path.join(root, e.path))).toBe(true);
    }
    const top = res.files[0];
    expect(top.excerpt).toContain(top.symbol!.split('.').pop());
  });

  it('stays within small budgets and says when places were left out', async () => {
    const { db, root } = fixtureDb('java');
    for (const budget of [100, 300, 1000]) {
      const res = await runQuery(db, root, { text: 'shop service total of products', budget, snippets: true });
      expect(res.tokens_used).toBeLessThanOrEqual(budget);
    }
    const tight = await runQuery(db, root, { text: 'shop service total of products', budget: 100, snippets: true });
    expect(tight.truncated).toBe(true);
    expect(tight.truncated_by).toBe('budget');
  });

  // Twenty files that all match one task: more than the 12 places an answer holds. Indexed once, for two tests.
  let carriers: string | null = null;
  const carrierRepo = () => {
    if (carriers) return carriers;
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`shipping/carrier_${i}.py`] = `def quote_parcel_rate_${i}(parcel):\n    return parcel.weight * ${i + 1}\n`;
    carriers = makeRepo(files);
    expect(runCg(['index', '-q'], carriers).code).toBe(0);
    return carriers;
  };

  it('says when the place cap, not the budget, held places back', async () => {
    const repo = carrierRepo();
    const res = runCg(['query', 'quote the parcel rate', '--json'], repo).json;
    expect(res.files).toHaveLength(12);
    expect(res.tokens_used).toBeLessThan(res.token_budget / 2);
    expect(res).toMatchObject({ truncated: true, truncated_by: 'places' });
    expect(runCg(['query', 'quote the parcel rate'], repo).stdout).toContain('more places ranked lower: at most 12 are returned');
    const whole = runCg(['query', 'quote_parcel_rate_3', '--json', '--budget', '200000'], repo).json;
    expect(whole.truncated_by === null || whole.truncated_by === 'places').toBe(true);
    const tight = runCg(['query', 'quote the parcel rate', '--budget', '150'], repo);
    expect(tight.stdout).toContain('more did not fit: raise --budget');
  });

  it('lists further ranked files after the places while the budget allows', async () => {
    const repo = carrierRepo();
    const res = runCg(['query', 'quote the parcel rate', '--json'], repo).json;
    const placed = new Set(res.files.map((e: { path: string }) => e.path));
    // The 20 files all match: 12 come as places, the other 8 as paths, none twice.
    expect(placed.size).toBe(12);
    expect(res.more_files).toHaveLength(8);
    expect(res.more_files.every((p: string) => !placed.has(p) && p.startsWith('shipping/carrier_'))).toBe(true);
    expect(res.tokens_used).toBeLessThanOrEqual(res.token_budget);
    expect(runCg(['query', 'quote the parcel rate'], repo).stdout).toContain(`more files, best first: ${res.more_files[0]}`);
    // A budget the places fill leaves no room for more paths, and the answer stays within it.
    const tight = runCg(['query', 'quote the parcel rate', '--json', '--budget', '300'], repo).json;
    expect(tight.tokens_used).toBeLessThanOrEqual(300);
    expect(tight.more_files.length).toBeLessThan(8);
  });

  it('follows calls and tests from the best match, and not at depth 0', async () => {
    const { db, root } = fixtureDb('python');
    const deep = await runQuery(db, root, { text: 'create_product', depth: 2, budget: 200_000 });
    expect(deep.files.some((e) => /^(called by|calls|test of) /.test(e.rationale))).toBe(true);
    const flat = await runQuery(db, root, { text: 'create_product', depth: 0, budget: 200_000 });
    expect(flat.files.some((e) => /^(called by|calls|test of) /.test(e.rationale))).toBe(false);
  });

  it('returns empty_results with a suggestion when nothing matches', async () => {
    const { db, root } = fixtureDb('python');
    const res = await runQuery(db, root, { text: 'zzqxv wqpfk' });
    expect(res).toMatchObject({ status: 'empty_results', files: [], tokens_used: 0 });
    expect(res.suggestion).toMatch(/Try/);
  });

  it('treats search-syntax characters as plain words', async () => {
    const { db, root } = fixtureDb('python');
    for (const text of ['"discount AND (price* OR', 'NEAR(a b) -x ^y', "'; DROP TABLE symbols; --", '***', '\u0000\u202e\ud83d\ude00']) {
      const res = await runQuery(db, root, { text });
      expect(['ok', 'empty_results']).toContain(res.status);
    }
    const res = await runQuery(db, root, { text: 'discount* AND "price"' });
    expect(res.files[0].path).toBe('shop/models.py');
  });

  it('never keeps a lower-ranked place while a better one is left out: a smaller budget keeps a prefix', async () => {
    const { db, root } = fixtureDb('python');
    const text = 'apply a discount to the product price and save it';
    const whole = await runQuery(db, root, { text, snippets: true, budget: 200_000 });
    for (const budget of [150, 300, 600, 1200]) {
      const res = await runQuery(db, root, { text, snippets: true, budget });
      expect(res.tokens_used).toBeLessThanOrEqual(budget);
      expect(res.files.map((e) => `${e.path}:${e.line_range[0]}`)).toEqual(whole.files.slice(0, res.files.length).map((e) => `${e.path}:${e.line_range[0]}`));
      if (res.files.length < whole.files.length) expect(res.truncated_by).toBe('budget');
    }
  });

  it('rejects bad input with usage errors that say what to do', async () => {
    const { db, root } = fixtureDb('python');
    const bad = [{ text: '   ' }, { text: 'x'.repeat(20_001) }, { text: 'price', budget: 99 }, { text: 'price', budget: 200_001 },
      { text: 'price', budget: 1.5 }, { text: 'price', depth: 5 }, { text: 'price', depth: -1 }];
    for (const input of bad) {
      const err = await runQuery(db, root, input).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CgError);
      expect((err as CgError).code).toBe('usage');
      expect((err as CgError).hint).toBeTruthy();
    }
  });

  it('ranks the files of an execution signal first and reports stale references', async () => {
    const { db, root } = fixtureDb('python');
    const res = await runQuery(db, root, { text: 'apply a discount to the product price', budget: 200_000,
      signals: [{ path: 'shop/util.py', line: 3, exists: true, depth: 0, symbol: null },
        { path: 'shop/gone.py', line: 7, exists: false, depth: 1, symbol: null }] });
    expect(res.files[0].path).toBe('shop/util.py');
    expect(res.files[0].rationale).toMatch(/execution signal/);
    expect(res.stale_references).toEqual([{ path: 'shop/gone.py', line: 7 }]);
  });

  it('redacts a credential that has come into a file since it was indexed, in excerpts and bundles', async () => {
    const repo = makeRepo({ 'app/config.py': 'def load_settings():\n    return {"region": "eu"}\n' });
    const { buildIndex } = await import('../src/indexer/build.js');
    const { openReader } = await import('../src/store/db.js');
    await buildIndex(repo);
    const key = ['AKIA', 'Z7QH2KXW', '4LMN6PRT'].join('');
    fs.writeFileSync(path.join(repo, 'app/config.py'), `def load_settings():\n    return {"aws_access_key_id": "${key}"}\n`);
    const db = openReader(repo);
    try {
      const res = await runQuery(db, repo, { text: 'load settings', snippets: true });
      expect(res.files[0].symbol).toBe('load_settings');
      expect(res.files[0].excerpt).toContain('"aws_access_key_id": "[REDACTED:aws-access-token]"');
      expect(JSON.stringify(res)).not.toContain(key);
      const bundle = await buildContext(db, repo, { text: 'load settings' });
      expect(JSON.stringify(bundle)).not.toContain(key);
    } finally {
      db.close();
    }
  });
});

describe('places at the right grain', () => {
  // A long function with short closures whose qualified names carry its words: BM25 favours the short
  // closures, which crowded out the function they live in ("how is an incremental update applied"
  // showed applyIncremental.lap and .key, not applyIncremental).
  const body = Array.from({ length: 40 }, (_, i) => `    const step${i} = records[${i}] ?? '';\n    total += step${i}.length * ${i + 1};`).join('\n');
  const files = {
    'src/apply.ts': `export function applyIncremental(records: string[]): number {
  const timings: number[] = [];
  const lap = (phase: string) => { timings.push(phase.length); };
  const key = (p: string, reason: string) => \`\${p}:\${reason}\`;
  let total = 0;
${body}
  lap('write');
  return total + key('a', 'b').length;
}
`,
    'src/report.ts': 'export function printReport(lines: string[]): string {\n  return lines.join("\\n");\n}\n',
    'keys.py': `def combine_settings(first, second):
    def merge_tables(a, b):
        def normalize_key(key):
            return key.strip().lower()

        return {normalize_key(k): v for k, v in {**a, **b}.items()}

    return merge_tables(first, second)
`,
    'routes.py': `def register_routes(app, options):
    \"\"\"Register every route of the options on the app, under the options' prefix.\"\"\"
    routes = options.routes
    for route in routes:
        app.add_route(route, options.prefix, options.methods)
    prefix = options.prefix
    app.register_prefix(prefix, routes)

    def fallback(request):
        return app.dispatch(request)

    app.fallback = fallback
    return routes
`,
    'app.py': `def load_settings(path):
    def parse_line(line):
        return line.split("=", 1)

    def merge(a, b):
        return {**a, **b}

    return [parse_line(l) for l in open(path)]
`,
  };
  let repo: string;
  let db: Database.Database;
  beforeAll(async () => {
    repo = makeRepo(files);
    expect(runCg(['index', '-q'], repo).code).toBe(0);
    db = openReader(repo);
  });
  afterAll(() => db.close());

  it('shows a closure as the function it lives in when it matches only through that function\'s name', async () => {
    const res = await runQuery(db, repo, { text: 'how is an incremental update applied', budget: 200_000 });
    const symbols = res.files.map((e) => e.symbol);
    expect(symbols).toContain('applyIncremental');
    expect(symbols.filter((s) => s?.startsWith('applyIncremental.'))).toEqual([]);
  });

  it('keeps a nested function that matches the task on its own', async () => {
    const res = await runQuery(db, repo, { text: 'the lap of each phase', budget: 200_000 });
    expect(res.files.map((e) => e.symbol)).toContain('applyIncremental.lap');
    const py = await runQuery(db, repo, { text: 'merge two settings dictionaries', budget: 200_000 });
    expect(py.files.map((e) => e.symbol)).toContain('load_settings.merge');
    const outer = await runQuery(db, repo, { text: 'load the settings', budget: 200_000 });
    expect(outer.files[0].symbol).toBe('load_settings');
    expect(outer.files.map((e) => e.symbol)).not.toContain('load_settings.parse_line');
  });

  it('shows a nested function ranked below the function it lives in through that function\'s place, not as a place of its own', async () => {
    // `fallback` matches on its own (its name), but register_routes matches better and its lines hold it:
    // a second place would repeat those lines and take a slot another function could have.
    const res = await runQuery(db, repo, { text: 'register the routes of the app with options and a fallback', budget: 200_000 });
    const symbols = res.files.map((e) => e.symbol);
    expect(symbols[0]).toBe('register_routes');
    expect(symbols).not.toContain('register_routes.fallback');
    expect(res.files[0].rationale).toContain("'fallback' in register_routes.fallback");
  });

  it('prints the lines of a nested function ranked above the function it lives in once, in that function\'s source', async () => {
    const res = await runQuery(db, repo, { text: 'load the settings and merge them', budget: 200_000 });
    expect(res.files.slice(0, 2).map((e) => e.symbol)).toEqual(['load_settings.merge', 'load_settings']);
    const bundle = await buildContext(db, repo, { text: 'load the settings and merge them' }, { placeTexts: true });
    const section = bundle.files.find((f) => f.path === 'app.py')!;
    expect(section.form).toBe('source');
    expect(section.text.split('def merge(a, b):').length - 1).toBe(1);
    const merge = section.places.find((p) => p.symbol === 'load_settings.merge')!;
    expect(merge.text).toBe('(lines 5-6: shown below, in load_settings 1-8)');
    expect(section.places[merge.within!].symbol).toBe('load_settings');
    expect(section.places.find((p) => p.symbol === 'load_settings')!.text).toContain('def merge(a, b):');
    // Bombe's answer gives each symbol its own source: the nested one's lines, cut from the function holding them.
    const h = createServer(repo, { toolsets: ['all'] });
    try {
      const res2 = await h.call('get_context', { query: 'load the settings and merge them' });
      const symbols = (res2.structuredContent as any).context_bundle.files.find((f: any) => f.path === 'app.py').symbols;
      expect(symbols.find((x: any) => x.name === 'load_settings.merge')).toMatchObject({ included_as: 'full_source',
        source: '    def merge(a, b):\n        return {**a, **b}' });
      // Three levels: the innermost is shown by the outermost function, whose text is source (the middle one's is a note).
      const keys = await buildContext(db, repo, { text: 'normalize the key when merging tables of combined settings' }, { placeTexts: true });
      const k = keys.files.find((f) => f.path === 'keys.py')!;
      expect(k.places.map((p) => p.symbol)).toEqual(['combine_settings.merge_tables.normalize_key', 'combine_settings.merge_tables', 'combine_settings']);
      expect(k.places.map((p) => p.within)).toEqual([2, 2, undefined]);
      expect(k.text.split('def normalize_key(key):').length - 1).toBe(1);
      const res3 = await h.call('get_context', { query: 'normalize the key when merging tables of combined settings' });
      const ks = (res3.structuredContent as any).context_bundle.files.find((f: any) => f.path === 'keys.py').symbols;
      expect(ks[0].source).toBe('        def normalize_key(key):\n            return key.strip().lower()');
    } finally {
      h.live.close();
    }
  });
});

describe('buildContext', () => {
  it('leaves files unlikely to be edited out of the bundle, by path in more_files, keeping the first and named ones', async () => {
    const { db, root } = fixtureDb('typescript');
    const text = 'save an entity in the repository after validation';
    const all = await buildContext(db, root, { text }, { minConfidence: 0 });
    const cut = await buildContext(db, root, { text });
    const ranked = await runQuery(db, root, { text, budget: 200_000, snippets: false, maxRegions: BUNDLE_PLACES });
    const best = new Map<string, number>();
    for (const e of ranked.files) best.set(e.path, Math.max(best.get(e.path) ?? 0, e.confidence));
    const kept = cut.files.map((f) => f.path);
    expect(all.more_files).toEqual([]);
    expect(cut.more_files.length).toBeGreaterThan(0);
    expect(kept[0]).toBe(all.files[0].path);
    expect(all.files.map((f) => f.path).filter((p) => kept.includes(p))).toEqual(kept); // same order
    expect(new Set([...kept, ...cut.more_files])).toEqual(new Set(all.files.map((f) => f.path)));
    for (const p of kept.slice(1)) expect(best.get(p)).toBeGreaterThanOrEqual(BUNDLE_MIN_CONFIDENCE);
    for (const p of cut.more_files) expect(best.get(p)).toBeLessThan(BUNDLE_MIN_CONFIDENCE);
    expect(renderContext(cut)).toContain(`more files, ranked but unlikely to need a change: ${cut.more_files.join(', ')}`);
    // A file the caller names an entry point in stays, whatever its confidence.
    expect(cut.more_files).toContain('src/core/model.ts');
    const named = await buildContext(db, root, { text, entryPoints: ['Repository', 'Product'] }); // model.ts second
    expect(named.files.map((f) => f.path)).toContain('src/core/model.ts');
    expect(named.more_files).not.toContain('src/core/model.ts');
  });

  it('packs whole files within the budget: entry points as source, the rest as signatures', async () => {
    const { db, root } = fixtureDb('typescript');
    for (const budget of [300, 1500, 8000]) {
      const bundle = await buildContext(db, root, { text: 'save an entity in the repository after validation', budget });
      expect(bundle.status).toBe('ok');
      expect(bundle.tokens_used).toBeLessThanOrEqual(budget);
      expect(new Set(bundle.files.map((f) => f.path)).size).toBe(bundle.files.length);
    }
    const big = await buildContext(db, root, { text: 'save an entity in the repository after validation', budget: 8000 });
    expect(big.files[0]).toMatchObject({ path: 'src/core/repository.ts', form: 'source' });
    expect(big.files[0].text).toContain('save(');
    expect(big.summary.length).toBeGreaterThan(0);
  });

  it('gives an entry point too long for the budget as its first lines rather than leaving its file out', async () => {
    // One long function about invoices, and a short neighbour that mentions them once.
    const body = Array.from({ length: 110 }, (_, i) => `    total_${i} = invoice.lines[${i}].amount * invoice.rate  # rounding of invoice line ${i}`);
    const repo = makeRepo({
      'billing/invoice.py': `def round_invoice_totals(invoice):\n    """Round every invoice line total."""\n${body.join('\n')}\n    return invoice\n`,
      'billing/report.py': 'def print_report(rows):\n    """Print rows; invoice totals come rounded."""\n    return rows\n',
    });
    const { buildIndex } = await import('../src/indexer/build.js');
    const { openReader } = await import('../src/store/db.js');
    await buildIndex(repo);
    const db = openReader(repo);
    try {
      const budget = 900;
      const whole = await buildContext(db, repo, { text: 'round invoice totals', budget: 20_000 });
      expect(whole.files[0]).toMatchObject({ path: 'billing/invoice.py', form: 'source' });
      expect((await tokenCounter())(whole.files[0].text)).toBeGreaterThan(budget);
      const bundle = await buildContext(db, repo, { text: 'round invoice totals', budget });
      expect(bundle.tokens_used).toBeLessThanOrEqual(budget);
      expect(bundle.truncated).toBe(true);
      expect(bundle.truncated_by).toBe('budget');
      expect(bundle.files[0]).toMatchObject({ path: 'billing/invoice.py', form: 'excerpt' });
      expect(bundle.files[0].text).toContain('def round_invoice_totals(invoice):');
      expect(bundle.files[0].text).toMatch(/cut to fit the budget: read billing\/invoice\.py:\d+-113 for the rest/);
      expect(bundle.files.map((f) => f.path)).toContain('billing/report.py');
    } finally {
      db.close();
    }
  });

  it('holds at most 12 files, and says when more matched', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`shipping/carrier_${i}.py`] = `def quote_parcel_rate_${i}(parcel):\n    """Quote the parcel rate of carrier ${i}."""\n    return parcel.weight * ${i + 1}\n`;
    const repo = makeRepo(files);
    const { buildIndex } = await import('../src/indexer/build.js');
    const { openReader } = await import('../src/store/db.js');
    await buildIndex(repo);
    const db = openReader(repo);
    try {
      const bundle = await buildContext(db, repo, { text: 'quote the parcel rate', budget: 20_000 });
      expect(bundle.files).toHaveLength(12);
      expect(bundle.truncated).toBe(true);
      expect(bundle.truncated_by).toBe('files');
      expect(bundle.summary).toContain('in 12 files');
    } finally {
      db.close();
    }
  });
});

describe('cg query and cg context (the CLI)', () => {
  let repo: string;
  beforeAll(() => {
    repo = copyFixture('go');
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'fixture');
    expect(runCg(['index'], repo).code).toBe(0);
  });

  it('prints the JSON response with freshness', () => {
    const res = runCg(['query', 'format', 'the', 'output', 'line', '--json', '--snippets'], repo);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toMatchObject({ status: 'ok', query: 'format the output line', tokenizer: 'cl100k_base' });
    expect(res.json.files[0].path).toBe('service/format.go');
    expect(res.json.freshness).toBeTruthy();
  });

  it('prints places with reasons for people', () => {
    const res = runCg(['query', 'format the output line'], repo);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^service\/format\.go:\d+-\d+ {2}format {2}score 1\.00/);
    expect(res.stdout).toMatch(/places, \d+\/3500 tokens/);
  });

  it('boosts the places a signal file names, and reports the ones that no longer exist', () => {
    const trace = path.join(repo, 'trace.txt');
    fs.writeFileSync(trace, 'panic: boom\n\ngoroutine 1 [running]:\nexample/store.(*Repository).Get()\n\t/src/app/store/store.go:20 +0x1d\n'
      + '\t/src/app/store/removed.go:12 +0x2\nruntime.gopanic()\n\t/usr/local/go/src/runtime/panic.go:884 +0x213\n');
    const res = runCg(['query', 'format the output line', '--signal-file', trace, '--json'], repo);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.files[0].path).toBe('store/store.go');
    const stale = res.json.stale_references.map((s: { path: string }) => s.path);
    expect(stale.some((p: string) => p.endsWith('store/removed.go'))).toBe(true);
    // The Go runtime's own frame is a library's, not a stale reference to the repository.
    expect(stale.some((p: string) => p.includes('panic.go'))).toBe(false);
    expect(res.json.files[0].rationale).toMatch(/line 20 is in the execution signal \(frame 0\)/);
  });

  it('builds a context bundle within the budget', () => {
    const res = runCg(['context', 'lookup', 'of', 'missing', 'keys', '--budget', '2000', '--json'], repo);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.tokens_used).toBeLessThanOrEqual(2000);
    expect(res.json.files.length).toBeGreaterThan(0);
    const text = runCg(['context', 'lookup of missing keys'], repo);
    expect(text.stdout).toMatch(/^# /);
  });

  it('fails clearly on bad arguments, with exit code 2 and a hint', () => {
    const binary = path.join(repo, 'trace.bin');
    fs.writeFileSync(binary, Buffer.from([0, 1, 2, 0, 255, 0]));
    const outside = makeRepo({ 'x.go': 'package x\n' });
    const cases: [string[], RegExp][] = [
      [['query', '--budget', '50', 'format'], /budget/],
      [['query', '--depth', '9', 'format'], /depth/],
      [['query', '--signal-file', binary, 'format'], /not text/],
      [['query', '--signal-file', path.join(repo, 'nope.txt'), 'format'], /Cannot read the signal file/],
      [['query', '--cursor-file', path.join(outside, 'x.go'), 'format'], /outside the repository/],
      [['query', ' '], /empty/],
    ];
    for (const [args, message] of cases) {
      const res = runCg([...args, '--json'], repo);
      expect(res.code, `${args.join(' ')}: ${res.stdout}${res.stderr}`).toBe(2);
      const err = JSON.parse(res.stdout || res.stderr).error ?? JSON.parse(res.stdout || res.stderr);
      expect(err.message).toMatch(message);
      expect(err.hint).toBeTruthy();
    }
  });

  it('says how to build the index when there is none', () => {
    const bare = makeRepo({ 'a.py': 'def f():\n    pass\n' }, { git: true });
    const res = runCg(['query', 'f'], bare);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/cg index/);
  });
});

describe('commit-message boilerplate', () => {
  const TEMPLATE = ['## Changes', 'What changes are made in this PR?', '## Checklist', '- [ ] I have added tests',
    '- [ ] I have updated the documentation'].join('\n');
  const files = {
    'src/cache.py': [
      'class Cache:',
      '    def evict_expired(self, now):',
      '        """Drop the cache entries whose expiry time has passed."""',
      '        for key, entry in list(self.entries.items()):',
      '            if entry.expires_at < now:',
      '                del self.entries[key]',
      '',
    ].join('\n'),
    // Shares every word of the template and none of the task.
    'src/checklist.py': [
      'def render_checklist(changes, tests_added, documentation_updated):',
      '    """The checklist of changes made: tests added, documentation updated."""',
      '    made = [change for change in changes if change.made]',
      '    return {"changes": made, "tests": tests_added, "added": tests_added, "documentation": documentation_updated, "updated": True}',
      '',
    ].join('\n'),
  };
  const task = `Fix cache eviction of expired entries\n\n${TEMPLATE}`;
  const commitWithTemplate = (dir: string, subject: string) => {
    fs.appendFileSync(path.join(dir, 'NOTES.md'), `${subject}\n`);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', `${subject}\n\n${TEMPLATE}`);
  };

  it('lines the history repeats are learnt when they recur, kept in the index, and left out of the ranking', () => {
    const dir = makeRepo(files, { commit: true });
    commitWithTemplate(dir, 'Add a changelog entry for the parser');
    commitWithTemplate(dir, 'Rename the session helper');
    expect(runCg(['index', '--json'], dir).code).toBe(0);
    // Two messages are not yet a pattern: the template's words still pull the checklist module first.
    const before = runCg(['query', task, '--json'], dir).json;
    expect(before.files[0].path).toBe('src/checklist.py');
    expect(before.warnings).toEqual([]);

    commitWithTemplate(dir, 'Support nested sessions');
    expect(runCg(['update', '--json'], dir).code).toBe(0);
    const after = runCg(['query', task, '--json'], dir).json;
    expect(after.files[0].path).toBe('src/cache.py');
    expect(after.warnings.join(' ')).toMatch(/5 lines of the query recur in this repository's commit messages/);
    expect(after.query).toBe(task);

    // A full build of the same commit learns the same lines.
    const db = () => openReader(dir);
    const learnt = (d: Database.Database) => { try { return d.prepare("SELECT value FROM meta WHERE key = 'message_boilerplate'").pluck().get(); } finally { d.close(); } };
    const incremental = learnt(db());
    expect(JSON.parse(incremental as string)).toContain('- [ ] i have added tests');
    expect(runCg(['index', '--full', '--json'], dir).code).toBe(0);
    expect(learnt(db())).toBe(incremental);
  });

  it('never drops the subject line; without history, or with a damaged stored value, drops nothing', () => {
    const dir = makeRepo(files, { commit: true });
    for (const s of ['one', 'two', 'three']) commitWithTemplate(dir, s);
    expect(runCg(['index', '--json'], dir).code).toBe(0);
    const res = runCg(['query', '## Checklist', '--json'], dir).json;
    expect(res.warnings).toEqual([]);
    expect(res.files[0].path).toBe('src/checklist.py');

    const plain = makeRepo(files);
    expect(runCg(['index', '--json'], plain).code).toBe(0);
    expect(runCg(['query', task, '--json'], plain).json.warnings).toEqual([]);

    // A damaged stored value costs the template filter, not the answer.
    const db = new Database(currentDbPath(dir)!);
    db.prepare("UPDATE meta SET value = '{not json' WHERE key = 'message_boilerplate'").run();
    db.close();
    const damaged = runCg(['query', task, '--json'], dir);
    expect(damaged.code).toBe(0);
    expect(damaged.json.warnings).toEqual([]);
    expect(damaged.json.files.length).toBeGreaterThan(0);
  });
});

describe('an open connection after the index changes', () => {
  // A long-running server keeps one connection and caches what every query reads the same way (document
  // lengths, symbol counts, candidate files' facts: src/store/version-cache.ts): another process's update
  // must show in its next answer exactly as in a fresh connection's.
  it('answers from the updated index as a fresh connection does', async () => {
    const dir = makeRepo({
      'src/session.py': 'def open_session(user):\n    """Open a session for the user."""\n    return {"user": user}\n',
      'src/tokens.py': 'def make_token(user):\n    """A token for the user."""\n    return str(user)\n',
    }, { commit: true });
    expect(runCg(['index', '--json'], dir).code).toBe(0);
    const task = 'rotate the refresh token when the session expires';
    const live = openReader(dir);
    try {
      const before = await runQuery(live, dir, { text: task });
      fs.writeFileSync(path.join(dir, 'src', 'refresh.py'), [
        'def rotate_refresh_token(session):',
        '    """Rotate the refresh token of an expired session: a new refresh token when the session expires."""',
        '    if session.expires:',
        '        session.refresh_token = new_refresh_token(session)',
        '    return session.refresh_token',
        '',
        'def new_refresh_token(session):',
        '    return "refresh-" + session.id',
        '',
      ].join('\n'));
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', 'Rotate refresh tokens');
      expect(runCg(['update', '--json'], dir).code).toBe(0);
      const after = await runQuery(live, dir, { text: task });
      const fresh = openReader(dir);
      try {
        expect(after).toEqual(await runQuery(fresh, dir, { text: task }));
      } finally {
        fresh.close();
      }
      expect(after.files[0].path).toBe('src/refresh.py');
      expect(after.total_symbols).toBeGreaterThan(before.total_symbols);
    } finally {
      live.close();
    }
  });
});
