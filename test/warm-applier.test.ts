import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { liveWarmApplier, WARM_APPLIER_FILE } from '../src/indexer/warm-applier.js';
import { buildIndex } from '../src/indexer/build.js';
import { currentDbPath } from '../src/store/db.js';
import { LOG_RELATIVE } from '../src/changes/log.js';
import { dumpIndex } from '../src/store/dump.js';
import { CG, git, makeRepo, runCg, tempDir, until } from './helpers.js';

// Promise: a long-running applier (`cg watch`) that announced itself gets the git hooks' records, and
// applies them warm, with no `cg update` process started for them; an announcement that lapsed (its
// process gone, or not rewritten for a minute) is ignored and the hooks start their own applier again.

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});


/** The pids that ran an apply, from .codegraph/applier.log (one start and one end line per run). */
function applierPids(root: string): number[] {
  const file = path.join(root, '.codegraph', 'applier.log');
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.includes(' start')).map((l) => Number(/pid=(\d+)/.exec(l)![1]));
}

function indexedCommit(root: string): string | null {
  const res = runCg(['status', '--json'], root);
  return res.code === 0 ? (JSON.parse(res.stdout).freshness?.indexedCommit ?? null) : null;
}

function dumpOf(root: string): string {
  const db = new Database(currentDbPath(root)!, { readonly: true });
  try {
    return JSON.stringify(dumpIndex(db));
  } finally {
    db.close();
  }
}

function hookedRepo(): string {
  const root = makeRepo({ 'app.py': 'def first():\n    return 1\n' }, { commit: true });
  expect(runCg(['index', '-q'], root).code).toBe(0);
  const res = runCg(['hooks', 'install'], root);
  expect(res.code, res.stderr).toBe(0);
  return root;
}

function commitEdit(root: string, name: string): string {
  fs.appendFileSync(path.join(root, 'app.py'), `\ndef ${name}():\n    return 2\n`);
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', name);
  return git(root, 'rev-parse', 'HEAD');
}

describe('a warm applier', () => {
  it('applies the hooks\' records itself while it runs, and the hooks start their own applier again once it stops', async () => {
    const root = hookedRepo();
    const watch = spawn(process.execPath, [CG, 'watch'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(watch);
    let stderr = '';
    watch.stderr!.on('data', (d) => { stderr += d; });
    const note = path.join(root, '.codegraph', WARM_APPLIER_FILE);
    await until('the announcement', () => fs.existsSync(note) && stderr.includes('watching'));
    expect(JSON.parse(fs.readFileSync(note, 'utf8'))).toMatchObject({ pid: watch.pid, command: 'cg watch' });
    expect(liveWarmApplier(root)?.pid).toBe(watch.pid);
    const status = runCg(['hooks', 'status', '--json'], root);
    expect(JSON.parse(status.stdout).warmApplier).toMatchObject({ pid: watch.pid, command: 'cg watch', watchesTree: true });
    expect(runCg(['hooks', 'status'], root).stdout).toContain(`applied by cg watch (pid ${watch.pid}), warm: no process is started for them; it also applies what is saved in the working tree.`);

    const before = applierPids(root).length;
    const head = commitEdit(root, 'second');
    await until('the commit applied', () => indexedCommit(root) === head);
    // A commit that changes no file is seen by no file watcher: only the change log says HEAD moved.
    git(root, 'commit', '-q', '--allow-empty', '-m', 'empty');
    const empty = git(root, 'rev-parse', 'HEAD');
    await until('the empty commit applied', () => indexedCommit(root) === empty);
    await until('the watcher done', () => !fs.existsSync(path.join(root, '.codegraph', 'writer.lock')) || undefined);
    const runs = applierPids(root).slice(before);
    expect(runs.length).toBeGreaterThan(0);
    expect(new Set(runs), 'every apply since the commit ran in cg watch').toEqual(new Set([watch.pid]));
    expect(runCg(['symbols', 'second'], root).stdout).toContain('app.py');

    // `cg notify` leaves its record to the watcher too.
    const notified = runCg(['notify', 'app.py', '--json'], root);
    expect(JSON.parse(notified.stdout).applier).toBe('warm');

    watch.kill('SIGTERM');
    await new Promise((r) => watch.once('exit', r));
    expect(fs.existsSync(note), 'the announcement is taken back').toBe(false);
    expect(JSON.parse(runCg(['hooks', 'status', '--json'], root).stdout).warmApplier).toBeNull();
    const after = applierPids(root).length;
    const head2 = commitEdit(root, 'third');
    await until('the commit applied by a hook-started applier', () => indexedCommit(root) === head2);
    expect(applierPids(root).slice(after).every((pid) => pid !== watch.pid)).toBe(true);
  }, 120_000);

  it('is `cg serve` too, applying on a thread of its own, and none where the configuration turned applying off', async () => {
    const root = hookedRepo();
    const note = path.join(root, '.codegraph', WARM_APPLIER_FILE);
    const serve = spawn(process.execPath, [CG, 'serve', '--no-warm'], { cwd: root, stdio: ['pipe', 'ignore', 'pipe'] });
    children.push(serve);
    let stderr = '';
    serve.stderr!.on('data', (d) => { stderr += d; });
    await until('the announcement', () => fs.existsSync(note) && JSON.parse(fs.readFileSync(note, 'utf8')).pid === serve.pid);
    expect(JSON.parse(fs.readFileSync(note, 'utf8')).command).toBe('cg serve');
    const before = applierPids(root).length;
    const head = commitEdit(root, 'second');
    await until('the commit applied', () => indexedCommit(root) === head);
    await until('the server saying so', () => /applied the changes \(1 files\); generation \d+/.test(stderr));
    expect(new Set(applierPids(root).slice(before)), 'applied in the server (its thread has its pid)').toEqual(new Set([serve.pid]));
    serve.stdin!.end();
    await new Promise((r) => serve.once('exit', r));
    expect(fs.existsSync(note), 'the announcement is taken back').toBe(false);

    // hooks.autoApply off: `cg update` applies, so the server does not either.
    fs.writeFileSync(path.join(root, 'cg.config.json'), '{"hooks": {"autoApply": false}}\n');
    runCg(['update', '-q'], root);
    const quiet = spawn(process.execPath, [CG, 'serve', '--no-warm'], { cwd: root, stdio: ['pipe', 'ignore', 'pipe'] });
    children.push(quiet);
    let err2 = '';
    quiet.stderr!.on('data', (d) => { err2 += d; });
    await until('the server to say why it does not apply', () => err2.includes('hooks.autoApply is false'));
    expect(fs.existsSync(note)).toBe(false);
    quiet.stdin!.end();
    await new Promise((r) => quiet.once('exit', r));
  }, 120_000);

  it('is `cg serve` watching the working tree: what is saved without any hook (an editor, a shell) is applied; --no-watch leaves it', async () => {
    const root = makeRepo({ 'app.py': 'def first():\n    return 1\n' }, { commit: true });
    expect(runCg(['index', '-q'], root).code).toBe(0);
    const outside = tempDir('cg-outside-');
    const names = () => {
      const db = new Database(currentDbPath(root)!, { readonly: true });
      try {
        return db.prepare('SELECT name FROM symbols').pluck().all() as string[];
      } finally {
        db.close();
      }
    };
    const serve = spawn(process.execPath, [CG, 'serve', '--no-warm'], { cwd: root, stdio: ['pipe', 'ignore', 'pipe'] });
    children.push(serve);
    let stderr = '';
    serve.stderr!.on('data', (d) => { stderr += d; });
    await until('the server watching', () => /watching \d+ directories of the working tree/.test(stderr));
    const status = runCg(['status', '--json'], root);
    expect(status.json.applier, status.stderr).toMatchObject({ command: 'cg serve', pid: serve.pid, watchesTree: true });
    expect(runCg(['status'], root).stdout).toContain(`Kept fresh by: cg serve (pid ${serve.pid}), applying the hooks' records and what is saved in the working tree`);
    // A folder outside the repository, linked into it once the watch runs: not entered, as the walk does not.
    fs.symlinkSync(outside, path.join(root, 'linked'));
    await new Promise((r) => setTimeout(r, 500));
    fs.writeFileSync(path.join(outside, 'elsewhere.py'), 'def outside_the_repository():\n    return 5\n');
    // No hook is installed and nothing notifies: the server's own watch records these.
    fs.writeFileSync(path.join(root, 'tool.py'), 'def saved_in_an_editor():\n    return 2\n');
    fs.mkdirSync(path.join(root, 'pkg'));
    fs.writeFileSync(path.join(root, 'pkg', 'inner.py'), 'def in_a_new_folder():\n    return 3\n');
    fs.writeFileSync(path.join(root, 'notes.log'), 'no language reads this\n');
    await until('the saved files indexed', () => names().includes('saved_in_an_editor') && names().includes('in_a_new_folder'));
    fs.rmSync(path.join(root, 'tool.py'));
    await until('the removed file gone', () => !names().includes('saved_in_an_editor'));
    const log = fs.readFileSync(path.join(root, LOG_RELATIVE), 'utf8');
    expect(log, 'a file of no language is not recorded').not.toContain('notes.log');
    expect(log, 'nor one reached through a link').not.toContain('elsewhere.py');
    expect(names()).not.toContain('outside_the_repository');
    serve.stdin!.end();
    await new Promise((r) => serve.once('exit', r));

    const quiet = spawn(process.execPath, [CG, 'serve', '--no-warm', '--no-watch'], { cwd: root, stdio: ['pipe', 'ignore', 'pipe'] });
    children.push(quiet);
    let err2 = '';
    quiet.stderr!.on('data', (d) => { err2 += d; });
    const note = path.join(root, '.codegraph', WARM_APPLIER_FILE);
    await until('the announcement', () => fs.existsSync(note) && JSON.parse(fs.readFileSync(note, 'utf8')).pid === quiet.pid);
    fs.appendFileSync(path.join(root, 'app.py'), '\ndef unseen():\n    return 4\n');
    await new Promise((r) => setTimeout(r, 1500));
    expect(names()).not.toContain('unseen');
    expect(err2).not.toMatch(/watching/);
    expect(runCg(['status', '--json'], root).json.applier).toMatchObject({ command: 'cg serve', pid: quiet.pid, watchesTree: false });
    quiet.stdin!.end();
    await new Promise((r) => quiet.once('exit', r));
  }, 120_000);

  it('loses no record of 30 rapid commits (edits, new classes on new bases, removals): `cg serve` ends where a fresh build is', async () => {
    const root = hookedRepo();
    const serve = spawn(process.execPath, [CG, 'serve', '--no-warm'], { cwd: root, stdio: ['pipe', 'ignore', 'ignore'] });
    children.push(serve);
    const note = path.join(root, '.codegraph', WARM_APPLIER_FILE);
    await until('the announcement', () => fs.existsSync(note) && JSON.parse(fs.readFileSync(note, 'utf8')).pid === serve.pid);
    fs.mkdirSync(path.join(root, 'pkg'));
    for (let i = 0; i < 30; i++) {
      fs.appendFileSync(path.join(root, 'pkg', `m${i % 7}.py`), `\n\ndef f${i}(x):\n    return f${(i + 1) % 30}(x) + ${i}\n\n`
        + `class C${i}${i ? `(C${i - 1})` : ''}:\n    def m(self):\n        return f${i}(1)\n`);
      if (i % 5 === 4) fs.rmSync(path.join(root, 'pkg', `m${(i + 3) % 7}.py`), { force: true });
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '--allow-empty', '-m', `c${i}`);
    }
    const head = git(root, 'rev-parse', 'HEAD');
    await until('every commit applied', () => {
      const f = JSON.parse(runCg(['status', '--json'], root).stdout).freshness;
      return f.indexedCommit === head && f.pendingChanges === 0;
    });
    await until('the applier done', () => !fs.existsSync(path.join(root, '.codegraph', 'writer.lock')) || undefined);
    expect(new Set(applierPids(root).slice(1)), 'every apply after the first index ran in the server').toEqual(new Set([serve.pid]));
    const copy = path.join(tempDir('cg-fresh-'), 'repo');
    fs.cpSync(root, copy, { recursive: true, filter: (src) => !src.includes(`${path.sep}.codegraph`) });
    await buildIndex(copy);
    expect(dumpOf(root)).toBe(dumpOf(copy));
    serve.stdin!.end();
    await new Promise((r) => serve.once('exit', r));
  }, 180_000);

  it('is one process: a second `cg watch` stands by while the first holds the announcement', async () => {
    const root = hookedRepo();
    const note = path.join(root, '.codegraph', WARM_APPLIER_FILE);
    const start = async () => {
      const w = spawn(process.execPath, [CG, 'watch'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
      children.push(w);
      let err = '';
      w.stderr!.on('data', (d) => { err += d; });
      await until('cg watch to start', () => err.includes('watching'));
      return w;
    };
    const first = await start();
    const second = await start();
    expect(JSON.parse(fs.readFileSync(note, 'utf8')).pid).toBe(first.pid);
    const before = applierPids(root).length;
    git(root, 'commit', '-q', '--allow-empty', '-m', 'empty');
    const head = git(root, 'rev-parse', 'HEAD');
    await until('the commit applied', () => indexedCommit(root) === head);
    await until('the watcher done', () => !fs.existsSync(path.join(root, '.codegraph', 'writer.lock')) || undefined);
    expect(new Set(applierPids(root).slice(before))).toEqual(new Set([first.pid]));
    for (const w of [second, first]) {
      w.kill('SIGTERM');
      await new Promise((r) => w.once('exit', r));
    }
    expect(fs.existsSync(note)).toBe(false);
  }, 120_000);

  it('is not trusted once its process is gone or its announcement was not rewritten for a minute', async () => {
    const root = hookedRepo();
    const note = path.join(root, '.codegraph', WARM_APPLIER_FILE);
    // A process that has exited: its pid names nobody (or, rarely, somebody else, whom the age check catches).
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    fs.writeFileSync(note, `${JSON.stringify({ pid: Number(gone.stdout), command: 'cg watch', since: new Date().toISOString() })}\n`);
    expect(liveWarmApplier(root)).toBeNull();
    let before = applierPids(root).length;
    let head = commitEdit(root, 'second');
    await until('a hook-started applier', () => indexedCommit(root) === head);
    expect(applierPids(root).length).toBeGreaterThan(before);

    // A live process (this test's), but an announcement two minutes old.
    fs.writeFileSync(note, `${JSON.stringify({ pid: process.pid, command: 'cg watch', since: new Date().toISOString() })}\n`);
    expect(liveWarmApplier(root)?.pid).toBe(process.pid);
    const old = Date.now() / 1000 - 120;
    fs.utimesSync(note, old, old);
    expect(liveWarmApplier(root)).toBeNull();
    before = applierPids(root).length;
    head = commitEdit(root, 'third');
    await until('a hook-started applier', () => indexedCommit(root) === head);
    expect(applierPids(root).length).toBeGreaterThan(before);

    // A fresh one that names a live process is trusted by the hook: the record waits in the log for it.
    fs.writeFileSync(note, `${JSON.stringify({ pid: process.pid, command: 'cg watch', since: new Date().toISOString() })}\n`);
    before = applierPids(root).length;
    head = commitEdit(root, 'fourth');
    await new Promise((r) => setTimeout(r, 1500));
    expect(applierPids(root).length, 'no applier started for the record').toBe(before);
    expect(indexedCommit(root)).not.toBe(head);
    fs.writeFileSync(note, 'not json');
    expect(liveWarmApplier(root)).toBeNull();
  }, 120_000);
});
