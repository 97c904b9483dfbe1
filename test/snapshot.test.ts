import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync, spawnSync } from 'node:child_process';
import * as tar from 'tar';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../src/indexer/build.js';
import { updateIndex } from '../src/indexer/update.js';
import { acquireWriterLock } from '../src/indexer/lock.js';
import { currentBuildId, currentDbPath, openReader, readMeta } from '../src/store/db.js';
import { dumpIndex } from '../src/store/dump.js';
import { createIndexes, SECONDARY_INDEXES } from '../src/store/schema.js';
import { runQuery } from '../src/retrieve/query.js';
import { createSnapshot } from '../src/snapshot/create.js';
import { restoreSnapshot } from '../src/snapshot/restore.js';
import { verifySnapshot } from '../src/snapshot/verify.js';
import { listSnapshots, pruneSnapshots } from '../src/snapshot/catalog.js';
import { CgError } from '../src/errors.js';
import { VectorStore } from '../src/vectors/store.js';
import { indexVectors } from '../src/indexer/vectors.js';
import { ftsPathWords, symbolFtsText } from '../src/store/writer.js';
import { ROOT, runCg, tempDir } from './helpers.js';
// A plain ES module shared with the benchmark (eval/bench-bomb.mjs).
import { BOMB_BYTES, BOMBS, CHILD, writeBomb } from '../eval/lib/bombs.mjs';

/** Fixed identities and dates, so the same tree gives the same commit ids in every directory. */
function gitAt(dir: string, when: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=cg test', '-c', 'user.email=cg@example.invalid', ...args], {
    cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when },
  }).trim();
}

/** fixtures/<name> committed once, at a fixed date, in a new directory. */
function fixtureRepo(name: string, files: Record<string, string> = {}): string {
  const dir = tempDir(`cg-snap-${name}-`);
  fs.cpSync(path.join(ROOT, 'fixtures', name), dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), text);
  gitAt(dir, '2024-01-01T00:00:00Z', 'init', '-q', '-b', 'main');
  gitAt(dir, '2024-01-01T00:00:00Z', 'add', '-A');
  gitAt(dir, '2024-01-01T00:00:00Z', 'commit', '-q', '-m', 'initial');
  return dir;
}

function setWorkers(root: string, workers: number): void {
  const file = path.join(root, '.codegraph', 'config.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const config = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  fs.writeFileSync(file, JSON.stringify({ ...config, workers }));
}

async function refusal(p: Promise<unknown>): Promise<CgError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(CgError);
    return err as CgError;
  }
  throw new Error('expected a refusal');
}

/** A gzip'd tar written header by header with node-tar's Header, for archives cg itself would never write. */
function craftArchive(file: string, entries: { path: string; type?: string; body?: string | Buffer; linkpath?: string }[]): string {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    const type = (e.type ?? 'File') as tar.HeaderData['type'];
    const h = new tar.Header({ path: e.path, type, size: type === 'File' ? body.length : 0, mode: 0o644, uid: 0, gid: 0,
      mtime: new Date(0), linkpath: e.linkpath, devmaj: 1, devmin: 3 });
    const block = Buffer.alloc(512);
    h.encode(block, 0);
    blocks.push(block);
    if (type === 'File' && body.length) blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  fs.writeFileSync(file, zlib.gzipSync(Buffer.concat(blocks)));
  return file;
}

/** Unpacks a real snapshot, lets `change` alter its members, and packs them again in the same order. */
async function tamper(file: string, out: string, change: (dir: string) => void | Promise<void>): Promise<string> {
  const dir = tempDir('cg-tamper-');
  await tar.x({ file, cwd: dir });
  const names = (await listMembers(file));
  await change(dir);
  await tar.c({ file: out, cwd: dir, gzip: true, portable: true }, names);
  return out;
}

async function listMembers(file: string): Promise<string[]> {
  const names: string[] = [];
  await tar.t({ file, onReadEntry: (e) => names.push(e.path) });
  return names;
}

describe('cg snapshot create', () => {
  it('gives byte-identical artifacts for the same commit built in different directories at different times', async () => {
    const a = fixtureRepo('typescript');
    const b = fixtureRepo('typescript');
    expect(gitAt(a, '2024-01-01T00:00:00Z', 'rev-parse', 'HEAD')).toBe(gitAt(b, '2024-01-01T00:00:00Z', 'rev-parse', 'HEAD'));
    // Different extraction: in this thread for one, two worker threads (rows arrive in another order) for the other.
    setWorkers(a, 1);
    setWorkers(b, 2);
    await buildIndex(a);
    const snapA = await createSnapshot(a);
    await new Promise((r) => setTimeout(r, 1500)); // another second: wall-clock values must not leak in
    await buildIndex(b);
    const snapB = await createSnapshot(b, { out: tempDir('cg-snap-out-') });
    expect(path.basename(snapA.file)).toBe(path.basename(snapB.file));
    expect(snapB.sha256).toBe(snapA.sha256);
    expect(fs.readFileSync(snapB.file).equals(fs.readFileSync(snapA.file))).toBe(true);
    // The manifest and the gzip header carry no time, path or host.
    const m = snapA.manifest;
    expect(m.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(m.counts.files).toBeGreaterThan(0);
    expect(m.members.map((x) => x.name)).toEqual(['index.db', 'vectors-0.usearch', 'vectors-0.usearch.json']);
    const text = JSON.stringify(m);
    expect(text).not.toContain(a);
    expect(text).not.toContain(path.basename(a));
    const head = fs.readFileSync(snapA.file).subarray(0, 10);
    expect([...head.subarray(4, 8)]).toEqual([0, 0, 0, 0]); // gzip MTIME
    expect(head[9]).toBe(0xff); // gzip OS: unknown, the same on every platform
    expect(await listMembers(snapA.file)).toEqual(['manifest.json', 'index.db', 'vectors-0.usearch', 'vectors-0.usearch.json']);
    // The live index keeps its own times and ids; only the copy is normalised.
    const db = openReader(a);
    expect(readMeta(db).build_id).toBe(currentBuildId(a));
    db.close();
    // The default folder is ignored by git, so artifacts never make the tree dirty.
    expect(gitAt(a, '2024-01-01T00:00:00Z', 'status', '--porcelain')).toBe('');
  });

  it('gives the same artifact for an index brought to a commit by incremental updates as for a fresh build of it', async () => {
    const updated = fixtureRepo('typescript');
    await buildIndex(updated);
    // Changes that make an update keep ids a fresh build numbers differently: a symbol inserted above
    // others in a file, a new file, a deleted one; then a second update on top.
    const service = path.join(updated, 'src', 'service.ts');
    fs.writeFileSync(service, `export function insertedFirst(a: number): number {\n  return a + 1;\n}\n\n${fs.readFileSync(service, 'utf8')}`);
    fs.writeFileSync(path.join(updated, 'src', 'zzz.ts'), 'export const lastFile = (n: number) => n;\n');
    fs.rmSync(path.join(updated, 'src', 'broken.ts'));
    await updateIndex(updated);
    fs.appendFileSync(path.join(updated, 'src', 'core', 'model.ts'), '\nexport function appended(): string {\n  return "x";\n}\n');
    await updateIndex(updated);
    gitAt(updated, '2024-01-05T00:00:00Z', 'add', '-A');
    gitAt(updated, '2024-01-05T00:00:00Z', 'commit', '-qm', 'changes');
    await updateIndex(updated);
    const meta = (() => { const db = openReader(updated); try { return readMeta(db); } finally { db.close(); } })();
    expect(Number(meta.generation)).toBeGreaterThan(1);
    const fromUpdates = await createSnapshot(updated, { out: tempDir('cg-snap-u-') });

    const fresh = tempDir('cg-snap-fresh-');
    execFileSync('git', ['clone', '-q', updated, fresh]);
    await buildIndex(fresh);
    const fromScratch = await createSnapshot(fresh, { out: tempDir('cg-snap-f-') });
    expect(fromUpdates.manifest).toEqual(fromScratch.manifest);
    expect(fromUpdates.sha256).toBe(fromScratch.sha256);
  });

  it('does not wait for the writer lock, and refuses an index with uncommitted changes', async () => {
    const root = fixtureRepo('python');
    await buildIndex(root);
    // A staging folder left by a killed snapshot process goes; one of a live process stays.
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
    fs.mkdirSync(path.join(root, '.codegraph', `cg-snapshot-${dead}-abcdef`));
    fs.mkdirSync(path.join(root, '.codegraph', `cg-snapshot-${process.ppid}-abcdef`));
    const lock = acquireWriterLock(root); // a writer at work
    try {
      const snap = await createSnapshot(root);
      expect(fs.existsSync(snap.file)).toBe(true);
      expect(fs.readdirSync(path.join(root, '.codegraph')).filter((n) => n.startsWith('cg-snapshot-'))).toEqual([`cg-snapshot-${process.ppid}-abcdef`]);
    } finally {
      lock.release();
    }
    fs.appendFileSync(path.join(root, 'shop', 'util.py'), '\ndef uncommitted():\n    return 1\n');
    await buildIndex(root);
    const err = await refusal(createSnapshot(root));
    expect(err.message).toMatch(/uncommitted changes/);
  });
});

describe('cg snapshot restore', () => {
  it('restores a snapshot behind HEAD and catches up to the same index and answers as a full build', async () => {
    const origin = fixtureRepo('typescript');
    await buildIndex(origin);
    const snap = await createSnapshot(origin, { out: tempDir('cg-snap-ci-') });
    // Three commits after the snapshot: a modified file, a new one, a deleted one.
    fs.appendFileSync(path.join(origin, 'src', 'service.ts'), '\nexport function auditTotals(n: number): number {\n  return n * 2;\n}\n');
    gitAt(origin, '2024-01-02T00:00:00Z', 'commit', '-qam', 'audit');
    fs.writeFileSync(path.join(origin, 'src', 'extra.ts'), 'import { auditTotals } from "./service";\nexport function doubleAudit(n: number) {\n  return auditTotals(auditTotals(n));\n}\n');
    gitAt(origin, '2024-01-03T00:00:00Z', 'add', '-A');
    gitAt(origin, '2024-01-03T00:00:00Z', 'commit', '-qm', 'extra');
    gitAt(origin, '2024-01-04T00:00:00Z', 'rm', '-q', 'src/broken.ts');
    gitAt(origin, '2024-01-04T00:00:00Z', 'commit', '-qm', 'remove broken');

    // A fresh clone restores the CI artifact through the real cg process; another builds from scratch.
    const restored = tempDir('cg-clone-r-');
    const full = tempDir('cg-clone-f-');
    execFileSync('git', ['clone', '-q', origin, restored]);
    execFileSync('git', ['clone', '-q', origin, full]);
    const res = runCg(['snapshot', 'restore', snap.file, '--json'], restored);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.json.behind).toBe(3);
    expect(res.json.catchUp.mode).toBe('incremental');
    expect(res.json.catchUp).toMatchObject({ added: 1, modified: 1, deleted: 1 });
    await buildIndex(full);

    const r = openReader(restored);
    const f = openReader(full);
    try {
      expect(dumpIndex(r)).toEqual(dumpIndex(f));
      // The snapshot carries no secondary index; the restore built them, and they kept their planner statistics.
      const indexes = (db: typeof r) => db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").all();
      expect(indexes(r)).toEqual(indexes(f));
      expect((indexes(r) as { name: string }[]).map((i) => i.name).sort()).toEqual([...SECONDARY_INDEXES].sort());
      const inSnapshot = tempDir('cg-snap-db-');
      execFileSync('tar', ['xzf', snap.file, '-C', inSnapshot, 'index.db']);
      const s = new Database(path.join(inSnapshot, 'index.db'), { readonly: true });
      try {
        expect(indexes(s)).toEqual([]);
        const statted = s.prepare(`SELECT DISTINCT idx FROM sqlite_stat1 WHERE idx IN (SELECT value FROM json_each(?)) ORDER BY idx`).pluck()
          .all(JSON.stringify(SECONDARY_INDEXES));
        expect(statted).toEqual(expect.arrayContaining(['edges_dst', 'edges_file', 'edges_src', 'imports_file', 'refs_file', 'symbols_file', 'symbols_name', 'symbols_qname']));
      } finally {
        s.close();
      }
      expect(readMeta(r).indexed_commit).toBe(readMeta(f).indexed_commit);
      // BM25's totals (documents, tokens per column) as after a full build: removed rows no longer count.
      const totals = (db: typeof r) => Buffer.from(db.prepare('SELECT block FROM symbol_fts_data WHERE id = 1').pluck().get() as Buffer).toString('hex');
      expect(totals(r)).toBe(totals(f));
      for (const text of ['audit totals of the service', 'product repository lookup', 'format money amount']) {
        const qr = await runQuery(r, restored, { text });
        const qf = await runQuery(f, full, { text });
        expect(qr.files.map((e) => [e.path, e.symbol, e.line_range])).toEqual(qf.files.map((e) => [e.path, e.symbol, e.line_range]));
      }
    } finally {
      r.close();
      f.close();
    }
  });

  it('picks the snapshot of HEAD or its nearest ancestor, lists and prunes', async () => {
    const root = fixtureRepo('python');
    await buildIndex(root);
    const first = await createSnapshot(root);
    fs.appendFileSync(path.join(root, 'shop', 'util.py'), '\ndef second():\n    return 2\n');
    gitAt(root, '2024-01-02T00:00:00Z', 'commit', '-qam', 'second');
    await buildIndex(root);
    const second = await createSnapshot(root);
    fs.appendFileSync(path.join(root, 'shop', 'util.py'), '\ndef third():\n    return 3\n');
    gitAt(root, '2024-01-03T00:00:00Z', 'commit', '-qam', 'third');
    expect(listSnapshots(path.dirname(first.file)).map((s) => s.id).sort()).toEqual([first.id, second.id].sort());

    const latest = await restoreSnapshot(root);
    expect(latest.snapshot.id).toBe(second.id);
    expect(latest.behind).toBe(1);
    expect(latest.catchUp?.mode).toBe('incremental');
    const older = await restoreSnapshot(root, { forCommit: 'HEAD~2', catchUp: false });
    expect(older.snapshot.id).toBe(first.id);
    expect(older.generation).toBeGreaterThan(latest.catchUp!.generation);

    const cli = runCg(['snapshot', 'list', '--json'], root);
    expect(cli.json.snapshots.map((s: { id: string; behind: number }) => [s.id, s.behind])).toEqual([[second.id, 1], [first.id, 2]]);
    const made = runCg(['snapshot', 'create', '--out', tempDir('cg-snap-cli-')], root);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^Snapshot [0-9a-f]{40}-[0-9a-f]{8}: /);
    expect(made.stdout).toMatch(/sha256 [0-9a-f]{64}/);
    const verified = runCg(['snapshot', 'verify', second.id, '--json'], root);
    expect(verified.json).toMatchObject({ ok: true, manifest: { commit: second.manifest.commit } });
    const pruned = pruneSnapshots(root, path.dirname(first.file), 1);
    expect(pruned.kept.map((s) => s.id)).toEqual([second.id]);
    expect(fs.existsSync(first.file)).toBe(false);
    expect((await verifySnapshot(second.file, root)).commit).toBe(second.manifest.commit);
  });
});

describe('cg snapshot restore refuses', () => {
  /** One repository with an index and a valid snapshot, shared by the refusal cases. */
  async function setup() {
    const root = fixtureRepo('python');
    await buildIndex(root);
    const snap = await createSnapshot(root, { out: tempDir('cg-snap-good-') });
    return { root, snap, work: tempDir('cg-snap-bad-') };
  }

  it('each unsafe, damaged, newer or foreign snapshot with its own reason, leaving the live index alone', async () => {
    const { root, snap, work } = await setup();
    const live = currentBuildId(root);
    const db = fs.readFileSync(snap.file);
    const manifest = JSON.stringify(snap.manifest);
    const cases: [string, string, RegExp, string][] = [
      ['escapes', craftArchive(path.join(work, 'dotdot.tar.gz'), [{ path: 'manifest.json', body: manifest }, { path: '../../evil.db', body: 'x' }]),
        /outside the target folder.*\.\.\/\.\.\/evil\.db/, 'escapes'],
      ['absolute', craftArchive(path.join(work, 'abs.tar.gz'), [{ path: '/tmp/cg-evil.db', body: 'x' }]), /absolute path.*\/tmp\/cg-evil\.db/, 'absolute'],
      ['symlink', craftArchive(path.join(work, 'symlink.tar.gz'), [{ path: 'index.db', type: 'SymbolicLink', linkpath: '/etc/passwd' }]),
        /link member.*\/etc\/passwd/, 'link'],
      ['hard link', craftArchive(path.join(work, 'hardlink.tar.gz'), [{ path: 'index.db', type: 'Link', linkpath: 'manifest.json' }]),
        /link member/, 'link'],
      ['device', craftArchive(path.join(work, 'device.tar.gz'), [{ path: 'index.db', type: 'CharacterDevice' }]), /device, FIFO/, 'device'],
      ['fifo', craftArchive(path.join(work, 'fifo.tar.gz'), [{ path: 'index.db', type: 'FIFO' }]), /device, FIFO/, 'device'],
      ['truncated', (fs.writeFileSync(path.join(work, 'cut.tar.gz'), db.subarray(0, Math.floor(db.length / 2))), path.join(work, 'cut.tar.gz')),
        /truncated or damaged/, 'truncated'],
      ['not gzip', (fs.writeFileSync(path.join(work, 'plain.tar.gz'), 'hello'), path.join(work, 'plain.tar.gz')), /not a gzip'd tar/, 'not_archive'],
      ['checksum', await tamper(snap.file, path.join(work, 'sum.tar.gz'), (d) => {
        const f = path.join(d, 'vectors-0.usearch');
        const b = fs.readFileSync(f);
        b[b.length - 1] ^= 0xff;
        fs.writeFileSync(f, b);
      }), /fails its checksums: vectors-0\.usearch has sha256/, 'checksum'],
      ['newer format', await tamper(snap.file, path.join(work, 'newer.tar.gz'), (d) => {
        const f = path.join(d, 'manifest.json');
        fs.writeFileSync(f, JSON.stringify({ ...JSON.parse(fs.readFileSync(f, 'utf8')), formatVersion: 4 }));
      }), /format version 4; this cg reads version 3/, 'newer_format'],
    ];
    const messages = new Set<string>();
    for (const [name, file, message, reason] of cases) {
      const err = await refusal(restoreSnapshot(root, { ref: file }));
      expect(err.code, name).toBe('snapshot_invalid');
      expect(err.message, name).toMatch(message);
      expect((err.details as { reason: string }).reason, name).toBe(reason);
      messages.add(err.message.replace(file, 'FILE').split(':')[0]);
      expect(currentBuildId(root), name).toBe(live);
    }
    expect(messages.size).toBe(new Set(cases.map((c) => c[3])).size);
    // Nothing escaped: no file was written outside the temporary folder.
    expect(fs.existsSync(path.join(root, '.codegraph', '..', '..', 'evil.db'))).toBe(false);
    expect(fs.existsSync('/tmp/cg-evil.db')).toBe(false);
    expect(fs.readdirSync(path.join(root, '.codegraph')).filter((n) => n.startsWith('cg-snapshot-'))).toEqual([]);
  });

  it('another repository\'s snapshot, through the cg process (exit 7, JSON error)', async () => {
    const { snap } = await setup();
    const other = fixtureRepo('python', { 'shop/other.py': 'def other():\n    return 0\n' });
    gitAt(other, '2023-06-01T00:00:00Z', 'commit', '-q', '--allow-empty', '-m', 'unrelated history');
    const res = runCg(['snapshot', 'restore', snap.file, '--json'], other);
    expect(res.code).toBe(7);
    expect(res.json.error.code).toBe('snapshot_invalid');
    expect(res.json.error.message).toMatch(/is of another repository/);
    expect(res.json.error.details.reason).toBe('other_repository');
    const verify = runCg(['snapshot', 'verify', snap.file], other);
    expect(verify.code).toBe(7);
    expect(verify.stderr).toMatch(/another repository/);
  });

  it('records every root commit as a bare id, and still accepts the roots older snapshots recorded with a newline', async () => {
    const when = '2024-01-01T00:00:00Z';
    const root = fixtureRepo('python');
    const first = gitAt(root, when, 'rev-parse', 'HEAD');
    gitAt(root, when, 'checkout', '-q', '--orphan', 'other');
    gitAt(root, when, 'commit', '-q', '-m', 'a second root');
    const second = gitAt(root, when, 'rev-parse', 'HEAD');
    gitAt(root, when, 'checkout', '-q', 'main');
    gitAt(root, when, 'merge', '-q', '--allow-unrelated-histories', '-m', 'join', 'other');
    await buildIndex(root);
    const snap = await createSnapshot(root, { out: tempDir('cg-snap-roots-') });
    expect(snap.manifest.repository.rootCommits).toEqual([first, second].sort());
    // git 2.39's `rev-list -z` ended each id with a newline: cg before this fix wrote `["<a>\n<b>\n"]`.
    const old = await tamper(snap.file, path.join(tempDir('cg-snap-roots-old-'), 'old.tar.gz'), (d) => {
      const f = path.join(d, 'manifest.json');
      const m = JSON.parse(fs.readFileSync(f, 'utf8'));
      fs.writeFileSync(f, JSON.stringify({ ...m, repository: { rootCommits: [`${first}\n${second}\n`] } }));
    });
    expect((await verifySnapshot(old, root)).commit).toBe(snap.manifest.commit);
  });

  it('a snapshot whose database fails SQLite\'s check even though the checksums were updated to match', async () => {
    const { root, snap, work } = await setup();
    const file = await tamper(snap.file, path.join(work, 'db.tar.gz'), (d) => {
      const f = path.join(d, 'index.db');
      const b = fs.readFileSync(f);
      b.fill(0x41, 100, 4096); // the first page's b-tree header
      fs.writeFileSync(f, b);
      const m = JSON.parse(fs.readFileSync(path.join(d, 'manifest.json'), 'utf8'));
      for (const x of m.members) if (x.name === 'index.db') x.sha256 = createHash('sha256').update(b).digest('hex');
      fs.writeFileSync(path.join(d, 'manifest.json'), JSON.stringify(m));
    });
    const err = await refusal(restoreSnapshot(root, { ref: file }));
    expect(err.message).toMatch(/database in the snapshot .* is damaged/);
  });
});

/** Every byte of the live index (database, its WAL, vectors) and the build pointer: what a refusal must leave alone. */
function liveBytes(root: string): Record<string, string> {
  const cg = path.join(root, '.codegraph');
  const build = path.join(cg, 'builds', currentBuildId(root)!);
  const out: Record<string, string> = { CURRENT: fs.readFileSync(path.join(cg, 'CURRENT'), 'utf8') };
  for (const n of fs.readdirSync(build).sort()) {
    if (!n.endsWith('-shm')) out[n] = createHash('sha256').update(fs.readFileSync(path.join(build, n))).digest('hex');
  }
  out.builds = fs.readdirSync(path.join(cg, 'builds')).sort().join(',');
  return out;
}

/**
 * A snapshot whose database was altered by `sql`, with everything else made to match, as an attacker
 * would: the manifest's sha256, sizes and row counts recomputed.
 */
async function alteredDb(file: string, out: string, sql: string): Promise<string> {
  return tamper(file, out, async (d) => {
    const dbFile = path.join(d, 'index.db');
    const db = new Database(dbFile);
    // `-- drop <path>`: the full-text rows of a file's symbols, removed the only way a contentless table allows.
    for (const [, p] of sql.matchAll(/-- drop (\S+)/g)) {
      const del = db.prepare("INSERT INTO symbol_fts (symbol_fts, rowid, name, qname, signature, doc, path) VALUES ('delete', ?, ?, ?, ?, ?, ?)");
      const rows = db.prepare(`SELECT s.id, s.name, s.qualified_name AS qualifiedName, s.signature, s.doc FROM symbols s
        JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.kind != 'module'`).all(p) as
        { id: number; name: string; qualifiedName: string; signature: string; doc: string | null }[];
      for (const r of rows) del.run(r.id, ...symbolFtsText(r, ftsPathWords(p)));
    }
    db.exec(sql);
    const count = (t: string) => db.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get() as number;
    const counts = { files: count('files'), symbols: count('symbols'), edges: count('edges') };
    // The vector file rebuilt from the altered rows, as cg would write it.
    const meta = readMeta(db);
    VectorStore.rebuild(await indexVectors(db, meta.vectors_model), { dims: Number(meta.vectors_dims) }).save(d, 0);
    db.close();
    refreshManifest(d, counts);
  });
}

/** The manifest of an unpacked snapshot made to match its altered members: sizes, sha256 and (optionally) counts. */
function refreshManifest(d: string, counts: Record<string, number> = {}): void {
  const m = JSON.parse(fs.readFileSync(path.join(d, 'manifest.json'), 'utf8'));
  m.counts = { ...m.counts, ...counts };
  for (const x of m.members) {
    const body = fs.readFileSync(path.join(d, x.name));
    x.bytes = body.length;
    x.sha256 = createHash('sha256').update(body).digest('hex');
  }
  fs.writeFileSync(path.join(d, 'manifest.json'), JSON.stringify(m));
}

describe('a snapshot is untrusted input', () => {
  it('each hostile database is refused with its reason, by verify and restore alike, leaving the live index byte for byte', async () => {
    const root = fixtureRepo('python');
    await buildIndex(root);
    const snap = await createSnapshot(root, { out: tempDir('cg-snap-good-') });
    const work = tempDir('cg-snap-hostile-');
    const before = liveBytes(root);
    // Rows of shop/util.py and everything that points at them, removed consistently (the full-text rows too).
    const dropFile = (p: string) => `
      -- drop ${p}
      -- the postings' blobs cannot be edited in SQL: they all go (src/store/postings.ts)
      DELETE FROM unit_terms; DELETE FROM file_terms; DELETE FROM unit_postings; DELETE FROM file_postings; DELETE FROM terms;
      DELETE FROM symbol_embeddings WHERE symbol_id IN (SELECT id FROM symbols WHERE file_id = (SELECT id FROM files WHERE path = '${p}'));
      DELETE FROM edges WHERE src_id IN (SELECT id FROM symbols WHERE file_id = (SELECT id FROM files WHERE path = '${p}'))
        OR dst_id IN (SELECT id FROM symbols WHERE file_id = (SELECT id FROM files WHERE path = '${p}'))
        OR file_id = (SELECT id FROM files WHERE path = '${p}');
      DELETE FROM refs WHERE symbol_id IN (SELECT id FROM symbols WHERE file_id = (SELECT id FROM files WHERE path = '${p}'))
        OR file_id = (SELECT id FROM files WHERE path = '${p}');
      DELETE FROM imports WHERE file_id = (SELECT id FROM files WHERE path = '${p}');
      UPDATE symbols SET parent_id = NULL WHERE parent_id IN (SELECT id FROM symbols WHERE file_id = (SELECT id FROM files WHERE path = '${p}'));
      DELETE FROM symbols WHERE file_id = (SELECT id FROM files WHERE path = '${p}');
      DELETE FROM files WHERE path = '${p}';`;
    const cases: [string, string, string, RegExp][] = [
      ['modified row', "UPDATE files SET hash = 'aa' || substr(hash, 3) WHERE path = 'shop/util.py'", 'content',
        /does not match commit .*: its row for shop\/util\.py does not describe that file/],
      ['traversal path', "UPDATE files SET path = '../../../../../../etc/passwd' WHERE path = 'shop/util.py'", 'path',
        /stores a path that is not inside the repository: "\.\.\/\.\.\/\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd" \(files\)/],
      ['outside path', "UPDATE files SET path = '/etc/passwd' WHERE path = 'shop/util.py'", 'path', /not inside the repository: "\/etc\/passwd"/],
      ['made-up path', "UPDATE files SET path = 'shop/not_in_the_commit.py' WHERE path = 'shop/util.py'", 'content',
        /has a row for shop\/not_in_the_commit\.py, which is not a file of that commit/],
      ['deleted rows', dropFile('shop/util.py') + dropFile('shop/models.py'), 'content',
        /has no row for 2 source file\(s\) of that commit \(shop\/models\.py, shop\/util\.py\): rows were deleted/],
      ['dangling key', 'UPDATE symbols SET file_id = 999999 WHERE id = (SELECT MAX(id) FROM symbols)', 'reference',
        /has 1 symbols row\(s\) whose file_id names no row of files \(a dangling key\)/],
      ['damaged postings', "UPDATE unit_postings SET docs = CAST(docs || X'80' AS BLOB) WHERE term_id = (SELECT MIN(term_id) FROM unit_postings)", 'reference',
        /has postings that do not hold together: A postings row ends inside a number/],
      ['trigger', 'CREATE TRIGGER wipe AFTER INSERT ON meta BEGIN DELETE FROM symbols; END', 'schema', /has a trigger named wipe/],
      ['view', 'CREATE VIEW all_files AS SELECT path FROM files', 'schema', /has a view named all_files/],
      ['extra table', 'CREATE TABLE payload (x)', 'schema', /has a table named payload/],
      ['altered table', 'ALTER TABLE symbols ADD COLUMN payload TEXT', 'schema', /table symbols is defined differently/],
      // A snapshot carries no secondary index (a restore builds them): one that does is not of cg's making.
      ['index in the snapshot', 'CREATE INDEX symbols_name ON symbols(name COLLATE NOCASE)', 'schema', /has an index named symbols_name/],
    ];
    for (const [name, sql, reason, message] of cases) {
      const file = await alteredDb(snap.file, path.join(work, `${reason}-${name.replace(/ /g, '-')}.tar.gz`), sql);
      const viaRestore = await refusal(restoreSnapshot(root, { ref: file }));
      const viaVerify = await refusal(verifySnapshot(file, root));
      for (const err of [viaRestore, viaVerify]) {
        expect(err.code, name).toBe('snapshot_invalid');
        expect((err.details as { reason: string }).reason, name).toBe(reason);
        expect(err.message, name).toMatch(message);
      }
      expect(liveBytes(root), name).toEqual(before);
    }
    expect(fs.readdirSync(path.join(root, '.codegraph')).filter((n) => n.startsWith('cg-snapshot-'))).toEqual([]);
    // The untouched snapshot passes the same checks.
    expect((await verifySnapshot(snap.file, root)).commit).toBe(snap.manifest.commit);
    // A snapshot of format 1 carried the secondary indexes: it is still read, and restores to the same index.
    const v1 = await tamper(snap.file, path.join(work, 'format-1.tar.gz'), (d) => {
      const db = new Database(path.join(d, 'index.db'));
      createIndexes(db);
      db.close();
      fs.writeFileSync(path.join(d, 'manifest.json'), JSON.stringify({ ...JSON.parse(fs.readFileSync(path.join(d, 'manifest.json'), 'utf8')), formatVersion: 1 }));
      refreshManifest(d);
    });
    expect((await verifySnapshot(v1, root)).commit).toBe(snap.manifest.commit);
    const restoredV1 = await restoreSnapshot(root, { ref: v1 });
    expect(restoredV1.snapshot.formatVersion).toBe(1);
    const r = openReader(root);
    try {
      expect((r.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL").pluck().all() as string[]).sort())
        .toEqual([...SECONDARY_INDEXES].sort());
    } finally {
      r.close();
    }
    // A snapshot of format 2 carried a USearch HNSW vector file, which this cg cannot read: verification
    // skips it and a restore writes the vectors again, so answers use them at once.
    const v2 = await tamper(snap.file, path.join(work, 'format-2.tar.gz'), (d) => {
      const vec = path.join(d, 'vectors-0.usearch');
      fs.writeFileSync(vec, Buffer.alloc(fs.statSync(vec).size, 7));
      const vm = JSON.parse(fs.readFileSync(`${vec}.json`, 'utf8'));
      fs.writeFileSync(`${vec}.json`, JSON.stringify({ ...vm, format: 'cg-vectors/2', connectivity: 16 }));
      fs.writeFileSync(path.join(d, 'manifest.json'), JSON.stringify({ ...JSON.parse(fs.readFileSync(path.join(d, 'manifest.json'), 'utf8')), formatVersion: 2 }));
      refreshManifest(d);
    });
    expect((await restoreSnapshot(root, { ref: v2 })).snapshot.formatVersion).toBe(2);
    const live = path.dirname(currentDbPath(root)!);
    const vm = JSON.parse(fs.readFileSync(path.join(live, `${fs.readdirSync(live).find((n) => n.endsWith('.usearch'))}.json`), 'utf8'));
    expect(vm).toMatchObject({ format: 'cg-vectors/3', count: snap.manifest.counts.vectors });
    expect(snap.manifest.counts.vectors).toBeGreaterThan(0);
    const after = JSON.parse(runCg(['query', 'load the configuration', '--json'], root).stdout);
    expect(after.warnings.join(' ')).not.toMatch(/vector/);
  });

  it('a snapshot committed to the repository is not restored by a fresh clone\'s first query unless the user opts in', async () => {
    const origin = fixtureRepo('python');
    // Snapshots live under .codegraph/ by default; a repository's committed configuration can put them in a tracked folder.
    fs.writeFileSync(path.join(origin, 'cg.config.json'), '{ "snapshots": { "dir": "snapshots" } }\n');
    gitAt(origin, '2024-01-01T12:00:00Z', 'add', 'cg.config.json');
    gitAt(origin, '2024-01-01T12:00:00Z', 'commit', '-qm', 'snapshots in a shared folder');
    await buildIndex(origin);
    const good = await createSnapshot(origin);
    expect(path.relative(origin, good.file)).toBe(path.join('snapshots', path.basename(good.file)));
    const name = path.basename(good.file);
    const keep = path.join(tempDir('cg-snap-keep-'), name);
    fs.copyFileSync(good.file, keep);
    // The attack: the snapshot of an ancestor, its database altered to serve /etc/passwd, committed under its predictable name.
    await alteredDb(keep, good.file, "UPDATE files SET path = '../../../../../../../../etc/passwd' WHERE path = 'shop/util.py'");
    gitAt(origin, '2024-01-02T00:00:00Z', 'add', '-f', `snapshots/${name}`);
    gitAt(origin, '2024-01-02T00:00:00Z', 'commit', '-qm', 'add an index snapshot');
    const clone = tempDir('cg-clone-hostile-');
    execFileSync('git', ['clone', '-q', origin, clone]);
    const first = runCg(['query', 'log a message', '--snippets', '--json'], clone);
    expect(first.code).toBe(3);
    expect(first.stdout).not.toContain('root:');
    expect(first.json.error.code).toBe('index_missing');
    expect(first.json.error.message).toMatch(/a snapshot in .* was not restored automatically/);
    expect(first.json.error.hint).toMatch(new RegExp(`${good.id} came with the repository's history \\(tracked in git\\)`));
    expect(fs.existsSync(path.join(clone, '.codegraph', 'CURRENT'))).toBe(false);
    // `cg snapshot restore` without an ID does not pick it either.
    const latest = runCg(['snapshot', 'restore', '--json'], clone);
    expect(latest.code).toBe(4);
    expect(latest.json.error.hint).toMatch(/came with the repository's history/);
    // Opted in: every check still runs, and this one is refused.
    const trusting = { env: { ...process.env, CG_TRUST_COMMITTED_SNAPSHOTS: '1' } };
    const opted = runCg(['query', 'log a message', '--snippets', '--json'], clone, trusting);
    expect(opted.code).toBe(3);
    expect(opted.stdout).not.toContain('root:');
    expect(opted.json.error.message).toMatch(/restoring it from the snapshot .* failed too: .*stores a path that is not inside the repository/);
    // A sound snapshot committed the same way is restored once the user opts in, and only then.
    fs.copyFileSync(keep, path.join(origin, 'snapshots', name));
    gitAt(origin, '2024-01-03T00:00:00Z', 'commit', '-qam', 'a sound snapshot');
    const clone2 = tempDir('cg-clone-sound-');
    execFileSync('git', ['clone', '-q', origin, clone2]);
    expect(runCg(['symbols', 'log', '--json'], clone2).code).toBe(3);
    const restored = runCg(['symbols', 'log', '--json'], clone2, trusting);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.json.freshness.restoredFrom).toMatchObject({ snapshot: good.id });
  });

  it('a vector file that does not match its database, and a restore that fails while putting it in place, leave nothing behind', async () => {
    const root = fixtureRepo('python');
    await buildIndex(root);
    const snap = await createSnapshot(root, { out: tempDir('cg-snap-good-') });
    const work = tempDir('cg-snap-vec-');
    const lost = await tamper(snap.file, path.join(work, 'lost.tar.gz'), (d) => {
      const store = VectorStore.open(path.join(d, 'vectors-0.usearch'));
      const db = new Database(path.join(d, 'index.db'), { readonly: true });
      store.remove([db.prepare('SELECT MIN(symbol_id) FROM symbol_embeddings').pluck().get() as number]);
      db.close();
      store.save(d, 0);
      refreshManifest(d);
    });
    const before = liveBytes(root);
    for (const err of [await refusal(restoreSnapshot(root, { ref: lost })), await refusal(verifySnapshot(lost, root))]) {
      expect((err.details as { reason: string }).reason).toBe('vectors');
      expect(err.message).toMatch(/vectors-0\.usearch holds \d+ vectors; the database has \d+, of which 1 are missing/);
    }
    expect(liveBytes(root)).toEqual(before);
    // A sound snapshot, and a failure after its build folder was made (the change log cannot be read):
    // a clear error, the build folder gone, the live index as it was.
    const wal = path.join(root, '.codegraph', 'wal');
    fs.rmSync(wal, { recursive: true, force: true });
    fs.mkdirSync(path.join(wal, 'changes.log'), { recursive: true });
    const before2 = liveBytes(root);
    const err = await refusal(restoreSnapshot(root, { ref: snap.file }));
    expect(err.code).toBe('io');
    expect(err.message).toMatch(/^Restoring the snapshot .* failed while putting it in place: /);
    expect(err.hint).toMatch(/live index was not changed/);
    expect(liveBytes(root)).toEqual(before2);
    expect(fs.readdirSync(path.join(root, '.codegraph')).filter((n) => n.startsWith('cg-snapshot-'))).toEqual([]);
  });
});

describe('archive bombs', () => {
  it('each kind is refused before it is unpacked, in a process that never grows past 100 MB', () => {
    const dir = tempDir('cg-bombs-');
    const verify = path.join(ROOT, 'dist', 'snapshot', 'verify.js');
    const pids: number[] = [];
    for (const [kind, { reason }] of Object.entries(BOMBS) as [string, { reason: string }][]) {
      const file = writeBomb(dir, kind);
      expect(fs.statSync(file).size).toBeLessThan(BOMB_BYTES / 500);
      const res = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD, verify, file], { encoding: 'utf8', timeout: 60_000 });
      pids.push(res.pid!);
      expect(res.status, res.stderr).toBe(0);
      const out = JSON.parse(res.stdout) as { reason: string; maxRssMb: number };
      expect(out.reason, kind).toBe(reason);
      expect(out.maxRssMb, kind).toBeLessThan(100);
    }
    // No unpacking folder was left behind.
    expect(fs.readdirSync(os.tmpdir()).filter((n) => pids.some((pid) => n.startsWith(`cg-snapshot-${pid}-`)))).toEqual([]);
  });
});

describe('a query that finds no usable index', () => {
  it('restores the newest snapshot of HEAD or an ancestor, catches up, and says so', async () => {
    const root = fixtureRepo('python');
    await buildIndex(root);
    const snap = await createSnapshot(root);
    fs.appendFileSync(path.join(root, 'shop', 'util.py'), '\ndef restored_later():\n    return 3\n');
    gitAt(root, '2024-01-02T00:00:00Z', 'commit', '-qam', 'after the snapshot');

    // Corrupt: the live database is overwritten.
    fs.writeFileSync(path.join(root, '.codegraph', 'builds', currentBuildId(root)!, 'index.db'), 'not a database');
    const q = runCg(['symbols', 'restored_later', '--json'], root);
    expect(q.code, q.stdout + q.stderr).toBe(0);
    expect(q.json.freshness.restoredFrom).toMatchObject({ snapshot: snap.id, catchUp: 'incremental' });
    expect(q.json.freshness.restoredFrom.reason).toMatch(/unreadable|corrupt|not a database/);
    expect(JSON.stringify(q.json)).toContain('restored_later'); // caught up past the snapshot's commit
    const again = runCg(['symbols', 'restored_later', '--json'], root);
    expect(again.json.freshness.restoredFrom).toBeUndefined(); // only the answer that restored says so

    // Missing: no index at all, only a snapshot (a new clone with a CI artifact put in .codegraph/snapshots/, say).
    for (const name of fs.readdirSync(path.join(root, '.codegraph'))) {
      if (name !== 'snapshots') fs.rmSync(path.join(root, '.codegraph', name), { recursive: true, force: true });
    }
    const text = runCg(['query', 'discount', 'price'], root);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/warning: the index was restored from snapshot .* because no index for/);

    // No snapshot to use: the original failure, unchanged.
    fs.rmSync(path.join(root, '.codegraph'), { recursive: true, force: true }); // the snapshot inside it too
    const none = runCg(['symbols', 'x', '--json'], root);
    expect(none.code).toBe(3);
    expect(none.json.error.code).toBe('index_missing');
  });
});
