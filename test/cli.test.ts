import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawn, spawnSync } from 'node:child_process';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { acquireWriterLock } from '../src/indexer/lock.js';
import { CG, copyFixture, git, makeRepo, runCg } from './helpers.js';

// The real `cg` executable, as a user or an agent runs it, on a real git repository.
let repo: string;
beforeAll(() => {
  repo = copyFixture('python');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'fixture');
  const res = runCg(['index', '--json'], repo);
  expect(res.code, res.stderr).toBe(0);
});

describe('cg index', () => {
  it('reports the documented JSON summary', () => {
    const res = runCg(['index', '--json'], repo);
    expect(res.code).toBe(0);
    expect(res.json).toMatchObject({ files: 7, skipped: 0, partial: 1 });
    for (const key of ['files', 'symbols', 'edges', 'skipped', 'durationMs']) expect(typeof res.json[key]).toBe('number');
    expect(res.json.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('prints a human summary without progress noise when not on a terminal', () => {
    const res = runCg(['index', '--full'], repo);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Indexed 7 files \(/);
    expect(res.stderr).toBe('');
  });

  it('updates incrementally when an index exists, and rebuilds with --full', () => {
    expect(runCg(['index', '--json'], repo).json).toMatchObject({ mode: 'none', files: 7 });
    fs.appendFileSync(path.join(repo, 'shop', 'util.py'), '\n\ndef added_later():\n    return log("x")\n');
    const res = runCg(['index', '--json'], repo);
    expect(res.json).toMatchObject({ mode: 'incremental', files: 7, changes: { added: 0, modified: 1, deleted: 0 } });
    expect(runCg(['index'], repo).stdout).toMatch(/^Up to date: 7 files/);
    expect(runCg(['index', '--full', '--json'], repo).json.mode).toBe('full');
    git(repo, 'checkout', '-q', '--', 'shop/util.py');
    expect(runCg(['index', '--json'], repo).json.changes.modified).toBe(1); // back as it was, for the tests below
  });

  it('indexes a subdirectory argument as its repository', () => {
    const res = runCg(['index', path.join(repo, 'shop'), '--json'], '/');
    expect(res.code).toBe(0);
    expect(res.json.root).toBe(repo);
  });
});

describe('cg status', () => {
  it('gives counts per language, skipped files and freshness', () => {
    const res = runCg(['status', '--json'], repo);
    expect(res.code).toBe(0);
    expect(res.json.files).toMatchObject({ indexed: 7, partial: 1 });
    expect(res.json.files.byLanguage.python.files).toBe(7);
    expect(res.json.freshness.indexedCommit).toBe(git(repo, 'rev-parse', 'HEAD'));
    expect(res.json.freshness.behindHead).toBe(false);
    expect(res.json.calls.python.total).toBeGreaterThan(0);
  });

  it('says when HEAD has moved since the index was built', () => {
    const r = copyFixture('python');
    git(r, 'init', '-q', '-b', 'main');
    git(r, 'add', '-A');
    git(r, 'commit', '-q', '-m', 'one');
    expect(runCg(['index', '-q'], r).code).toBe(0);
    git(r, 'commit', '-q', '--allow-empty', '-m', 'two');
    const res = runCg(['status', '--json'], r);
    expect(res.json.freshness.behindHead).toBe(true);
    expect(runCg(['status'], r).stdout).toContain('HEAD has moved');
  });
});

describe('cg symbols', () => {
  it('finds by substring with exact matches first, and every symbol has the documented fields', () => {
    const res = runCg(['symbols', 'product', '--json'], repo);
    expect(res.code).toBe(0);
    const names = res.json.symbols.map((s: { qualifiedName: string }) => s.qualifiedName);
    expect(names[0]).toBe('Product');
    expect(names).toContain('create_product');
    for (const s of res.json.symbols) {
      for (const key of ['name', 'qualifiedName', 'kind', 'language', 'file', 'startLine', 'endLine', 'signature']) {
        expect(s).toHaveProperty(key);
      }
    }
  });

  it('filters by kind, file glob and limit, and matches qualified names and globs', () => {
    expect(runCg(['symbols', 'run', '--kind', 'method', '--json'], repo).json.symbols.map((s: any) => s.qualifiedName))
      .toEqual(['Service.run']);
    expect(runCg(['symbols', '*', '--file', 'shop/util.py', '--json'], repo).json.symbols.map((s: any) => s.name).sort())
      .toEqual(['_private_helper', 'log']);
    const limited = runCg(['symbols', 'e', '--limit', '2', '--json'], repo).json;
    expect(limited.symbols).toHaveLength(2);
    expect(limited.total).toBeGreaterThan(2);
    expect(runCg(['symbols', 'Service.r*', '--json'], repo).json.symbols.map((s: any) => s.qualifiedName)).toEqual(['Service.run']);
  });

  it('rejects a bad kind or limit with exit code 2 and a hint', () => {
    const bad = runCg(['symbols', 'x', '--kind', 'banana'], repo);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown symbol kind "banana"');
    expect(bad.stderr).toContain('hint:');
    const json = runCg(['symbols', 'x', '--limit', '0', '--json'], repo);
    expect(json.code).toBe(2);
    expect(json.json.error.code).toBe('usage');
  });

  it('treats LIKE and glob metacharacters in names literally', () => {
    expect(runCg(['symbols', '_private', '--json'], repo).json.symbols.map((s: any) => s.name)).toEqual(['_private_helper']);
    expect(runCg(['symbols', '%', '--json'], repo).json.total).toBe(0);
  });
});

describe('cg refs', () => {
  it('gives callers and callees with call-site lines and confidence', () => {
    const res = runCg(['refs', 'Service.run', '--json'], repo);
    expect(res.code).toBe(0);
    expect(res.json.target.qualifiedName).toBe('Service.run');
    expect(res.json.callers.map((c: any) => [c.qualifiedName, c.line, c.confidence])).toEqual([['Service.fetch', 28, 0.9]]);
    expect(res.json.callees.map((c: any) => [c.qualifiedName, c.file, c.line])).toEqual([
      ['create_product', 'shop/service.py', 19],
      ['Repository.store', 'shop/service.py', 20],
    ]);
  });

  it('follows callers transitively with --depth', () => {
    const res = runCg(['refs', 'create_product', '--callers', '--depth', '2', '--json'], repo);
    expect(res.json.callees).toBeUndefined();
    const byName = Object.fromEntries(res.json.callers.map((c: any) => [c.qualifiedName, c]));
    expect(byName['Service.run'].depth).toBe(1);
    expect(byName['Service.fetch']).toMatchObject({ depth: 2, via: 'Service.run' });
  });

  it('accepts file:name and reports unknown, ambiguous and out-of-range input clearly', () => {
    expect(runCg(['refs', 'shop/models.py:Product.apply', '--json'], repo).json.callers[0].qualifiedName).toBe('Product.discounted');
    const missing = runCg(['refs', 'no_such_thing', '--json'], repo);
    expect(missing.code).toBe(4);
    expect(missing.json.error.code).toBe('not_found');
    const amb = runCg(['refs', '__init__', '--json'], repo);
    expect(amb.code).toBe(4);
    expect(amb.json.error.code).toBe('ambiguous');
    expect(amb.json.error.details.candidates.length).toBe(2);
    expect(runCg(['refs', 'log', '--depth', '9'], repo).code).toBe(2);
  });
});

describe('cg file', () => {
  it("lists a file's symbols, resolved imports and exports", () => {
    const res = runCg(['file', 'shop/service.py', '--json'], repo);
    expect(res.code).toBe(0);
    expect(res.json.language).toBe('python');
    expect(res.json.exports).toEqual(['Repository', 'Service', 'create_product']);
    expect(res.json.imports.map((i: any) => [i.module, i.resolved.map((r: any) => r.file)])).toEqual([
      ['shop.util', ['shop/util.py']],
      ['shop', ['shop/models.py']],
      ['.models', ['shop/models.py']],
    ]);
    expect(res.json.symbols.find((s: any) => s.qualifiedName === 'Service.run').depth).toBe(1);
  });

  it('accepts paths relative to the current directory', () => {
    const res = runCg(['file', 'util.py', '--json'], path.join(repo, 'shop'));
    expect(res.json.file).toBe('shop/util.py');
  });

  it('refuses paths outside the repository and explains unknown ones', () => {
    const outside = runCg(['file', '../../etc/passwd', '--json'], path.join(repo, 'shop'));
    expect(outside.code).not.toBe(0);
    expect(outside.json.error.message).toMatch(/not in the index|outside the repository/);
    const none = runCg(['file', 'shop/nope.py'], repo);
    expect(none.code).toBe(4);
    expect(none.stderr).toContain('is not in the index');
  });
});

describe('without an index', () => {
  it('every query command says so with exit code 3 and tells what to run', () => {
    const dir = makeRepo({ 'a.py': 'def f():\n    pass\n' });
    for (const args of [['status'], ['symbols', 'f'], ['refs', 'f'], ['file', 'a.py']]) {
      const res = runCg([...args, '--json'], dir);
      expect(res.code, args.join(' ')).toBe(3);
      expect(res.json.error).toMatchObject({ code: 'index_missing' });
      expect(res.json.error.hint).toContain('cg index');
    }
  });

  it('cg init creates .codegraph with a .gitignore and no configuration, and is idempotent', () => {
    const dir = makeRepo({ 'a.py': 'x = 1\n' }, { git: true });
    const first = runCg(['init', '--json'], dir);
    expect(first.json.created).toBe(true);
    expect(fs.readdirSync(path.join(dir, '.codegraph'))).toEqual(['.gitignore']);
    expect(fs.readFileSync(path.join(dir, '.codegraph', '.gitignore'), 'utf8')).toContain('*');
    expect(runCg(['init', '--json'], dir).json.created).toBe(false);
    expect(git(dir, 'status', '--porcelain')).toBe('?? a.py');
  });
});

describe('usage', () => {
  it('unknown commands and options exit 2; --help and --version exit 0', () => {
    expect(runCg(['frobnicate'], '/').code).toBe(2);
    expect(runCg(['symbols', 'x', '--bogus'], '/').code).toBe(2);
    expect(runCg(['--help'], '/').code).toBe(0);
    expect(runCg(['--version'], '/').stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('start-up', () => {
  // Which modules a `cg` process loads, recorded by a module loader hook (Node runs it beside the process).
  function loadedModules(args: string[], cwd: string): string[] {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-modules-'));
    const log = path.join(dir, 'loaded.txt');
    fs.writeFileSync(path.join(dir, 'hooks.mjs'), `import { appendFileSync } from 'node:fs';
export async function load(url, ctx, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, ctx); }`);
    fs.writeFileSync(path.join(dir, 'register.mjs'), `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});`);
    const res = runCg(args, cwd, { env: { NODE_OPTIONS: `--import ${pathToFileURL(path.join(dir, 'register.mjs')).href}` } });
    expect(res.code, res.stderr).toBe(0);
    const urls = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
    fs.rmSync(dir, { recursive: true, force: true });
    return urls.flatMap(bundleInputs);
  }
  // A file of the bundle (dist/bundle/, scripts/bundle.mjs) stands for the modules esbuild put in it.
  const root = path.dirname(path.dirname(CG));
  const meta = JSON.parse(fs.readFileSync(path.join(root, 'dist', 'bundle', 'metafile.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  function bundleInputs(url: string): string[] {
    const rel = url.startsWith('file:') ? path.relative(root, new URL(url).pathname) : null;
    if (!rel?.startsWith('dist/bundle/')) return [url];
    return [url, ...Object.keys(meta.outputs[rel]?.inputs ?? {}).map((input) => pathToFileURL(path.join(root, input)).href)];
  }
  const HEAVY = ['web-tree-sitter', 'piscina', 'usearch', '@modelcontextprotocol', 'zod', 'graphology', 'tar',
    '/indexer/', '/extract/', '/snapshot/', '/mcp/', '/vectors/'];

  it('answers a query command without loading the grammars, the indexer, the MCP tools or other commands', () => {
    const urls = loadedModules(['symbols', 'Cart'], repo);
    expect(urls.some((u) => u.endsWith('/dist/bundle/cli/main.js')), 'the bundle runs (npm run build makes it)').toBe(true);
    expect(urls.some((u) => u.includes('/cli/commands/symbols-cmd.'))).toBe(true);
    expect(urls.filter((u) => u.includes('/cli/commands/') && !u.includes('symbols-cmd'))).toEqual([]);
    for (const heavy of HEAVY) expect(urls.filter((u) => u.includes(heavy)), heavy).toEqual([]);
  });

  it('updates the index of a repository without a configuration file without loading the JSONC parser', () => {
    const urls = loadedModules(['update', '-q'], repo);
    expect(urls.some((u) => u.includes('/indexer/apply.'))).toBe(true);
    // One file of the bundle: `cg update` (src/cli/update-main.ts) is bundled on its own, without the CLI's entry.
    expect(urls.some((u) => u.endsWith('/dist/bundle/cli/update-main.js'))).toBe(true);
    expect(urls.filter((u) => u.endsWith('/dist/bundle/cli/main.js') || /\/dist\/bundle\/chunk-/.test(u))).toEqual([]);
    for (const lib of ['jsonc-parser', 'fastest-levenshtein']) expect(urls.filter((u) => u.includes(lib)), lib).toEqual([]);
  });

  it('prints the version without loading any command', () => {
    const urls = loadedModules(['--version'], '/');
    expect(urls.filter((u) => u.includes('/cli/commands/'))).toEqual([]);
  });

  it('can compile the grammars with the baseline compiler only, before the first grammar load and not after', () => {
    // What a one-shot `cg update` does for a few files (src/lang/loader.ts); in a fresh process, as the CLI runs it.
    const dist = (p: string) => JSON.stringify(pathToFileURL(path.join(path.dirname(path.dirname(CG)), 'dist', p)).href);
    const script = `import { baselineCompileOnly, loadLanguage } from ${dist('lang/loader.js')};
import { languageById } from ${dist('lang/registry.js')};
const before = baselineCompileOnly();
const { parser } = await loadLanguage(languageById('python'));
const root = parser.parse('def f():\\n    return 1\\n').rootNode;
console.log(JSON.stringify({ before, after: baselineCompileOnly(), tree: root.toString() }));`;
    const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ before: true, after: false });
    expect(out.tree).toMatch(/^\(module \(function_definition name: \(identifier\)/);
  });

  it('runs a cg update without TurboFan until it proves large, and turns it back on then', () => {
    // V8's optimization status of hot functions (bit 16: optimized), in a fresh process as src/cli/main.ts starts one.
    const dist = (p: string) => JSON.stringify(pathToFileURL(path.join(path.dirname(path.dirname(CG)), 'dist', p)).href);
    const script = (start: string, later: string) => `import { optimizeLater, optimizeNow } from ${dist('compilers.js')};
const a = Array.from({ length: 100 }, (_, i) => i);
const run = (f) => { let t = 0; for (let k = 0; k < 200000; k++) t += f(a); eval('%WaitForBackgroundOptimization()'); return eval('%GetOptimizationStatus(f)') & 16; };
${start}
const first = run((x) => { let s = 0; for (let i = 0; i < x.length; i++) s += x[i] * 2; return s; });
${later}
const second = run((x) => { let s = 0; for (let i = 0; i < x.length; i++) s += x[i] * 3; return s; });
console.log(JSON.stringify({ first, second }));`;
    const statuses = (start: string, later: string) => {
      const res = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script(start, later)], { encoding: 'utf8' });
      expect(res.status, res.stderr).toBe(0);
      return JSON.parse(res.stdout);
    };
    expect(statuses('', ''), 'V8 optimizes hot functions by default').toEqual({ first: 16, second: 16 });
    expect(statuses('optimizeLater();', ''), 'not after optimizeLater').toEqual({ first: 0, second: 0 });
    expect(statuses('optimizeLater();', 'optimizeNow();'), 'again after optimizeNow').toEqual({ first: 0, second: 16 });
    expect(statuses('', 'optimizeNow();'), 'optimizeNow alone changes nothing').toEqual({ first: 16, second: 16 });
  });

  it('registers each command from its own module, and all of them, in help order, for help', async () => {
    const { COMMAND_NAMES, createProgram } = await import('../src/cli/program.js');
    expect((await createProgram()).commands.map((c) => c.name())).toEqual(COMMAND_NAMES);
    for (const name of COMMAND_NAMES) {
      expect((await createProgram([name, '--help'])).commands.map((c) => c.name()), name).toContain(name);
    }
    expect((await createProgram(['--version'])).commands).toEqual([]);
    expect((await createProgram(['frobnicate'])).commands.length).toBe(COMMAND_NAMES.length);
  });
});

describe('the bundle', () => {
  it('runs only when it is at least as new as the compiled modules, so a tsc-only build never runs stale code', () => {
    // bin/cg.js in a package of two stand-in builds, each printing its name.
    const pkg = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bundle-'));
    fs.writeFileSync(path.join(pkg, 'package.json'), '{"type":"module"}');
    fs.mkdirSync(path.join(pkg, 'bin'));
    fs.copyFileSync(CG, path.join(pkg, 'bin', 'cg.js'));
    const main = (build: string) => path.join(pkg, ...build.split('/'), 'cli', 'main.js');
    for (const build of ['dist', 'dist/bundle']) {
      fs.mkdirSync(path.dirname(main(build)), { recursive: true });
      fs.writeFileSync(main(build), `console.log(${JSON.stringify(build)});`);
    }
    const runs = (bundleAge: number, distAge: number) => {
      const now = Date.now() / 1000;
      if (fs.existsSync(main('dist/bundle'))) fs.utimesSync(main('dist/bundle'), now - bundleAge, now - bundleAge);
      fs.utimesSync(main('dist'), now - distAge, now - distAge);
      return spawnSync(process.execPath, [path.join(pkg, 'bin', 'cg.js'), '--version'], { encoding: 'utf8' }).stdout.trim();
    };
    try {
      expect(runs(10, 20), 'bundled after tsc').toBe('dist/bundle');
      expect(runs(10, 10), 'same time').toBe('dist/bundle');
      expect(runs(20, 10), 'tsc ran again since').toBe('dist');
      fs.rmSync(main('dist/bundle'));
      expect(runs(0, 10), 'no bundle').toBe('dist');
    } finally {
      fs.rmSync(pkg, { recursive: true, force: true });
    }
  });
});

describe('every command', () => {
  it('takes --repo (but the global registry\'s own) and shows examples in its help', async () => {
    const { createProgram } = await import('../src/cli/program.js');
    const leaves = (cmd: Command, prefix: string[]): [string, Command][] => cmd.commands.flatMap((c) => (c.commands.length
      ? leaves(c, [...prefix, c.name()]) : [[[...prefix, c.name()].join(' '), c] as [string, Command]]));
    const all = leaves(await createProgram(), []);
    expect(all.length).toBeGreaterThan(25);
    for (const [name, cmd] of all) {
      let help = '';
      cmd.configureOutput({ writeOut: (s) => { help += s; } });
      cmd.outputHelp();
      // The registry's commands act on every registered project (`cg project add PATH` names one), not on a repository.
      if (!/^(project|collection|scope|audit|agent)\b/.test(name)) expect(help, name).toContain('--repo <dir>');
      expect(help, name).toMatch(/\nExamples:\n {2}\$ .*\bcg /);
    }
  });
});

describe('cg update while another process applies', () => {
  it('waits for it, then applies the rest and exits 0; --wait 0 fails at once with exit 6', async () => {
    const dir = makeRepo({ 'a.py': 'def f():\n    pass\n' }, { commit: true });
    expect(runCg(['index', '-q'], dir).code).toBe(0);
    fs.appendFileSync(path.join(dir, 'a.py'), '\ndef g():\n    pass\n');
    // This test process holds the writer lock, as a hook's background applier would.
    const lock = acquireWriterLock(dir);
    expect(runCg(['update', '--wait', '0', '--json'], dir).json.error.code).toBe('index_busy');
    const waiting = spawn(process.execPath, [CG, 'update', '--json'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    waiting.stdout.on('data', (d) => { out += d; });
    const exited = new Promise<number | null>((resolve) => waiting.on('exit', resolve));
    // Released once the waiting process says it found the lock taken.
    await new Promise<void>((resolve) => waiting.stderr.on('data', (d) => {
      err += d;
      if (err.includes('waiting for it to finish')) resolve();
    }));
    expect(err).toMatch(/^cg: Another cg process \(pid \d+\) is writing the index of .*; waiting for it to finish \(up to 600 s/);
    lock.release();
    expect(await exited).toBe(0);
    const res = JSON.parse(out);
    expect(res.waitedMs).toBeGreaterThan(0);
    expect(res.rounds[0]).toMatchObject({ mode: 'incremental', modified: 1 });
  });
});
