import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CgError, errorMessage } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';
import { clientDecls, type ClientDecl, type ClientId, type Scope } from './clients.js';
import { jsonGet, jsonSet, tomlGet, tomlSet } from './edit.js';
import { CLAUDE_HOOKS, isCgHook } from './claude-hooks.js';
import { loadRecords, recordsPath, saveRecords, sha256, type InstallRecord } from './records.js';

/**
 * `cg install <client>` / `cg uninstall <client>`: cg's MCP server (and for Claude Code, optionally
 * its hooks) written into the client's own config file with minimal edits, idempotent, and undone
 * exactly. A file nobody edited since cg wrote it gets its earlier bytes back (or is deleted, with the
 * folders cg made for it); a file edited since loses only cg's entries.
 */
export interface InstallOptions {
  client: ClientId;
  scope: Scope;
  root: string;
  /** `cg serve --toolsets` (the default set is left implicit). */
  toolsets?: string[];
  /** Claude Code: also the session-start and search hooks. */
  hooks?: boolean;
  /** This Node and this checkout's bin/cg.js by path instead of `cg` from PATH (user scope only). */
  absolute?: boolean;
  dryRun?: boolean;
}

export type Action = 'create' | 'update' | 'unchanged' | 'restore' | 'remove' | 'absent';

export interface FileChange {
  part: 'mcp' | 'hooks';
  file: string;
  action: Action;
  /** The file's text after the change (null: deleted or absent). */
  text: string | null;
  note?: string;
}

export interface InstallResult {
  client: ClientId;
  clientName: string;
  scope: Scope;
  dryRun: boolean;
  /** The server entry as written. */
  entry: Record<string, unknown>;
  changes: FileChange[];
  warnings: string[];
}

/** A part of a client's config cg owns: how to write it into a file's text and take it out again. */
interface Part {
  part: FileChange['part'];
  file: string;
  /** Keys cg owns in the file (for the record of what they held before). */
  keys: string[][];
  apply(text: string | null): string;
  /** Takes cg's entries out of text edited since the install, putting back what the keys held before. */
  remove(text: string | null, previous: Record<string, string | undefined>): string | null;
  /** Whether the text holds cg's entry at all (for uninstalling without a record). */
  present(text: string | null): boolean;
  read(text: string | null, key: string[]): unknown;
}

const WORKSPACE = '${workspaceFolder}';
const YAML_MARK = '# Written by `cg install continue`; `cg uninstall continue` removes it.';

export function decl(client: ClientId): ClientDecl {
  return clientDecls()[client];
}

/** The target file of a client in a scope, or a usage error naming the scopes it has. */
export function targetFile(d: ClientDecl, scope: Scope, root: string): { file: string; repoArg: 'cwd' | 'workspace' | 'absolute' } {
  const t = d.scopes[scope];
  if (!t) {
    const other = scope === 'project' ? 'user' : 'project';
    throw new CgError('usage', `${d.name} has no ${scope}-scoped MCP configuration`,
      d.scopes[other] ? `Use --scope ${other} (${displayPath(path.resolve(root, d.scopes[other]!.file), root)}).` : 'See README.md, "Agent wiring".');
  }
  return { file: scope === 'project' ? path.join(root, t.file) : t.file, repoArg: t.repoArg };
}

export function serverEntry(d: ClientDecl, opts: InstallOptions): Record<string, unknown> {
  const { repoArg } = targetFile(d, opts.scope, opts.root);
  if (opts.absolute && opts.scope === 'project') {
    throw new CgError('usage', '--absolute writes this machine\'s paths, and a project-scoped file is shared with the team',
      'Use --scope user with --absolute, or leave --absolute out (the entry runs `cg` from PATH).');
  }
  const repo = repoArg === 'workspace' ? [WORKSPACE] : repoArg === 'absolute' ? [opts.root] : [];
  const sets = opts.toolsets?.length && opts.toolsets.join(',') !== 'default' ? ['--toolsets', opts.toolsets.join(',')] : [];
  const args = ['serve', ...repo, ...sets];
  return opts.absolute ? d.entry(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'cg.js'), ...args]) : d.entry('cg', args);
}

function mcpPart(d: ClientDecl, file: string, entry: Record<string, unknown>): Part {
  if (d.format === 'yaml-file') {
    const text = yamlBlock(entry);
    return {
      part: 'mcp', file, keys: [],
      apply: (t) => {
        if (t !== null && t !== text && !t.includes(YAML_MARK)) {
          throw new CgError('usage', `${file} exists and was not written by cg`, 'Move it away, or add cg to it by hand.');
        }
        return text;
      },
      remove: (t) => (t !== null && t.includes(YAML_MARK) ? null : t),
      present: (t) => t !== null && t.includes(YAML_MARK),
      read: () => undefined,
    };
  }
  // A key in a JSON(C) document or a TOML table: the same part over the format's get and set.
  const get = d.format === 'toml' ? tomlGet : jsonGet;
  const set = d.format === 'toml'
    ? (t: string | null, v: unknown) => tomlSet(t, d.key, v as Record<string, unknown> | undefined, file)
    : (t: string | null, v: unknown) => jsonSet(t, d.key, v, file);
  const before = (prev: Record<string, string | undefined>) => (prev[d.key.join('.')] === undefined ? undefined : JSON.parse(prev[d.key.join('.')]!));
  return {
    part: 'mcp', file, keys: [d.key],
    apply: (t) => set(t, entry),
    remove: (t, prev) => set(t, before(prev)),
    present: (t) => get(t, d.key, file) !== undefined,
    read: (t, key) => get(t, key, file),
  };
}

/**
 * Continue's block file: a YAML document of its own. Strings are written JSON-quoted (valid YAML
 * flow scalars), so no YAML writer is needed for this fixed shape.
 */
function yamlBlock(entry: Record<string, unknown>): string {
  const q = (s: unknown) => JSON.stringify(String(s));
  return [YAML_MARK, 'name: CodeGrapher', 'version: 0.0.1', 'schema: v1', 'mcpServers:', `  - name: cg`,
    `    command: ${q(entry.command)}`, `    args: [${(entry.args as string[]).map(q).join(', ')}]`, ''].join('\n');
}

/** Claude Code's hooks: one matcher group of cg's per event, appended to (or replaced in) the event's list. */
function hooksPart(file: string, command: string): Part {
  const groups = CLAUDE_HOOKS.map((h) => ({ event: h.event, group: h.group(command) }));
  const ours = (t: string | null, event: string) => ((jsonGet(t, ['hooks', event], file) ?? []) as unknown[])
    .map((g, i) => [g, i] as const).filter(([g]) => isCgHook(g)).map(([, i]) => i);
  return {
    part: 'hooks', file, keys: [],
    apply: (t) => {
      let out = t;
      for (const { event, group } of groups) {
        const list = jsonGet(out, ['hooks', event], file);
        if (list !== undefined && !Array.isArray(list)) throw new CgError('usage', `${file}: hooks.${event} is not a list`, 'Fix the file, then run the command again.');
        const mine = ours(out, event);
        if (mine.length) out = jsonSet(out, ['hooks', event, mine[0]], group, file);
        else out = jsonSet(out, ['hooks', event, -1], group, file, { arrayInsert: true });
      }
      return out!;
    },
    remove: (t) => {
      let out = t;
      for (const { event } of groups) for (const i of ours(out, event).reverse()) out = jsonSet(out, ['hooks', event, i], undefined, file);
      return out;
    },
    present: (t) => groups.some(({ event }) => ours(t, event).length > 0),
    read: (t, key) => jsonGet(t, key, file),
  };
}

function parts(opts: InstallOptions): { d: ClientDecl; entry: Record<string, unknown>; parts: Part[] } {
  const d = decl(opts.client);
  const { file } = targetFile(d, opts.scope, opts.root);
  const entry = serverEntry(d, opts);
  const out = [mcpPart(d, file, entry)];
  if (opts.hooks) {
    if (opts.client !== 'claude') throw new CgError('usage', `--hooks is for Claude Code only, not ${d.name}`, 'Leave --hooks out.');
    const settings = opts.scope === 'project' ? path.join(opts.root, '.claude', 'settings.json') : path.join(os.homedir(), '.claude', 'settings.json');
    out.push(hooksPart(settings, opts.absolute ? `${shellQuote(process.execPath)} ${shellQuote(path.join(PACKAGE_ROOT, 'bin', 'cg.js'))}` : 'cg'));
  }
  return { d, entry, parts: out };
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CgError('io', `Cannot read ${file}: ${errorMessage(err)}`, 'Check its permissions.');
  }
}

/** Writes keeping the file's mode; returns the folders it had to create, deepest first. */
function writeText(file: string, text: string): string[] {
  const created: string[] = [];
  for (let dir = path.dirname(file); !fs.existsSync(dir); dir = path.dirname(dir)) created.push(dir);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const mode = fs.existsSync(file) ? fs.statSync(file).mode & 0o777 : undefined;
    const tmp = `${file}.cg-${process.pid}.tmp`;
    fs.writeFileSync(tmp, text, mode === undefined ? undefined : { mode });
    fs.renameSync(tmp, file);
  } catch (err) {
    throw new CgError('io', `Cannot write ${file}: ${errorMessage(err)}`, 'Check that the folder is writable.');
  }
  return created;
}

export function install(opts: InstallOptions): InstallResult {
  const { d, entry, parts: ps } = parts(opts);
  const recFile = recordsPath(opts.scope, opts.root);
  const records = loadRecords(recFile);
  const changes: FileChange[] = [];
  for (const p of ps) {
    const before = readText(p.file);
    const after = p.apply(before);
    if (after === before) {
      changes.push({ part: p.part, file: p.file, action: 'unchanged', text: after });
      continue;
    }
    changes.push({ part: p.part, file: p.file, action: before === null ? 'create' : 'update', text: after });
    if (opts.dryRun) continue;
    const createdDirs = writeText(p.file, after);
    const rec = records[p.file];
    if (rec) rec.written = sha256(after);
    else {
      records[p.file] = {
        file: p.file, client: opts.client, existed: before !== null,
        ...(before !== null ? { original: Buffer.from(before, 'utf8').toString('base64') } : {}),
        written: sha256(after), createdDirs,
        previous: Object.fromEntries(p.keys.map((k) => {
          const v = p.read(before, k);
          return [k.join('.'), v === undefined ? undefined : JSON.stringify(v)];
        })),
      };
    }
  }
  if (!opts.dryRun) saveRecords(recFile, records);
  return { client: opts.client, clientName: d.name, scope: opts.scope, dryRun: !!opts.dryRun, entry, changes, warnings: warnings(opts) };
}

export function uninstall(opts: InstallOptions): InstallResult {
  // Hooks are looked at whether or not --hooks is given: uninstall takes out everything cg put there.
  const { d, entry, parts: ps } = parts({ ...opts, hooks: opts.client === 'claude' });
  const recFile = recordsPath(opts.scope, opts.root);
  const records = loadRecords(recFile);
  const changes: FileChange[] = [];
  for (const p of ps) {
    const now = readText(p.file);
    const rec = records[p.file];
    let change: FileChange;
    if (rec && now !== null && sha256(now) === rec.written) {
      const original = rec.existed ? Buffer.from(rec.original ?? '', 'base64').toString('utf8') : null;
      change = { part: p.part, file: p.file, action: 'restore', text: original, note: rec.existed ? 'the bytes from before cg' : 'cg created it: deleted' };
      if (!opts.dryRun) restoreExactly(p.file, original, rec);
    } else if (p.present(now)) {
      const after = p.remove(now, rec?.previous ?? {});
      change = { part: p.part, file: p.file, action: 'remove', text: after,
        note: rec ? 'the file changed since cg wrote it: cg\'s entries taken out, the rest kept' : 'no record of the install: cg\'s entries taken out' };
      if (!opts.dryRun) {
        if (after === null) fs.rmSync(p.file, { force: true });
        else writeText(p.file, after);
      }
    } else change = { part: p.part, file: p.file, action: 'absent', text: now };
    changes.push(change);
    if (!opts.dryRun) delete records[p.file];
  }
  if (!opts.dryRun) saveRecords(recFile, records);
  return { client: opts.client, clientName: d.name, scope: opts.scope, dryRun: !!opts.dryRun, entry, changes, warnings: [] };
}

function restoreExactly(file: string, original: string | null, rec: InstallRecord): void {
  if (original === null) {
    fs.rmSync(file, { force: true });
    for (const dir of rec.createdDirs) {
      try {
        fs.rmdirSync(dir);
      } catch {
        break; // not empty: someone else's files live there now
      }
    }
  } else writeText(file, original);
}

/** What may stop the client from starting the server, said at install time rather than found later. */
function warnings(opts: InstallOptions): string[] {
  const out: string[] = [];
  if (!opts.absolute && !onPath('cg')) {
    out.push('`cg` is not on PATH here, so the client cannot start it: install the package globally (npm i -g) or `npm link` this checkout'
      + (opts.scope === 'user' ? ', or install again with --absolute.' : '.'));
  }
  if (opts.client === 'codex' && opts.scope === 'project') out.push('Codex CLI reads .codex/config.toml only in a project you have marked as trusted.');
  return out;
}

function onPath(cmd: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, cmd), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** A path as the user reads it: repo-relative inside the repository, `~/…` under the home folder. */
export function displayPath(file: string, root: string): string {
  const rel = path.relative(root, file);
  if (!rel.startsWith('..') && !path.isAbsolute(rel)) return rel;
  const home = os.homedir();
  return file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}
