import type { FileResolveRows } from '../store/load.js';
import type { RImport, RRef, RSymbol } from '../resolve/types.js';
import { SYMBOLS_PER_FILE } from '../store/writer.js';
import { GenerationCache, narrowInts, narrowLengths, type Ints, type RowCodec } from './generation-cache.js';

/**
 * Resolve rows as columns, for the file beside the database (see GenerationCache): numbers in one
 * array per kind of row, every string in one text with its lengths, short repeated strings (languages,
 * kinds) as indexes into a list. Reading Go's standard library's rows (4.8k files, 93k symbols, 17k
 * imports) takes ~0.3 s from SQLite, ~0.15 s as V8-serialized objects and well under 0.1 s as columns.
 * The strings come out in the order they went in: per file its path, then per symbol its name and
 * qualified name (unless its flags say how to make it), per import its module, alias (when it has
 * one) and names (as JSON), per ref its name, receiver, receiver type and detail (each may be null).
 */
interface PackedResolveRows {
  text: string;
  /** Length of each string in `text`, its array's largest value for null (narrowLengths). */
  lengths: Uint16Array | Uint32Array;
  /** The strings `files`, `symbols` and `refs` name by index (languages, kinds). */
  words: string[];
  /** Per file: id, flags (1 test, 2 external), language (word), symbols, imports, refs. */
  files: Ints;
  /**
   * Per symbol: id, parent id (0 without HAS_PARENT), start line, flags (1 exported, 2 test, 4 in error,
   * QN_IS_NAME, QN_UNDER_PARENT, HAS_PARENT, SCOPED), kind (word). Ids here and refs' symbol ids are relative to
   * the file's first (its id · 2^20, src/store/writer.ts): 32-bit integers where the whole ids are not
   * past 2,047 files (narrowInts keeps doubles where one does not fit, so other ids come back too).
   */
  symbols: Ints;
  /** Per import: id, line, flags (1 wildcard, 2 reexport, 4 in error, 8 has an alias). */
  imports: Ints;
  /** Per ref: id, symbol id (relative to the file, as a symbol's), line, flags (1 in error), kind (word). */
  refs: Ints;
}

/** The qualified name is the name: it is not in the text (42 % of Django's symbols). */
const QN_IS_NAME = 8;
/** The qualified name is the parent's (an earlier symbol of the file), a dot and the name: not in the text (58 %). */
const QN_UNDER_PARENT = 16;
const HAS_PARENT = 32;
/** Declared in a callback or block that is not a symbol (RSymbol.scoped). */
const SCOPED = 64;
const FILE = 6;
const SYMBOL = 5;
const IMPORT = 3;
const REF = 5;

/** qualified === `${parent}.${name}`, without making that string. */
function isUnder(qualified: string, parent: string, name: string): boolean {
  return qualified.length === parent.length + 1 + name.length && qualified.charCodeAt(parent.length) === 46
    && qualified.startsWith(parent) && qualified.endsWith(name);
}

export const resolveRowsCodec: RowCodec<Map<number, FileResolveRows>, PackedResolveRows> = {
  version: 4,
  pack(rows) {
    let symbolCount = 0;
    let importCount = 0;
    let refCount = 0;
    for (const r of rows.values()) {
      symbolCount += r.symbols.length;
      importCount += r.imports.length;
      refCount += r.globalRefs.length;
    }
    const files = new Float64Array(rows.size * FILE);
    const symbols = new Float64Array(symbolCount * SYMBOL);
    const imports = new Float64Array(importCount * IMPORT);
    const refs = new Float64Array(refCount * REF);
    const strings: (string | null)[] = [];
    // A file's qualified names so far, by symbol id relative to the file (a small integer: a Map hashes
    // ids past 2^31, heap numbers, slowly): most qualified names are the name, or the parent's and the name.
    const qualified = new Map<number, string>();
    const words = new Map<string, number>();
    const word = (w: string) => {
      let i = words.get(w);
      if (i === undefined) words.set(w, (i = words.size));
      return i;
    };
    let f = 0;
    let s = 0;
    let m = 0;
    let t = 0;
    for (const r of rows.values()) {
      const base = r.file.id * SYMBOLS_PER_FILE;
      files[f++] = r.file.id;
      files[f++] = (r.file.isTest ? 1 : 0) | (r.file.external ? 2 : 0);
      files[f++] = word(r.file.language);
      files[f++] = r.symbols.length;
      files[f++] = r.imports.length;
      files[f++] = r.globalRefs.length;
      strings.push(r.file.path);
      qualified.clear();
      for (const x of r.symbols) {
        const parent = x.parentId === null ? undefined : qualified.get(x.parentId - base);
        const derived = x.qualifiedName === x.name ? QN_IS_NAME : parent !== undefined && isUnder(x.qualifiedName, parent, x.name) ? QN_UNDER_PARENT : 0;
        symbols[s++] = x.id - base;
        symbols[s++] = x.parentId === null ? 0 : x.parentId - base;
        symbols[s++] = x.startLine;
        symbols[s++] = (x.exported ? 1 : 0) | (x.isTest ? 2 : 0) | (x.inError ? 4 : 0) | derived | (x.parentId === null ? 0 : HAS_PARENT) | (x.scoped ? SCOPED : 0);
        symbols[s++] = word(x.kind);
        strings.push(x.name);
        if (!derived) strings.push(x.qualifiedName);
        qualified.set(x.id - base, x.qualifiedName);
      }
      for (const x of r.imports) {
        imports[m++] = x.id;
        imports[m++] = x.line;
        imports[m++] = (x.wildcard ? 1 : 0) | (x.reexport ? 2 : 0) | (x.inError ? 4 : 0) | (x.alias !== undefined ? 8 : 0);
        strings.push(x.module);
        if (x.alias !== undefined) strings.push(x.alias);
        strings.push(JSON.stringify(x.names));
      }
      for (const x of r.globalRefs) {
        refs[t++] = x.id;
        refs[t++] = x.symbolId - base;
        refs[t++] = x.line;
        refs[t++] = x.inError ? 1 : 0;
        refs[t++] = word(x.kind);
        strings.push(x.name, x.receiver, x.receiverType, x.detail);
      }
    }
    return { text: strings.join(''), lengths: narrowLengths(strings), words: [...words.keys()],
      files: narrowInts(files), symbols: narrowInts(symbols), imports: narrowInts(imports), refs: narrowInts(refs) };
  },
  unpack(p) {
    let at = 0;
    let n = 0;
    const nullString = p.lengths instanceof Uint16Array ? 0xffff : 0xffffffff;
    const next = (): string | null => {
      const len = p.lengths[n++];
      if (len === nullString) return null;
      at += len;
      return p.text.slice(at - len, at);
    };
    const text = () => next()!;
    const qualified = new Map<number, string>();
    const out = new Map<number, FileResolveRows>();
    let s = 0;
    let m = 0;
    let t = 0;
    for (let f = 0; f < p.files.length; f += FILE) {
      const id = p.files[f];
      const base = id * SYMBOLS_PER_FILE;
      const flags = p.files[f + 1];
      const file = { id, path: text(), language: p.words[p.files[f + 2]], isTest: (flags & 1) !== 0, external: (flags & 2) !== 0 };
      const symbols: RSymbol[] = [];
      qualified.clear();
      for (let k = 0; k < p.files[f + 3]; k++, s += SYMBOL) {
        const bits = p.symbols[s + 3];
        const name = text();
        const qualifiedName = bits & QN_IS_NAME ? name : bits & QN_UNDER_PARENT ? `${qualified.get(p.symbols[s + 1])}.${name}` : text();
        qualified.set(p.symbols[s], qualifiedName);
        symbols.push({ id: p.symbols[s] + base, fileId: id, parentId: bits & HAS_PARENT ? p.symbols[s + 1] + base : null, name, qualifiedName,
          kind: p.words[p.symbols[s + 4]], exported: (bits & 1) !== 0, isTest: (bits & 2) !== 0, startLine: p.symbols[s + 2], inError: (bits & 4) !== 0,
          scoped: (bits & SCOPED) !== 0 });
      }
      const imports: RImport[] = [];
      for (let k = 0; k < p.files[f + 4]; k++, m += IMPORT) {
        const bits = p.imports[m + 2];
        const module = text();
        const alias = bits & 8 ? text() : undefined;
        imports.push({ id: p.imports[m], fileId: id, module, names: JSON.parse(text()), alias, wildcard: (bits & 1) !== 0,
          reexport: (bits & 2) !== 0, line: p.imports[m + 1], inError: (bits & 4) !== 0 });
      }
      const globalRefs: RRef[] = [];
      for (let k = 0; k < p.files[f + 5]; k++, t += REF) {
        globalRefs.push({ id: p.refs[t], fileId: id, symbolId: p.refs[t + 1] + base, kind: p.words[p.refs[t + 4]] as RRef['kind'], name: text(),
          receiver: next(), receiverType: next(), line: p.refs[t + 2], inError: p.refs[t + 3] !== 0, detail: next() });
      }
      out.set(id, { file, symbols, imports, globalRefs });
    }
    return out;
  },
};

/**
 * The resolve input's per-file rows (files, symbols, imports, supertype refs) of the last generation
 * written, per index file: an update re-reads only the files it rewrote (see GenerationCache). The rows
 * also go beside the database (`resolve-rows-<generation>.v8`), so a hook-started `cg update` in a
 * process of its own finds them: they hold only what the database holds (paths and names extracted from
 * scrubbed source), in the same directory.
 */
export const resolveRowsCache = new GenerationCache('resolve-rows', resolveRowsCodec);
