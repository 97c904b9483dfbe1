import fs from 'node:fs';
import path from 'node:path';
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../src/indexer/build.js';
import { updateIndex } from '../src/indexer/update.js';
import { currentDbPath, readMeta } from '../src/store/db.js';
import { reconcile } from '../src/indexer/vectors.js';
import { openLayered } from '../src/vectors/delta.js';
import { VectorStore } from '../src/vectors/store.js';
import { dumpIndex } from '../src/store/dump.js';
import { CG, ROOT, git, makeRepo, runCg, tempDir } from './helpers.js';

// The applier's promises: nothing in the change log is lost, kill -9 at any moment converges,
// damaged records are reported and never half-applied, one applier at a time, and readers see one
// generation or the next, never a mix.

/** A module that calls into its neighbours, so edits move edges between files. */
function module(i: number, n: number, version: number): string {
  const next = (i + 1) % n;
  return [`from pkg.m${next} import f${next}`, '', `def f${i}(x):`, `    return f${next}(x) + ${version}`, '',
    `class C${i}:`, `    def v${version}_m(self):`, `        return f${i}(${version})`, ''].join('\n');
}

function generatedRepo(n: number): string {
  const files: Record<string, string> = { 'pkg/__init__.py': '' };
  for (let i = 0; i < n; i++) files[`pkg/m${i}.py`] = module(i, n, 0);
  return makeRepo(files, { commit: true });
}

function dumpOf(root: string) {
  const db = new Database(currentDbPath(root)!, { readonly: true });
  try {
    return JSON.stringify(dumpIndex(db));
  } finally {
    db.close();
  }
}

async function freshDump(root: string): Promise<string> {
  const copy = path.join(tempDir('cg-fresh-'), 'repo');
  fs.cpSync(root, copy, { recursive: true, filter: (src) => !src.includes(`${path.sep}.codegraph`) });
  await buildIndex(copy);
  return dumpOf(copy);
}

function setConfig(root: string, config: object): void {
  fs.writeFileSync(path.join(root, '.codegraph', 'config.json'), JSON.stringify(config));
}

describe('crash safety', () => {
  it('converges to the uninterrupted result after kill -9 of the applier at 50 random moments', async () => {
    const n = 80;
    const root = generatedRepo(n);
    expect(runCg(['index', '-q'], root).code).toBe(0);
    // Time one uninterrupted update of a large edit, to spread the kills over a whole run.
    for (let i = 0; i < n; i += 2) fs.writeFileSync(path.join(root, `pkg/m${i}.py`), module(i, n, 1));
    const t = performance.now();
    expect(runCg(['update', '-q'], root).code).toBe(0);
    let span = performance.now() - t;
    let interrupted = 0;
    for (let trial = 0; trial < 50; trial++) {
      const version = trial + 2;
      // Mostly incremental updates; every fifth trial changes most files, which takes the rebuild path.
      const share = trial % 5 === 4 ? 0.9 : 0.25;
      for (let i = 0; i < n; i++) if ((i * 7 + trial) % 100 < share * 100) fs.writeFileSync(path.join(root, `pkg/m${i}.py`), module(i, n, version));
      const started = performance.now();
      const child = spawn(process.execPath, [CG, 'update', '-q'], { cwd: root, stdio: 'ignore' });
      const exited = new Promise<{ signal: NodeJS.Signals | null; ms: number }>((resolve) =>
        child.once('exit', (_code, signal) => resolve({ signal, ms: performance.now() - started })));
      await sleep(Math.random() * span * 1.2);
      child.kill('SIGKILL');
      const end = await exited;
      if (end.signal === 'SIGKILL') interrupted++;
      // An update that ended before its kill says how long updates take on this machine now (its load
      // changes by the minute): the next kill is spread over that, so most kills still land in a run.
      else span = end.ms;
      // The next run after the kill: in this process (the applier's logic is what converges; a process
      // start per trial cost a third of this test), while the killed one above is a real process.
      await updateIndex(root);
      expect(dumpOf(root), `trial ${trial}`).toBe(await freshDump(root));
    }
    // Most kills landed while the applier was running, or the test proved little.
    expect(interrupted).toBeGreaterThan(25);
  }, 600_000);
});

describe('damaged change-log records', () => {
  it('are detected by checksum, reported, skipped, and replaced by a rescan', async () => {
    const root = generatedRepo(6);
    runCg(['index', '-q'], root);
    fs.writeFileSync(path.join(root, 'pkg/m1.py'), module(1, 6, 7));
    const log = path.join(root, '.codegraph', 'wal', 'changes.log');
    fs.mkdirSync(path.dirname(log), { recursive: true });
    // A record whose bytes changed after it was written, then garbage, then a torn (unterminated) write.
    fs.appendFileSync(log, 'CG1 123456 60 {"v":1,"event":"save","paths":["pkg/m1.py"],"at":1795300000}\n');
    fs.appendFileSync(log, 'not a record at all\n');
    fs.appendFileSync(log, 'CG1 99 40 {"v":1,"event":"sa');
    const res = runCg(['update', '--json'], root);
    expect(res.code, res.stderr).toBe(0);
    const round = res.json.rounds[0];
    expect(round.problems.map((p: any) => p.detail)).toEqual(['checksum mismatch', 'not a change-log record']);
    expect(round.reason).toContain('unreadable change-log record');
    expect(round.modified).toBe(1);
    expect(runCg(['update'], root).stdout).toContain('Up to date');
    // The torn tail is left alone until a writer terminates it; then it is one more bad line, not a prefix.
    expect(runCg(['notify', 'pkg/m2.py', '--no-apply'], root).code).toBe(0);
    const again = runCg(['update', '--json'], root).json.rounds[0];
    expect(again.problems.map((p: any) => p.detail)).toEqual([expect.stringContaining('torn write')]);
    expect(dumpOf(root)).toBe(await freshDump(root));
    expect(runCg(['update', '--json'], root).json.rounds[0].records).toBe(0);
  });
});

describe('concurrency', () => {
  it('50 commits in rapid succession: every record kept, one applier at a time, each generation read whole', async () => {
    const n = 12;
    const root = generatedRepo(n);
    runCg(['index', '-q'], root);
    expect(runCg(['hooks', 'install'], root).code).toBe(0);
    // Each commit rewrites every module to one version; a mixed read would show two versions at once.
    const script = path.join(tempDir('cg-commits-'), 'commits.mjs');
    fs.writeFileSync(script, `
      import fs from 'node:fs';
      import { execFileSync } from 'node:child_process';
      const module = ${module.toString()};
      for (let v = 1; v <= 50; v++) {
        for (let i = 0; i < ${n}; i++) fs.writeFileSync('pkg/m' + i + '.py', module(i, ${n}, v));
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qam', 'v' + v]);
      }`);
    const committer = spawn(process.execPath, [script], { cwd: root, stdio: 'inherit' });
    const done = new Promise((resolve) => committer.once('exit', resolve));
    let finished = false;
    void done.then(() => (finished = true));
    // Read while commits and background appliers run. Each read is one transaction; a generation must
    // always show the same content (an apply publishes its rows and its generation number together).
    const byGeneration = new Map<string, string>();
    let reads = 0;
    while (!finished || (await pending(root)) > 0 || fs.existsSync(path.join(root, '.codegraph', 'writer.lock'))) {
      const db = new Database(currentDbPath(root)!, { readonly: true });
      try {
        const [generation, content] = db.transaction(() => [
          db.prepare("SELECT value FROM meta WHERE key = 'generation'").pluck().get() as string,
          db.prepare("SELECT group_concat(name, ' ') FROM (SELECT name FROM symbols WHERE name LIKE 'v%\\_m' ESCAPE '\\' ORDER BY name)")
            .pluck().get() as string,
        ])();
        const earlier = byGeneration.get(generation);
        if (earlier !== undefined) expect(content, `generation ${generation} read twice`).toBe(earlier);
        byGeneration.set(generation, content);
        reads++;
      } finally {
        db.close();
      }
      await sleep(5);
    }
    await done;
    // No record lost: one per commit.
    const log = fs.readFileSync(path.join(root, '.codegraph', 'wal', 'changes.log'), 'utf8').split('\n').filter(Boolean);
    expect(log.filter((l) => l.includes('"event":"post-commit"'))).toHaveLength(50);
    // Appliers never overlapped: every start follows the previous end.
    const events = fs.readFileSync(path.join(root, '.codegraph', 'applier.log'), 'utf8').split('\n').filter(Boolean)
      .map((l) => ({ at: Date.parse(l.split(' ')[0]), kind: l.includes(' start') ? 'start' : 'end' }));
    expect(events.length).toBeGreaterThan(1);
    for (let i = 1; i < events.length; i++) expect(events[i].kind).not.toBe(events[i - 1].kind);
    expect(byGeneration.size).toBeGreaterThan(1);
    expect(reads).toBeGreaterThan(10);
    const final = dumpOf(root);
    expect(final).toContain('v50_m');
    expect(final).toBe(await freshDump(root));
  }, 300_000);
});

describe('one writer, always', () => {
  /** The vector files the live generation names (base and delta), and whether they hold exactly the vectors the database has. */
  function liveVectors(root: string): { count: number; mismatch: string | null; file: string } {
    const db = new Database(currentDbPath(root)!, { readonly: true });
    try {
      const meta = readMeta(db);
      const file = path.join(path.dirname(db.name), meta.vectors_file);
      const store = openLayered(path.dirname(db.name), meta.vectors_file, meta.vectors_delta ?? '');
      return { count: store.size, mismatch: reconcile(db, store, meta.vectors_model), file };
    } finally {
      db.close();
    }
  }

  it('8 appliers started together on a stale lock, 30 times: never two writers, and the index of a fresh build', async () => {
    const n = 6;
    const root = generatedRepo(n);
    expect(runCg(['index', '-q'], root).code).toBe(0);
    setConfig(root, { hooks: { autoApply: false } });
    // Eight long-lived processes, each applying when told to: forking per round would only measure process start-up.
    const script = path.join(tempDir('cg-appliers-'), 'applier.mjs');
    fs.writeFileSync(script, `
      const { updateIndex } = await import(${JSON.stringify(path.join(ROOT, 'dist', 'indexer', 'update.js'))});
      process.on('message', async () => {
        try { process.send((await updateIndex(process.cwd(), { background: true })).busy ? 'busy' : 'applied'); }
        catch (err) { process.send('failed: ' + err.message); }
      });
      process.send('ready');`);
    const appliers = Array.from({ length: 8 }, () => fork(script, [], { cwd: root, stdio: 'inherit' }));
    const next = (p: ChildProcess) => new Promise<string>((resolve) => p.once('message', (m) => resolve(String(m))));
    try {
      await Promise.all(appliers.map(next));
      // What a killed applier leaves: its note, naming a process that is gone.
      const dead = spawnSync(process.execPath, ['-e', '']).pid;
      const note = path.join(root, '.codegraph', 'writer.lock');
      for (let round = 1; round <= 30; round++) {
        // New symbol names every round (v<round>_m), so a lost vector is a missing id.
        for (const i of [round % n, (round + 3) % n]) fs.writeFileSync(path.join(root, `pkg/m${i}.py`), module(i, n, round));
        fs.writeFileSync(note, JSON.stringify({ pid: dead, host: os.hostname(), since: new Date().toISOString() }));
        const answers = await Promise.all(appliers.map((p) => {
          const answer = next(p);
          p.send('go');
          return answer;
        }));
        expect(answers.filter((a) => a.startsWith('failed')), `round ${round}`).toEqual([]);
        expect(answers, `round ${round}`).toContain('applied');
      }
    } finally {
      for (const p of appliers) p.kill('SIGKILL');
    }
    // Never two at once: in the applier log every start follows an end.
    const events = fs.readFileSync(path.join(root, '.codegraph', 'applier.log'), 'utf8').split('\n').filter(Boolean)
      .map((l) => (l.includes(' start') ? 'start' : 'end'));
    const overlaps = events.filter((e, i) => i > 0 && e === 'start' && events[i - 1] === 'start').length;
    expect(overlaps).toBe(0);
    expect(events.filter((e) => e === 'start').length).toBeGreaterThanOrEqual(30);
    runCg(['update', '-q'], root);
    expect(dumpOf(root)).toBe(await freshDump(root));
    const live = liveVectors(root);
    expect(live.mismatch).toBeNull();
    const fresh = path.join(tempDir('cg-fresh-v-'), 'repo');
    fs.cpSync(root, fresh, { recursive: true, filter: (src) => !src.includes(`${path.sep}.codegraph`) });
    await buildIndex(fresh);
    expect(live.count).toBe(liveVectors(fresh).count);
  }, 120_000);

  it('an update rebuilds a vector file that lost a vector, instead of carrying the loss on', () => {
    const root = generatedRepo(4);
    expect(runCg(['index', '-q'], root).code).toBe(0);
    const before = liveVectors(root);
    expect(before.mismatch).toBeNull();
    // One vector goes missing from the live file (its manifest rewritten to match, as a writer would leave it).
    const db = new Database(currentDbPath(root)!, { readonly: true });
    const victim = db.prepare("SELECT id FROM symbols WHERE kind = 'function' ORDER BY id LIMIT 1").pluck().get() as number;
    const generation = Number(readMeta(db).generation);
    db.close();
    const store = VectorStore.open(before.file);
    expect(store.remove([victim])).toBe(1);
    expect(store.save(path.dirname(before.file), generation)).toBe(path.basename(before.file));
    expect(liveVectors(root).mismatch).toMatch(/holds \d+ vectors; the database has \d+, of which 1 are missing/);
    // An unrelated edit: only its own symbols are re-embedded, but the file is checked first.
    fs.writeFileSync(path.join(root, 'pkg/m3.py'), module(3, 4, 7));
    const round = runCg(['update', '--json'], root).json.rounds[0];
    expect(round.vectors.rebuiltBecause).toMatch(/of which 1 are missing/);
    expect(round.vectors).toMatchObject({ full: true, fileCheck: 'compared' });
    expect(liveVectors(root).mismatch).toBeNull();
    // Once whole, the next update goes back to updating the file in place, trusting the checksum
    // committed with it instead of reading every stored vector.
    fs.writeFileSync(path.join(root, 'pkg/m2.py'), module(2, 4, 8));
    const next = runCg(['update', '--json'], root).json.rounds[0];
    expect(next.vectors).toMatchObject({ full: false, fileCheck: 'checksum' });
    expect(next.vectors.rebuiltBecause).toBeUndefined();
    expect(liveVectors(root).mismatch).toBeNull();
  });

  it('compares the vector file with the database when meta has no checksum for it (an index made before it was recorded)', () => {
    const root = generatedRepo(3);
    expect(runCg(['index', '-q'], root).code).toBe(0);
    const db = new Database(currentDbPath(root)!);
    expect(readMeta(db).vectors_crc32).toMatch(/^\d+$/);
    db.prepare("DELETE FROM meta WHERE key = 'vectors_crc32'").run();
    db.close();
    fs.writeFileSync(path.join(root, 'pkg/m1.py'), module(1, 3, 5));
    const round = runCg(['update', '--json'], root).json.rounds[0];
    expect(round.vectors).toMatchObject({ full: false, fileCheck: 'compared' });
    fs.writeFileSync(path.join(root, 'pkg/m1.py'), module(1, 3, 6));
    expect(runCg(['update', '--json'], root).json.rounds[0].vectors).toMatchObject({ full: false, fileCheck: 'checksum' });
    expect(liveVectors(root).mismatch).toBeNull();
  });
});

async function pending(root: string): Promise<number> {
  const res = runCg(['status', '--json'], root);
  return res.json?.freshness?.pendingChanges ?? 0;
}

describe('updates in unusual states', () => {
  it('rebuilds a corrupt index with a message instead of failing', () => {
    const root = generatedRepo(4);
    runCg(['index', '-q'], root);
    fs.writeFileSync(currentDbPath(root)!, 'garbage '.repeat(1000));
    const res = runCg(['update'], root);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^Rebuilt the index \(Cannot open the index|^Rebuilt the index \(The index at/);
    expect(runCg(['status', '--json'], root).code).toBe(0);
  });

  it('updates on a detached HEAD, with an unborn HEAD, and outside git (by rescanning)', async () => {
    const detached = generatedRepo(3);
    runCg(['index', '-q'], detached);
    git(detached, 'checkout', '-q', '--detach');
    fs.writeFileSync(path.join(detached, 'pkg/m0.py'), module(0, 3, 5));
    expect(runCg(['update', '--json'], detached).json.rounds[0]).toMatchObject({ mode: 'incremental', modified: 1 });

    const unborn = makeRepo({ 'a.py': 'def a():\n    pass\n' }, { git: true });
    runCg(['index', '-q'], unborn);
    fs.writeFileSync(path.join(unborn, 'b.py'), 'def b():\n    pass\n');
    const res = runCg(['update', '--json'], unborn).json.rounds[0];
    expect(res).toMatchObject({ mode: 'incremental', added: 1, reason: 'no git commit to compare with' });

    const plain = makeRepo({ 'a.py': 'def a():\n    pass\n' });
    runCg(['index', '-q'], plain);
    fs.rmSync(path.join(plain, 'a.py'));
    expect(runCg(['update', '--json'], plain).json.rounds[0]).toMatchObject({ mode: 'incremental', deleted: 1 });
    expect(dumpOf(plain)).toBe(await freshDump(plain));
  });

  it('cg notify records saved paths and refuses paths outside the repository', () => {
    const root = generatedRepo(3);
    runCg(['index', '-q'], root);
    setConfig(root, { hooks: { autoApply: false } });
    fs.writeFileSync(path.join(root, 'pkg/m2.py'), module(2, 3, 9));
    const res = runCg(['notify', 'pkg/m2.py', '--json'], root);
    expect(res.json).toMatchObject({ recorded: 1, paths: ['pkg/m2.py'], applier: 'off' });
    const viaStdin = spawnSync(process.execPath, [CG, 'notify', '--json'], { cwd: root, input: 'pkg/m1.py\npkg/m0.py\n', encoding: 'utf8' });
    expect(JSON.parse(viaStdin.stdout).recorded).toBe(2);
    expect(runCg(['status', '--json'], root).json.freshness.pendingChanges).toBe(2);
    const outside = runCg(['notify', '/etc/passwd', '--json'], root);
    expect(outside.code).toBe(2);
    expect(outside.json.error.message).toContain('outside the repository');
    expect(runCg(['update', '--json'], root).json.rounds[0]).toMatchObject({ records: 2, modified: 1 });
    expect(runCg(['status', '--json'], root).json.freshness.pendingChanges).toBe(0);
  });
});

describe('file history', () => {
  it('a commit of edits already applied adds its commit to the files\' history, as a fresh build counts it', async () => {
    const root = makeRepo({ 'a.py': 'def f():\n    return 1\n', 'b.py': 'def g():\n    return 2\n' }, { commit: true });
    await buildIndex(root);
    // The edit is applied while uncommitted (a save hook's update); its commit then changes no content.
    fs.writeFileSync(path.join(root, 'a.py'), 'def f():\n    return 3\n');
    expect((await updateIndex(root)).rounds[0]).toMatchObject({ mode: 'incremental', modified: 1 });
    git(root, 'commit', '-qam', 'change f');
    expect((await updateIndex(root)).rounds[0]).toMatchObject({ mode: 'none' });
    const history = (dir: string) => {
      const db = new Database(currentDbPath(dir)!, { readonly: true });
      try {
        return db.prepare('SELECT path, commits, last_commit IS NOT NULL AS dated FROM files ORDER BY path').all();
      } finally {
        db.close();
      }
    };
    expect(history(root)).toEqual([{ path: 'a.py', commits: 2, dated: 1 }, { path: 'b.py', commits: 1, dated: 1 }]);
    const copy = path.join(tempDir('cg-fresh-'), 'repo');
    fs.cpSync(root, copy, { recursive: true, filter: (src) => !src.includes(`${path.sep}.codegraph`) });
    await buildIndex(copy);
    expect(history(root)).toEqual(history(copy));
  });
});

describe('an update with nothing to parse', () => {
  it('leaves the generation and the row files the last update wrote as they are', async () => {
    const root = makeRepo({ 'a.py': 'def f():\n    return 1\n', 'b.py': 'from a import f\n\ndef g():\n    return f()\n' }, { commit: true });
    expect(runCg(['index', '-q'], root).code).toBe(0);
    fs.writeFileSync(path.join(root, 'a.py'), 'def f():\n    return 2\n');
    expect(runCg(['update', '--json'], root).json.rounds[0]).toMatchObject({ mode: 'incremental', modified: 1 });
    const dir = path.dirname(currentDbPath(root)!);
    const rowFiles = () => fs.readdirSync(dir).filter((n) => /^(rank|resolve)-rows-\d+\.v8$/.test(n)).sort()
      .map((n) => [n, fs.statSync(path.join(dir, n)).mtimeMs]);
    const before = rowFiles();
    expect(before.length, 'a one-shot update leaves its rows beside the database').toBe(2);
    // An undone edit and a replayed save: nothing to parse.
    fs.writeFileSync(path.join(root, 'b.py'), 'from a import f\n\ndef g():\n    return f()\n');
    expect(runCg(['notify', 'b.py', '--no-apply'], root).code).toBe(0);
    const round = runCg(['update', '--json'], root).json.rounds[0];
    // Both are candidates (a.py is still uncommitted), both as indexed.
    expect(round).toMatchObject({ added: 0, modified: 0, deleted: 0, unchanged: 2, records: 1 });
    expect(round.generation, 'the same generation').toBe(Number(before[0][0].match(/-(\d+)\.v8$/)![1]));
    expect(rowFiles(), 'neither read back nor written again').toEqual(before);
  });
});

describe('large change sets', () => {
  it('counts only source paths against the rebuild threshold: a commit touching 250 docs and one module stays incremental', () => {
    const root = makeRepo({ 'a.py': 'def one():\n    return 1\n', 'b.py': 'def two():\n    return one()\n' }, { commit: true });
    runCg(['index', '-q'], root);
    setConfig(root, { hooks: { autoApply: false } });
    for (let i = 0; i < 250; i++) fs.writeFileSync(path.join(root, `note-${i}.md`), `# note ${i}\n`);
    fs.writeFileSync(path.join(root, 'a.py'), 'def one():\n    return 2\n\ndef three():\n    return 3\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'docs and one module');
    const round = runCg(['update', '--json'], root).json.rounds[0];
    expect(round).toMatchObject({ mode: 'incremental', modified: 1 });
    expect(runCg(['symbols', 'three', '--json'], root).json.symbols).toHaveLength(1);
  });
});

describe('what an update re-resolves', () => {
  it('an import change reaches the files importing through it, not every file using the same names', async () => {
    const bystanders = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`pkg/other${i}.py`,
      `import os\n\ndef N():\n    return ${i}\n\ndef use${i}():\n    return N() + len(os.getcwd())\n`]));
    const root = makeRepo({
      'pkg/__init__.py': '',
      'pkg/a.py': 'def N():\n    return 1\n',
      'pkg/b.py': 'def N():\n    return 2\n',
      'pkg/hub.py': 'from pkg.a import N\n',
      'pkg/user.py': 'from pkg.hub import N\n\ndef use():\n    return N()\n',
      'pkg/star.py': 'from pkg.hub import *\n\ndef star():\n    return N()\n',
      ...bystanders,
    }, { commit: true });
    runCg(['index', '-q'], root);
    setConfig(root, { hooks: { autoApply: false } });
    // The hub now re-exports another N and imports a module every bystander imports too.
    fs.writeFileSync(path.join(root, 'pkg/hub.py'), 'import os\nfrom pkg.b import N\n');
    const round = runCg(['update', '--json'], root).json.rounds[0];
    expect(round).toMatchObject({ mode: 'incremental', modified: 1 });
    // hub itself, user (imports N through it) and star (imports everything from it); no bystander.
    expect(round.resolvedFiles).toBe(3);
    const callers = (runCg(['refs', 'pkg/b.py:N', '--callers', '--json'], root).json.callers as { file: string }[]).map((r) => r.file).sort();
    expect(callers).toEqual(expect.arrayContaining(['pkg/star.py', 'pkg/user.py']));
    expect(dumpOf(root)).toBe(await freshDump(root));
  });

  it('an edited document re-resolves nothing but itself, though code uses the names of its sections', async () => {
    const users = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`pkg/user${i}.py`,
      `def install():\n    return ${i}\n\ndef setup${i}():\n    return install()\n`]));
    const root = makeRepo({ 'pkg/__init__.py': '', 'README.md': '# Install\n\nRun it.\n\n## Usage\n\nCall it.\n', ...users }, { commit: true });
    runCg(['index', '-q'], root);
    setConfig(root, { hooks: { autoApply: false } });
    fs.writeFileSync(path.join(root, 'README.md'), '# install\n\nRun it again.\n\n## setup0\n\nNew section.\n');
    const round = runCg(['update', '--json'], root).json.rounds[0];
    expect(round).toMatchObject({ mode: 'incremental', modified: 1 });
    expect(round.resolvedFiles).toBe(1);
    expect(dumpOf(root)).toBe(await freshDump(root));
  });
});

describe('ignore rules', () => {
  it('a changed .gitignore rescans every file against the new rules instead of rebuilding, and ends as a full build', async () => {
    const root = makeRepo({
      '.gitignore': 'build_out/\n',
      'src/a.py': 'def a():\n    return b()\n',
      'gen/b.py': 'def b():\n    return 1\n',
      'build_out/c.py': 'def c():\n    return 2\n',
    }, { commit: true });
    runCg(['index', '-q'], root);
    setConfig(root, { hooks: { autoApply: false } });
    fs.writeFileSync(path.join(root, '.gitignore'), 'gen/\n*.tmp.py\n');
    fs.writeFileSync(path.join(root, 'src/x.tmp.py'), 'def x():\n    return 3\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'other ignore rules');
    const round = runCg(['update', '--json'], root).json.rounds[0];
    expect(round).toMatchObject({ mode: 'incremental', reason: '.gitignore changed', added: 1, deleted: 1 });
    expect(dumpOf(root)).toBe(await freshDump(root));
    const dirs = (dir: string) => new Database(currentDbPath(dir)!, { readonly: true })
      .prepare('SELECT path, reason FROM skipped WHERE is_dir = 1 ORDER BY path').raw().all();
    expect(dirs(root)).toEqual([['gen', 'ignored']]);
    expect(runCg(['status', '--json'], root).json.skipped.byReason).toMatchObject({ ignored: 2 });
  });
});

describe('symbol identity', () => {
  it('an edit keeps the ids of the symbols it did not touch', () => {
    const root = makeRepo({ 'a.py': 'def keep():\n    return 1\n\nclass K:\n    def m(self):\n        return keep()\n' });
    runCg(['index', '-q'], root);
    const ids = () => Object.fromEntries((runCg(['symbols', '*', '--json'], root).json.symbols as any[]).map((s) => [s.qualifiedName, s.id]));
    const before = ids();
    fs.writeFileSync(path.join(root, 'a.py'), 'def added():\n    return 0\n\ndef keep():\n    return 2\n\nclass K:\n    def m(self):\n        return keep()\n');
    expect(runCg(['update', '--json'], root).json.rounds[0].mode).toBe('incremental');
    const after = ids();
    expect(after.keep).toBe(before.keep);
    expect(after.K).toBe(before.K);
    expect(after['K.m']).toBe(before['K.m']);
    expect(Object.values(before)).not.toContain(after.added);
  });
});

describe('cg watch', () => {
  it('does not watch directories the index leaves out (ignored, vendored, .git, .codegraph)', async () => {
    const root = makeRepo({
      '.gitignore': 'build/\n/gen\n',
      'src/a/m.py': 'def kept():\n    return 1\n',
      'build/x/y/n.py': 'def built():\n    return 2\n',
      'gen/out.py': 'def generated():\n    return 3\n',
      'node_modules/p/q/index.js': 'module.exports = 1;\n',
    }, { commit: true });
    runCg(['index', '-q'], root);
    const watcher = spawn(process.execPath, [CG, 'watch'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    watcher.stderr.on('data', (d) => (stderr += String(d)));
    try {
      for (let i = 0; i < 100 && !stderr.includes('watching'); i++) await sleep(100);
      // The root, src and src/a: nothing under build/, gen/, node_modules/, .git/ or .codegraph/.
      expect(stderr).toContain(`watching ${fs.realpathSync(root)}, 3 directories`);
    } finally {
      watcher.kill('SIGTERM');
      await new Promise((resolve) => watcher.once('exit', resolve));
    }
  });

  it('applies saved files without a hook or notify', async () => {
    const root = generatedRepo(3);
    runCg(['index', '-q'], root);
    const watcher = spawn(process.execPath, [CG, 'watch', '--debounce', '100'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    watcher.stderr.on('data', (d) => (stderr += String(d)));
    try {
      for (let i = 0; i < 100 && !stderr.includes('watching'); i++) await sleep(100);
      fs.writeFileSync(path.join(root, 'pkg/new.py'), 'def fresh_from_watch():\n    return 1\n');
      let found = 0;
      for (let i = 0; i < 100 && !found; i++) {
        await sleep(100);
        found = runCg(['symbols', 'fresh_from_watch', '--json'], root).json.total;
      }
      expect(found, stderr).toBe(1);
    } finally {
      watcher.kill('SIGTERM');
      await new Promise((resolve) => watcher.once('exit', resolve));
    }
  });
});
