import { createHash } from 'node:crypto';
import { readContained } from '../repo/contained.js';
import { languageById } from '../lang/registry.js';
import { loadLanguage } from '../lang/loader.js';
import type { SecretsMode } from '../config/config.js';
import { Allowlist, type AllowlistData } from '../secrets/allowlist.js';
import { scrubText } from '../secrets/redact.js';
import { errorMessage } from '../errors.js';
import { extractSource } from './extract.js';
import { fileTerms } from '../retrieve/terms.js';
import { generatedReason, isBinary, minifiedReason } from './filters.js';
import type { FileOutcome, SkippedOutcome } from './types.js';
import { isDocumentFormat, maxBytesFor, type DocumentFormat } from './documents/formats.js';
import { extractDocument } from './documents/extract.js';
import { keepPdfText } from './documents/view.js';

export interface FileJob {
  path: string; // repo-relative POSIX
  language: string;
  size: number;
}

export interface ProcessOptions {
  root: string;
  maxFileBytes: number;
  secretsEnabled: boolean;
  secretsMode: SecretsMode;
  allowlist: AllowlistData;
}

/** sha256 of a file's bytes, as stored in `files.hash`; null if it cannot be read (or not without leaving the repository). */
export function fileHash(root: string, rel: string, maxBytes: number): string | null {
  const read = readContained(root, rel, maxBytes);
  return read.ok ? createHash('sha256').update(read.data).digest('hex') : null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Lossy = new TextDecoder('utf-8');

/**
 * One file from disk to extraction result. The order is the safety argument: the file's text is
 * scrubbed (src/secrets/redact.ts) as soon as it is decoded, and only the scrubbed text goes on to the
 * filters, the parser and the search terms; with `secrets.mode: exclude` a file with a finding yields
 * nothing but its reason.
 */
export async function processFile(job: FileJob, opts: ProcessOptions, allow: Allowlist): Promise<FileOutcome> {
  const skip = (reason: SkippedOutcome['reason'], detail: string, hash: string | null = null,
    size = job.size): SkippedOutcome => ({ status: 'skipped', path: job.path, language: job.language, size, hash, reason, detail });

  // The walk found a regular file inside the repository; it is read only if it still is one.
  const read = readContained(opts.root, job.path, maxBytesFor(job.language, opts.maxFileBytes));
  if (!read.ok) return read.reason === 'too_large' ? skip('too_large', read.detail) : skip('unreadable', `not read: ${read.detail}`);
  const buf = read.data;
  const hash = createHash('sha256').update(buf).digest('hex');
  // A PDF is binary: its text comes from the document extractor.
  if (job.language === 'pdf') return pdfOutcome(job, opts, allow, buf, hash, skip);
  if (isBinary(buf)) return skip('binary', 'contains NUL bytes', hash, buf.length);

  const warnings: string[] = [];
  const decoded = decode(buf, warnings);
  // Minified files are not scanned (their reason quotes nothing of the text); everything after this reads the scrubbed text.
  const minified = minifiedReason(job.path, decoded);
  if (minified) return skip('minified', minified, hash, buf.length);
  const { text, findings } = scrubText(job.path, decoded, { enabled: opts.secretsEnabled, mode: opts.secretsMode, allow });
  if (findings.length && opts.secretsMode === 'exclude') {
    return { ...skip('secret', findings.map((s) => `${s.rule} at line ${s.line}`).join('; '), hash, buf.length), secrets: findings };
  }

  const generated = generatedReason(text);
  if (generated) return skip('generated', generated, hash, buf.length);
  const secrets = findings.length ? { secrets: findings } : {};
  if (isDocumentFormat(job.language)) {
    // Markdown, YAML, JSON, .env and text: units from the scrubbed text (a .env file's view keeps its keys, not their values).
    const doc = await documentOf(job, buf, hash, text, skip);
    if ('status' in doc) return doc;
    return { status: 'indexed', path: job.path, size: buf.length, hash, warnings, extract: doc.extract, ...secrets };
  }
  try {
    const lang = await loadLanguage(languageById(job.language));
    const extract = extractSource(lang, job.path, text);
    extract.terms = fileTerms(job.path, text, extract.symbols);
    return { status: 'indexed', path: job.path, size: buf.length, hash, warnings, extract, ...(findings.length ? { secrets: findings } : {}) };
  } catch (err) {
    return skip('parse_failed', errorMessage(err), hash, buf.length);
  }
}

type Skip = (reason: SkippedOutcome['reason'], detail: string, hash?: string | null, size?: number) => SkippedOutcome;

async function documentOf(job: FileJob, buf: Buffer, hash: string, text: string | null, skip: Skip) {
  try {
    const doc = await extractDocument(job.language as DocumentFormat, job.path, buf, text);
    doc.extract.terms = fileTerms(job.path, doc.text, doc.extract.symbols);
    return doc;
  } catch (err) {
    return skip('parse_failed', errorMessage(err), hash, buf.length);
  }
}

/**
 * A PDF: its text comes from the extractor, so it cannot be scrubbed before its units are made. A PDF
 * whose text holds a credential is therefore left out whole, whatever `secrets.mode` says (its headings
 * could carry the credential into the index); otherwise its text is kept under .codegraph/text/ for
 * excerpts.
 */
async function pdfOutcome(job: FileJob, opts: ProcessOptions, allow: Allowlist, buf: Buffer, hash: string, skip: Skip): Promise<FileOutcome> {
  const doc = await documentOf(job, buf, hash, null, skip);
  if ('status' in doc) return doc;
  const { findings } = scrubText(job.path, doc.text, { enabled: opts.secretsEnabled, mode: 'exclude', allow });
  if (findings.length) {
    return { ...skip('secret', `${findings.map((s) => `${s.rule} at line ${s.line}`).join('; ')} (a PDF with a credential is left out whole)`, hash, buf.length),
      secrets: findings };
  }
  keepPdfText(opts.root, hash, doc.text);
  return { status: 'indexed', path: job.path, size: buf.length, hash, warnings: [], extract: doc.extract };
}

/** A file's bytes as text: UTF-8, or with replacement characters (and a warning) when it is not valid UTF-8. */
function decode(buf: Buffer, warnings: string[]): string {
  let text: string;
  try {
    text = utf8.decode(buf);
  } catch {
    text = utf8Lossy.decode(buf);
    warnings.push('invalid_utf8');
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
