import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn, spawnSync, type ChildProcess, type SpawnSyncOptions } from 'node:child_process';
import type Database from 'better-sqlite3';
import { buildIndex, type BuildSummary } from '../src/indexer/build.js';
import { openReader } from '../src/store/db.js';
import { symbolsWhere } from '../src/store/queries.js';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const CG = path.join(ROOT, 'bin', 'cg.js');

/** A fresh temporary directory, inside the run's scratch directory (removed when the run ends). */
export function tempDir(prefix = 'cg-test-'): string {
  return fs.mkdtempSync(path.join(process.env.CG_TEST_TMP ?? os.tmpdir(), prefix));
}

/** Writes files (path -> content) under a new temporary directory; optionally makes it a git repo with one commit. */
export function makeRepo(files: Record<string, string | Buffer>, opts: { git?: boolean; commit?: boolean } = {}): string {
  const dir = tempDir();
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
  if (opts.git || opts.commit) {
    git(dir, 'init', '-q', '-b', 'main');
    if (opts.commit) {
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', 'initial', '--allow-empty');
    }
  }
  return dir;
}

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=cg test', '-c', 'user.email=cg@example.invalid', ...args],
    { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Copies `fixtures/<name>` to a temporary directory (so the index never lands in the source tree). */
export function copyFixture(name: string): string {
  const dir = tempDir(`cg-fx-${name.replace(/\//g, "-")}-`);
  fs.cpSync(path.join(ROOT, 'fixtures', name), dir, { recursive: true });
  return dir;
}

export interface Indexed {
  root: string;
  summary: BuildSummary;
  db: Database.Database;
}

/** Indexes a fixture copy in-process and opens the result read-only. */
export async function indexFixture(name: string): Promise<Indexed> {
  const root = copyFixture(name);
  const summary = await buildIndex(root);
  return { root, summary, db: openReader(root) };
}

export interface CgResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs the real `cg` executable as a separate process. */
export function runCg(args: string[], cwd: string, opts: SpawnSyncOptions = {}): CgResult {
  const res = spawnSync(process.execPath, [CG, ...args], { cwd, encoding: 'utf8', timeout: 120_000, ...opts,
    env: { ...process.env, CG_DEBUG: '', ...(opts.env ?? {}) } });
  const stdout = String(res.stdout ?? '');
  let json: unknown = undefined;
  if (args.includes('--json')) {
    try {
      json = JSON.parse(stdout);
    } catch {
      json = undefined;
    }
  }
  return { code: res.status ?? -1, stdout, stderr: String(res.stderr ?? ''), json };
}

/** Every code symbol but modules as `kind qualifiedName file:line` (document sections and keys are tested in documents.test). */
export function symbolLines(db: Database.Database, fileLike = '%'): string[] {
  return symbolsWhere(db, "s.kind NOT IN ('module', 'section', 'key') AND f.path LIKE ?", [fileLike], 'ORDER BY f.path, s.start_line')
    .map((s) => `${s.kind} ${s.qualifiedName} ${s.file}:${s.startLine}`);
}

/** Edges of a kind between symbols, as `srcQualifiedName -> dstQualifiedName` (with files when asked). */
export function edgeLines(db: Database.Database, kind: string, opts: { files?: boolean; confidence?: boolean } = {}): string[] {
  const rows = db.prepare(`SELECT s.qualified_name AS src, sf.path AS srcFile, d.qualified_name AS dst, df.path AS dstFile,
      e.confidence AS conf, e.target AS target
    FROM edges e JOIN symbols s ON s.id = e.src_id JOIN files sf ON sf.id = s.file_id
    LEFT JOIN symbols d ON d.id = e.dst_id LEFT JOIN files df ON df.id = d.file_id
    WHERE e.kind = ?`).all(kind) as { src: string; srcFile: string; dst: string | null; dstFile: string | null; conf: number;
      target: string | null }[];
  return [...new Set(rows.map((r) => {
    const src = opts.files ? `${r.srcFile}:${r.src}` : r.src;
    // A target beside a destination names what of it (the field a read reaches, a registration's `kind:name`).
    const dst = r.dst === null ? `external:${r.target}` : `${opts.files ? `${r.dstFile}:${r.dst}` : r.dst}${r.target ? ` [${r.target}]` : ''}`;
    return `${src} -> ${dst}${opts.confidence ? ` ${r.conf}` : ''}`;
  }))].sort();
}

/**
 * Another process holding the writer lock of `root` (through the built cg), until it is killed. The
 * lock is the operating system's, so a note file alone would not make the repository busy.
 */
export async function holdWriterLock(root: string): Promise<ChildProcess> {
  const lockModule = path.join(ROOT, 'dist', 'indexer', 'lock.js');
  const holder = spawn(process.execPath, ['--input-type=module', '-e',
    `const { acquireWriterLock } = await import(${JSON.stringify(lockModule)}); acquireWriterLock(${JSON.stringify(root)});
     process.stdout.write('held\\n'); setInterval(() => {}, 60000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.once('data', () => resolve());
    holder.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return holder;
}

/** A fixture copy in a git repository with one commit, indexed by the real `cg index`. */
export function indexedRepo(fixture: string): string {
  const root = copyFixture(fixture);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'initial');
  const res = runCg(['index', '-q'], root);
  if (res.code !== 0) throw new Error(`cg index failed in ${root}: ${res.stderr}`);
  return root;
}

/** Polls `fn` every 25 ms until it returns something truthy (that value), or fails after `timeoutMs` saying what it waited for. */
export async function until<T>(what: string, fn: () => T | undefined | null | false, timeoutMs = 90_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
