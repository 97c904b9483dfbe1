import path from 'node:path';
import type { Node as YamlNode } from 'yaml';
import type { ExtractedSymbol, FileExtract } from '../types.js';
import { collapse, firstSentence } from '../text.js';
import type { DocumentFormat } from './formats.js';
import { appendAll } from '../../arrays.js';

/**
 * Documents as units of the same index as code: each becomes a file row (its language is the format)
 * with a module symbol and one symbol per unit, so full-text, vectors, regions and excerpts work on
 * them unchanged. Units: Markdown (and reST/AsciiDoc/plain-text) sections split on headings, YAML and
 * JSON key paths with their values, PDF pages, `.env` key names. The text handed back is what the
 * index may read: for `.env` files the values are gone, for a PDF it is the extracted text.
 */
export interface DocumentExtract {
  /** The text terms and excerpts are built from (a view: never values of `.env` files). */
  text: string;
  extract: FileExtract;
}

/** Units per document at most: a 100k-key JSON file is data, and one unit per key would flood every answer. */
const MAX_UNITS = 5000;
const MAX_VALUE = 200;
/** How many structured items of a YAML or JSON list become units (the list's own unit spans all of them). */
const SEQ_SAMPLE = 3;

export async function extractDocument(format: DocumentFormat, relPath: string, buf: Buffer, text: string | null): Promise<DocumentExtract> {
  switch (format) {
    case 'pdf': return pdf(relPath, buf);
    case 'markdown': return finish(relPath, format, text!, markdown(text!));
    case 'yaml':
    // Loaded here: only YAML and JSON documents need the parser (100+ ms of loading that a code-only update skips).
    case 'json': return finish(relPath, format, text!, keys(await import('yaml'), text!));
    case 'env': return env(relPath, text!);
    case 'text': return finish(relPath, format, text!, plain(text!));
  }
}

interface Unit {
  name: string;
  kind: 'section' | 'key';
  /** Index of the enclosing unit in the same list, or -1 for the document. */
  parent: number;
  startLine: number;
  endLine: number;
  signature: string;
  doc: string | null;
  qualifiedName?: string;
}

interface Units {
  units: Unit[];
  errors: number;
}

function finish(relPath: string, format: DocumentFormat, text: string, u: Units): DocumentExtract {
  const lines = text.split('\n').length;
  const symbols: ExtractedSymbol[] = [moduleSymbol(relPath, u.units.length ? null : firstSentence(text.slice(0, 2000)))];
  const qn: string[] = [];
  u.units.slice(0, MAX_UNITS).forEach((x, i) => {
    qn[i] = x.qualifiedName ?? (x.parent >= 0 ? `${qn[x.parent]}${x.kind === 'section' ? ' > ' : '.'}${x.name}` : x.name);
    symbols.push({
      name: collapse(x.name, 200), qualifiedName: collapse(qn[i], 400), kind: x.kind, parent: x.parent >= 0 ? x.parent + 1 : 0,
      startLine: x.startLine, endLine: Math.max(x.startLine, Math.min(x.endLine, lines)), signature: collapse(x.signature, 240), doc: x.doc,
      params: [], visibility: 'public', isAsync: false, isStatic: false, mutates: [], annotations: [], exported: true, isTest: false, inError: false,
    });
  });
  return {
    text,
    extract: { path: relPath, language: format, loc: lines, partial: u.errors > 0, errorCount: u.errors, isTest: false,
      symbols, calls: [], inherits: [], imports: [], registrations: [], fires: [], accesses: [], tables: [] },
  };
}

function moduleSymbol(relPath: string, doc: string | null): ExtractedSymbol {
  return { name: relPath, qualifiedName: relPath, kind: 'module', parent: -1, startLine: 1, endLine: 1, signature: '', doc,
    params: [], visibility: 'public', isAsync: false, isStatic: false, mutates: [], annotations: [], exported: true, isTest: false, inError: false };
}

// Markdown ---------------------------------------------------------------------------------------

/**
 * Sections on ATX (`## Title`) and setext (`Title` over `===`/`---`) headings, outside fenced code and
 * front matter. A section runs to the next heading of its level or above, so it holds its subsections.
 */
function markdown(text: string): Units {
  const lines = text.split('\n');
  const heads: { level: number; title: string; line: number }[] = [];
  let fence: string | null = null;
  let start = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
    if (end > 0) start = end + 1;
  }
  for (let i = start; i < lines.length; i++) {
    const line = lines[i];
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence) continue;
    const atx = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (atx && atx[2]) {
      heads.push({ level: atx[1].length, title: stripInline(atx[2]), line: i + 1 });
      continue;
    }
    const next = lines[i + 1];
    if (next !== undefined && line.trim() && !/^\s{4}/.test(line) && /^\s{0,3}(=+|-+)\s*$/.test(next) && !/^\s*[-*+>|]/.test(line)
      && (i === start || !lines[i - 1].trim())) {
      heads.push({ level: next.trim()[0] === '=' ? 1 : 2, title: stripInline(line.trim()), line: i + 1 });
      i++;
    }
  }
  return sectionsFrom(lines, heads, start);
}

function sectionsFrom(lines: string[], heads: { level: number; title: string; line: number }[], bodyStart: number): Units {
  const units: Unit[] = [];
  const first = heads[0]?.line ?? lines.length + 1;
  const preamble = lines.slice(bodyStart, first - 1).join('\n').trim();
  if (preamble) {
    units.push({ name: '(introduction)', kind: 'section', parent: -1, startLine: bodyStart + 1, endLine: first - 1,
      signature: collapse(preamble.split('\n').find((l) => l.trim()) ?? '', 120), doc: firstSentence(preamble.slice(0, 2000)) });
  }
  const stack: { level: number; index: number }[] = [];
  heads.forEach((h, k) => {
    while (stack.length && stack[stack.length - 1].level >= h.level) stack.pop();
    const end = heads.slice(k + 1).find((x) => x.level <= h.level)?.line ?? lines.length + 1;
    const bodyEnd = heads[k + 1]?.line ?? lines.length + 1;
    const body = lines.slice(h.line, bodyEnd - 1).join('\n');
    units.push({ name: h.title || '(untitled)', kind: 'section', parent: stack.length ? stack[stack.length - 1].index : -1,
      startLine: h.line, endLine: Math.max(h.line, end - 1), signature: lines[h.line - 1].trim(), doc: firstSentence(stripInline(body).slice(0, 2000)) });
    stack.push({ level: h.level, index: units.length - 1 });
  });
  return { units, errors: 0 };
}

/** Markdown inline syntax as plain words: links, emphasis, code spans, images. */
function stripInline(s: string): string {
  return s.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`~]+/g, '').replace(/<[^>]+>/g, '').trim();
}

// Plain text, reST, AsciiDoc -------------------------------------------------------------------------

/** Sections on underlined titles (reST) and `= Title` lines (AsciiDoc); otherwise blocks of paragraphs. */
function plain(text: string): Units {
  const lines = text.split('\n');
  const heads: { level: number; title: string; line: number }[] = [];
  const levels: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const adoc = /^(={1,6})\s+(\S.*)$/.exec(lines[i]);
    if (adoc) {
      heads.push({ level: adoc[1].length, title: adoc[2].trim(), line: i + 1 });
      continue;
    }
    const under = lines[i + 1];
    if (lines[i].trim() && under && /^([=\-~^"'`#*+])\1{2,}\s*$/.test(under) && under.trim().length >= lines[i].trim().length * 0.7) {
      const ch = under.trim()[0];
      if (!levels.includes(ch)) levels.push(ch);
      heads.push({ level: levels.indexOf(ch) + 1, title: lines[i].trim(), line: i + 1 });
      i++;
    }
  }
  if (heads.length) return sectionsFrom(lines, heads, 0);
  // No headings: blocks of whole paragraphs, about 40 lines each, named by their first line.
  const units: Unit[] = [];
  let blockStart = -1;
  const close = (end: number) => {
    const body = lines.slice(blockStart, end).join('\n').trim();
    if (body) {
      const firstLine = body.split('\n')[0];
      units.push({ name: collapse(firstLine, 80), kind: 'section', parent: -1, startLine: blockStart + 1, endLine: end, signature: collapse(firstLine, 120),
        doc: firstSentence(body.slice(0, 2000)) });
    }
    blockStart = -1;
  };
  for (let i = 0; i < lines.length; i++) {
    if (blockStart < 0 && lines[i].trim()) blockStart = i;
    if (blockStart >= 0 && !lines[i].trim() && i - blockStart >= 40) close(i);
  }
  if (blockStart >= 0) close(lines.length);
  return { units, errors: 0 };
}

// YAML and JSON --------------------------------------------------------------------------------------

/** Every key path (`database.primary.host`, `servers.0.url`) with its lines and, for scalars, its value. */
function keys({ isMap, isScalar, isSeq, LineCounter, parseAllDocuments }: typeof import('yaml'), text: string): Units {
  const counter = new LineCounter();
  let docs;
  try {
    docs = parseAllDocuments(text, { lineCounter: counter, uniqueKeys: false });
  } catch {
    return { units: [], errors: 1 };
  }
  const list = Array.isArray(docs) ? docs : [docs];
  const units: Unit[] = [];
  let errors = 0;
  const lineOf = (offset: number) => counter.linePos(offset).line;
  const walk = (node: YamlNode | null | undefined, parent: number, prefix: string) => {
    if (units.length >= MAX_UNITS || !node) return;
    const entries: [string, YamlNode | null, number, number][] = [];
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = pair.key as YamlNode | null;
        const name = isScalar(key) ? String(key.value) : key ? String(key) : '';
        const value = pair.value as YamlNode | null;
        const start = key?.range?.[0] ?? value?.range?.[0] ?? 0;
        const end = value?.range?.[1] ?? key?.range?.[1] ?? start;
        entries.push([name, value, start, end]);
      }
    } else if (isSeq(node)) {
      // A list of records repeats one shape: its first few say what it holds. Every record as units
      // made a results file of 11k lines 5,000 `rows.N.r@1` keys (cg's own eval/results: 80k keys).
      node.items.slice(0, SEQ_SAMPLE).forEach((item, i) => {
        const v = item as YamlNode | null;
        if (isMap(v) || isSeq(v)) entries.push([String(i), v, v.range?.[0] ?? 0, v.range?.[1] ?? 0]);
      });
    }
    for (const [name, value, start, end] of entries) {
      if (units.length >= MAX_UNITS) return;
      const keyPath = prefix ? `${prefix}.${name}` : name;
      const scalar = isScalar(value) ? String(value.value ?? '') : isSeq(value) && value.items.every((x) => isScalar(x))
        ? value.items.map((x) => String((x as { value: unknown }).value)).join(', ') : null;
      units.push({ name, qualifiedName: keyPath, kind: 'key', parent, startLine: lineOf(start), endLine: lineOf(Math.max(start, end - 1)),
        signature: scalar !== null ? `${keyPath}: ${collapse(scalar, MAX_VALUE)}` : `${keyPath}:`,
        doc: scalar !== null && /[A-Za-z]{3,}\s+\S+/.test(scalar) ? firstSentence(scalar.slice(0, 2000)) : null });
      if (value && !isScalar(value)) walk(value, units.length - 1, keyPath);
    }
  };
  for (const d of list) {
    errors += d.errors.length;
    walk(d.contents as YamlNode | null, -1, '');
  }
  return { units, errors };
}

// .env --------------------------------------------------------------------------------------------

/**
 * `.env` files: key names only. The values are configuration and often credentials; they are never
 * stored, embedded or returned, whatever the secret scanner thinks of them. The text the index reads
 * is the file with every value replaced, so full-text terms and excerpts carry none either.
 */
export function envView(text: string): string {
  return text.split('\n').map((line) => {
    const m = /^(\s*(?:export\s+)?[A-Za-z_][\w.-]*\s*[=:])(.*)$/.exec(line);
    if (m) return `${m[1]}${m[2].trim() ? ' …' : ''}`;
    return /^\s*#/.test(line) || !line.trim() ? line : '…';
  }).join('\n');
}

function env(relPath: string, text: string): DocumentExtract {
  const view = envView(text);
  const lines = view.split('\n');
  const units: Unit[] = [];
  lines.forEach((line, i) => {
    const m = /^\s*(?:export\s+)?([A-Za-z_][\w.-]*)\s*[=:]/.exec(line);
    if (!m) return;
    const comment = i > 0 && /^\s*#/.test(lines[i - 1]) ? lines[i - 1].replace(/^\s*#+\s?/, '').trim() : '';
    units.push({ name: m[1], kind: 'key', parent: -1, startLine: i + 1, endLine: i + 1, signature: `${m[1]}=`, doc: comment ? firstSentence(comment) : null });
  });
  return finish(relPath, 'env', view, { units, errors: 0 });
}

// PDF ---------------------------------------------------------------------------------------------

/** PDF text (unpdf, Mozilla's pdf.js): one unit per page, named by its first line; the text is the pages joined. */
async function pdf(relPath: string, buf: Buffer): Promise<DocumentExtract> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  // verbosity 0: errors only. pdf.js otherwise prints warnings about damaged streams on stdout, where --json answers go.
  const doc = await getDocumentProxy(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), { verbosity: 0 });
  let pages: string[];
  try {
    const res = await extractText(doc, { mergePages: false });
    pages = (res.text as string[]).map((p) => p.replace(/\r\n?/g, '\n').replace(/\u0000/g, ''));
  } finally {
    await doc.destroy().catch(() => undefined);
  }
  const units: Unit[] = [];
  const out: string[] = [];
  let line = 1;
  pages.forEach((page, i) => {
    const body = page.trim();
    const pageLines = body ? body.split('\n') : [''];
    const title = pageLines.find((l) => /[A-Za-z]{3,}/.test(l))?.trim() ?? '';
    units.push({ name: `page ${i + 1}${title ? `: ${collapse(title, 80)}` : ''}`, qualifiedName: `${path.basename(relPath)} p.${i + 1}`, kind: 'section',
      parent: -1, startLine: line, endLine: line + pageLines.length - 1, signature: `page ${i + 1}: ${collapse(title, 120)}`,
      doc: firstSentence(body.slice(0, 2000)) });
    appendAll(out, pageLines);
    line += pageLines.length;
  });
  return finish(relPath, 'pdf', out.join('\n'), { units, errors: 0 });
}
