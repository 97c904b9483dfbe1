import { applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree, printParseErrorCode, type FormattingOptions,
  type JSONPath, type ParseError } from 'jsonc-parser';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { CgError } from '../errors.js';

/**
 * Minimal edits of a client's config file: only cg's own entry is written or removed, everything else
 * (other servers, comments, trailing commas, indentation, key order) keeps its bytes. JSON files are
 * read as JSONC (VS Code, Zed and Gemini allow comments); TOML tables are cut and appended as text,
 * checked by a real TOML parser before anything is written.
 */

/** The parsed document, or an error naming the file and the first problem; `null` text is an empty document. */
export function readJsonc(text: string | null, file: string): unknown {
  if (text === null || !text.trim()) return {};
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length || !tree) {
    const e = errors[0];
    const line = e ? text.slice(0, e.offset).split('\n').length : 1;
    throw new CgError('usage', `${file} is not valid JSON${e ? ` (${printParseErrorCode(e.error)} on line ${line})` : ''}`,
      'Fix the file (or move it away), then run the command again; cg does not rewrite a file it cannot read.');
  }
  if (tree.type !== 'object') throw new CgError('usage', `${file} does not hold a JSON object`, 'Fix the file, then run the command again.');
  return getNodeValue(tree);
}

export function jsonGet(text: string | null, key: JSONPath, file: string): unknown {
  if (text === null || !text.trim()) return undefined;
  readJsonc(text, file);
  const node = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, key);
  return node ? getNodeValue(node) : undefined;
}

/** The file's own indentation and line ends, so an inserted entry looks like its neighbours. */
function formatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

/** `text` with `key` set to `value` (undefined removes it); a missing file becomes a new document. */
export function jsonSet(text: string | null, key: JSONPath, value: unknown, file: string, opts: { arrayInsert?: boolean } = {}): string {
  const base = text === null || !text.trim() ? '{}\n' : text;
  readJsonc(base, file);
  const edits = modify(base, key, value, { formattingOptions: formatting(base), isArrayInsertion: opts.arrayInsert });
  const out = applyEdits(base, edits);
  readJsonc(out, file);
  return out;
}

/** A TOML table `[a.b]` with its sub-tables (`[a.b.env]`): the text range it spans, or null. */
function tomlTableRange(text: string, table: string): { start: number; end: number } | null {
  const header = new RegExp(`^[ \\t]*\\[[ \\t]*${table.split('.').map(escapeRe).join('[ \\t]*\\.[ \\t]*')}[ \\t]*\\][ \\t]*(#.*)?$`, 'm');
  const m = header.exec(text);
  if (!m) return null;
  const sub = new RegExp(`^[ \\t]*\\[[ \\t]*${table.split('.').map(escapeRe).join('[ \\t]*\\.[ \\t]*')}[ \\t]*\\.`);
  const lines = text.slice(m.index).split('\n');
  let end = m.index + lines[0].length + 1;
  for (const line of lines.slice(1)) {
    if (/^[ \t]*\[/.test(line) && !sub.test(line)) break;
    end += line.length + 1;
  }
  return { start: m.index, end: Math.min(end, text.length) };
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function checkToml(text: string, file: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (err) {
    throw new CgError('usage', `${file} is not valid TOML: ${(err as Error).message.split('\n')[0]}`,
      'Fix the file (or move it away), then run the command again; cg does not rewrite a file it cannot read.');
  }
}

export function tomlGet(text: string | null, key: string[], file: string): unknown {
  if (text === null) return undefined;
  let v: unknown = checkToml(text, file);
  for (const k of key) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** `text` with the table `key` (e.g. mcp_servers.cg) replaced by `value`, or removed when undefined. */
export function tomlSet(text: string | null, key: string[], value: Record<string, unknown> | undefined, file: string): string {
  const base = text ?? '';
  checkToml(base, file);
  const table = key.join('.');
  const range = tomlTableRange(base, table);
  if (!range && tomlGet(base, key, file) !== undefined) {
    throw new CgError('usage', `${file} defines ${table} inline, not as a [${table}] table`,
      `Edit that entry by hand, or write it as a [${table}] table and run the command again.`);
  }
  let block = '';
  if (value !== undefined) {
    let nested: Record<string, unknown> = value;
    for (const k of [...key].reverse()) nested = { [k]: nested };
    // smol-toml writes `[mcp_servers.cg]` (and sub-tables) for a nested object, never a bare parent header.
    block = `${stringifyToml(nested).trimEnd()}\n`;
  }
  let out: string;
  if (range) out = base.slice(0, range.start) + block + base.slice(range.end);
  else if (!block) out = base;
  else out = base + (base && !base.endsWith('\n') ? '\n' : '') + (base.trim() ? '\n' : '') + block;
  checkToml(out, file);
  return out;
}
