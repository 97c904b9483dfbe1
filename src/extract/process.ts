import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { languageById } from '../lang/registry.js';
import { loadLanguage } from '../lang/loader.js';
import { Allowlist, type AllowlistData } from '../secrets/allowlist.js';
import { scanSecrets } from '../secrets/scan.js';
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
  allowlist: AllowlistData;
}

/** sha256 of a file's bytes, as stored in `files.hash`; null if it cannot be read. */
export function fileHash(root: string, rel: string): string | null {
  try {
    return createHash('sha256').update(fs.readFileSync(path.join(root, rel))).digest('hex');
  } catch {
    return null;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Lossy = new TextDecoder('utf-8');

/**
 * One file from disk to extraction result. The order is the safety argument: the secret scan runs
 * on the text before the parser sees it, and a skipped file yields nothing but its reason.
 */
export async function processFile(job: FileJob, opts: ProcessOptions, allow: Allowlist): Promise<FileOutcome> {
  const skip = (reason: SkippedOutcome['reason'], detail: string, hash: string | null = null,
    size = job.size): SkippedOutcome => ({ status: 'skipped', path: job.path, language: job.language, size, hash, reason, detail });

  let buf: Buffer;
  try {
    buf = fs.readFileSync(path.join(opts.root, job.path));
  } catch (err) {
    return skip('unreadable', errorMessage(err));
  }
  if (buf.length > maxBytesFor(job.language, opts.maxFileBytes)) return skip('too_large', `${buf.length} bytes`, null, buf.length);
  const hash = createHash('sha256').update(buf).digest('hex');
  // A PDF is binary: its text comes from the document extractor.
  if (job.language === 'pdf') return documentOutcome(job, opts, allow, buf, hash, null, [], skip);
  if (isBinary(buf)) return skip('binary', 'contains NUL bytes', hash, buf.length);

  const warnings: string[] = [];
  let text: string;
  try {
    text = utf8.decode(buf);
  } catch {
    text = utf8Lossy.decode(buf);
    warnings.push('invalid_utf8');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  const minified = minifiedReason(job.path, text);
  if (minified) return skip('minified', minified, hash, buf.length);
  const generated = generatedReason(text);
  if (generated) return skip('generated', generated, hash, buf.length);
  if (isDocumentFormat(job.language)) return documentOutcome(job, opts, allow, buf, hash, text, warnings, skip);
  const secret = secretSkip(job, opts, allow, text, hash, buf.length, skip);
  if (secret) return secret;
  try {
    const lang = await loadLanguage(languageById(job.language));
    const extract = extractSource(lang, job.path, text);
    extract.terms = fileTerms(job.path, text, extract.symbols);
    return { status: 'indexed', path: job.path, size: buf.length, hash, warnings, extract };
  } catch (err) {
    return skip('parse_failed', errorMessage(err), hash, buf.length);
  }
}

type Skip = (reason: SkippedOutcome['reason'], detail: string, hash?: string | null, size?: number) => SkippedOutcome;

/** The secret scan (promise 5) on the text that would be stored: a finding keeps the whole file out. */
function secretSkip(job: FileJob, opts: ProcessOptions, allow: Allowlist, text: string, hash: string, size: number, skip: Skip): SkippedOutcome | null {
  if (!opts.secretsEnabled) return null;
  const secrets = scanSecrets(job.path, text, allow);
  return secrets.length ? { ...skip('secret', secrets.map((s) => `${s.rule} at line ${s.line}`).join('; '), hash, size), secrets } : null;
}

/**
 * A document: units from the document extractor, scanned for secrets in the text the index would keep
 * (a .env file's view has no values: its keys alone are scanned), terms from that same text.
 */
async function documentOutcome(job: FileJob, opts: ProcessOptions, allow: Allowlist, buf: Buffer, hash: string, text: string | null,
  warnings: string[], skip: Skip): Promise<FileOutcome> {
  let doc;
  try {
    doc = await extractDocument(job.language as DocumentFormat, job.path, buf, text);
  } catch (err) {
    return skip('parse_failed', errorMessage(err), hash, buf.length);
  }
  const secret = secretSkip(job, opts, allow, doc.text, hash, buf.length, skip);
  if (secret) return secret;
  if (job.language === 'pdf') keepPdfText(opts.root, hash, doc.text);
  doc.extract.terms = fileTerms(job.path, doc.text, doc.extract.symbols);
  return { status: 'indexed', path: job.path, size: buf.length, hash, warnings, extract: doc.extract };
}
