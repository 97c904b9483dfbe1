import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import Sqlite from 'better-sqlite3';
import { buildIndex } from '../src/indexer/build.js';
import { updateIndex } from '../src/indexer/update.js';
import { currentDbPath, openReader } from '../src/store/db.js';
import { dumpIndex } from '../src/store/dump.js';
import { symbolReferences } from '../src/graph/refs.js';
import { searchSymbols } from '../src/store/queries.js';
import { indexStatus } from '../src/store/status.js';
import { readManifests } from '../src/deps/manifests.js';
import { depsReport } from '../src/deps/report.js';
import { git, makeRepo, runCg, tempDir } from './helpers.js';

// External interfaces (spec 004, US1-AS3) and `cg deps` (US2-AS4): dependencies installed inside the
// repository are indexed as declarations, reachable from the code that imports them.
const SITE = '.venv/lib/python3.11/site-packages';
const FILES: Record<string, string> = {
  'src/app.ts': "import { object, Schema } from 'tiny-schema';\n\nexport function userSchema(): Schema {\n  return object({ name: 'string' });\n}\n",
  'app.py': 'from reqs import get\n\n\ndef fetch(url):\n    return get(url, timeout=3)\n',
  'node_modules/tiny-schema/package.json': '{ "name": "tiny-schema", "version": "1.4.2", "types": "./lib/index.d.ts" }\n',
  'node_modules/tiny-schema/lib/index.d.ts': "export * from './types';\n/** Builds an object schema from a shape. */\nexport declare function object(shape: Record<string, string>): Schema;\n",
  'node_modules/tiny-schema/lib/types.d.ts': '/** A schema that can parse values. */\nexport interface Schema {\n  parse(value: unknown): unknown;\n}\n',
  'node_modules/unused-pkg/package.json': '{ "name": "unused-pkg", "version": "0.1.0", "types": "index.d.ts" }\n',
  'node_modules/unused-pkg/index.d.ts': 'export declare function nothing(): void;\n',
  'node_modules/other-pkg/package.json': '{ "name": "other-pkg", "version": "2.0.0", "types": "index.d.ts" }\n',
  'node_modules/other-pkg/index.d.ts': '/** Formats a value. */\nexport declare function format(v: unknown): string;\n',
  [`${SITE}/reqs/__init__.py`]: 'from .api import get\n',
  [`${SITE}/reqs/api.py`]: 'def get(url, **kw):\n    """Sends a GET request."""\n    return _send("GET", url)\n\n\ndef _send(method, url):\n    return method\n',
  [`${SITE}/reqs-2.1.0.dist-info/top_level.txt`]: 'reqs\n',
  'package.json': '{ "name": "app", "dependencies": { "tiny-schema": "^1.4.0", "other-pkg": "^2.0.0" } }\n',
  'package-lock.json': JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'app' }, 'node_modules/tiny-schema': { version: '1.4.2' },
    'node_modules/other-pkg': { version: '2.0.0' }, 'node_modules/tiny-schema/node_modules/other-pkg': { version: '1.9.0' } } }),
  'pkgs/web/package.json': '{ "name": "web", "dependencies": { "tiny-schema": "^2.0.0" } }\n',
  'requirements.txt': 'reqs==2.0.0\n',
  '.gitignore': 'node_modules/\n.venv/\n',
};

let root: string;
let db: Database.Database;
beforeAll(async () => {
  root = makeRepo(FILES, { commit: true });
  await buildIndex(root);
  db = openReader(root);
});
afterAll(() => db?.close());

describe('external declarations', () => {
  it('indexes the installed packages the code imports, and only those, marked external with their version', () => {
    expect(db.prepare('SELECT path, package FROM files WHERE external = 1 ORDER BY path').raw().all()).toEqual([
      [`${SITE}/reqs/__init__.py`, 'reqs@2.1.0'],
      [`${SITE}/reqs/api.py`, 'reqs@2.1.0'], // reached through the package's relative import
      ['node_modules/tiny-schema/lib/index.d.ts', 'tiny-schema@1.4.2'],
      ['node_modules/tiny-schema/lib/types.d.ts', 'tiny-schema@1.4.2'],
    ]);
    // Declarations only: no call sites of their bodies, no search terms.
    expect(db.prepare("SELECT COUNT(*) FROM refs r JOIN files f ON f.id = r.file_id WHERE f.external = 1 AND r.kind = 'call'").pluck().get()).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM file_terms t JOIN files f ON f.id = t.file_id WHERE f.external = 1').pluck().get()).toBe(0);
  });

  it('reaches them from the code: a call of an imported function is an edge to its declaration', () => {
    const ts = symbolReferences(db, 'userSchema', { callers: false, callees: true, depth: 1 });
    expect(ts.callees!.map((e) => `${e.qualifiedName} ${e.file}`)).toEqual(['object node_modules/tiny-schema/lib/index.d.ts']);
    // Through the package's re-export (`from .api import get`): the function's own declaration, two files in.
    const py = symbolReferences(db, 'fetch', { callers: false, callees: true, depth: 1 });
    expect(py.callees!.map((e) => `${e.qualifiedName} ${e.file}`)).toEqual([`get ${SITE}/reqs/api.py`]);
    expect(symbolReferences(db, 'fetch', { callers: false, callees: true, depth: 1 }).callees![0].doc).toBe('Sends a GET request.');
  });

  it('keeps them out of counts, searches and statistics', () => {
    const s = indexStatus(db, root);
    expect(s.files.indexed).toBe(4); // app.ts and app.py, and two package.json manifests (documents)
    expect(s.external).toEqual({ files: 4, packages: 2 });
    expect(searchSymbols(db, { pattern: 'object', limit: 10 }).total).toBe(0);
    expect(db.prepare("SELECT resolution FROM imports i JOIN files f ON f.id = i.file_id WHERE f.path = 'app.py'").pluck().all()).toEqual(['external']);
  });

  it('a new import of another installed package adds it on update, as a rebuild would', async () => {
    const repo = makeRepo(FILES, { commit: true });
    await buildIndex(repo);
    fs.appendFileSync(path.join(repo, 'src/app.ts'), "import { format } from 'other-pkg';\nexport const label = (v: unknown) => format(v);\n");
    const res = await updateIndex(repo);
    expect(res.rounds.map((r) => r.mode)).toEqual(['incremental']);
    expect(new Sqlite(currentDbPath(repo)!, { readonly: true }).prepare("SELECT package FROM files WHERE path = 'node_modules/other-pkg/index.d.ts'")
      .pluck().get()).toBe('other-pkg@2.0.0');
    const copy = path.join(tempDir('cg-ext-'), 'repo');
    fs.cpSync(repo, copy, { recursive: true, filter: (src) => !src.includes(`${path.sep}.codegraph`) });
    await buildIndex(copy);
    const dump = (r: string) => {
      const d = new Sqlite(currentDbPath(r)!, { readonly: true });
      try {
        return dumpIndex(d);
      } finally {
        d.close();
      }
    };
    expect(dump(repo)).toEqual(dump(copy));
  });

  it('rebuilds when a lockfile changes, since the installed versions may have', async () => {
    const repo = makeRepo(FILES, { commit: true });
    await buildIndex(repo);
    fs.writeFileSync(path.join(repo, 'requirements.txt'), 'reqs==2.1.0\n');
    git(repo, 'commit', '-qam', 'bump');
    const res = await updateIndex(repo);
    expect(res.rounds[0]).toMatchObject({ mode: 'rebuild', reason: 'requirements.txt changed: the installed dependencies may have too' });
  });
});

describe('cg deps', () => {
  it('lists packages with pinned, declared and installed versions, who imports them, and conflicts', () => {
    const r = depsReport(db, root);
    expect(r.manifests).toEqual(['package-lock.json', 'package.json', 'pkgs/web/package.json', 'requirements.txt']);
    const by = (name: string) => r.packages.find((p) => p.name === name)!;
    expect(by('tiny-schema')).toMatchObject({ ecosystem: 'npm', installed: '1.4.2', usedBy: ['src/app.ts'],
      conflicts: ['declared differently: ^1.4.0 (package.json); ^2.0.0 (pkgs/web/package.json)'] });
    expect(by('other-pkg').conflicts).toEqual(['locked at 2 versions: 2.0.0 (package-lock.json node_modules/other-pkg); '
      + '1.9.0 (package-lock.json node_modules/tiny-schema/node_modules/other-pkg)']);
    expect(by('reqs')).toMatchObject({ ecosystem: 'pypi', installed: '2.1.0', usedBy: ['app.py'],
      conflicts: ['installed 2.1.0, but the lockfile pins 2.0.0: reinstall the dependencies'] });
    expect(r.conflicts).toBe(3);
  });

  it('as a command, with --conflicts and --json', () => {
    const res = runCg(['deps', '--conflicts', '--json'], root);
    expect(res.code).toBe(0);
    expect(res.json.packages.map((p: { name: string }) => p.name)).toEqual(['other-pkg', 'tiny-schema', 'reqs']);
    expect(runCg(['deps'], root).stdout).toContain('npm      tiny-schema  locked 1.4.2, declared ^1.4.0, ^2.0.0, installed 1.4.2; used by 1 file(s): src/app.ts');
  });
});

describe('manifest and lockfile readers', () => {
  const read = (files: Record<string, string>) => {
    const dir = makeRepo(files);
    return readManifests(dir, Object.keys(files));
  };
  const locked = (files: Record<string, string>) => read(files).locked.map((l) => `${l.ecosystem} ${l.name} ${l.version}`);

  it('yarn.lock (v1 and berry) and pnpm-lock.yaml', () => {
    expect(locked({ 'yarn.lock': '"@babel/core@^7.0.0", "@babel/core@^7.1.0":\n  version "7.23.2"\n\nzod@^3.20:\n  version "3.22.4"\n' }))
      .toEqual(['npm @babel/core 7.23.2', 'npm zod 3.22.4']);
    expect(locked({ 'yarn.lock': '__metadata:\n  version: 6\n\n"zod@npm:^3.20.0":\n  version: 3.22.4\n' })).toEqual(['npm zod 3.22.4']);
    expect(locked({ 'pnpm-lock.yaml': "lockfileVersion: '9.0'\npackages:\n  zod@3.22.4:\n    resolution: {}\n  '@types/node@20.11.0':\n    resolution: {}\n" }))
      .toEqual(['npm zod 3.22.4', 'npm @types/node 20.11.0']);
  });

  it('poetry.lock, Pipfile.lock, pyproject.toml and requirements files', () => {
    expect(locked({ 'poetry.lock': '[[package]]\nname = "requests"\nversion = "2.31.0"\ndescription = "x"\n' })).toEqual(['pypi requests 2.31.0']);
    expect(locked({ 'Pipfile.lock': '{"default": {"flask": {"version": "==3.0.0"}}, "develop": {}}' })).toEqual(['pypi flask 3.0.0']);
    expect(read({ 'pyproject.toml': '[project]\ndependencies = [\n  "httpx>=0.27",\n  "rich",\n]\n[tool.poetry.dependencies]\npython = "^3.11"\nclick = "^8.1"\n' })
      .declared.map((d) => `${d.name} ${d.range}`)).toEqual(['httpx >=0.27', 'rich null', 'click ^8.1']);
  });

  it('go.mod, Cargo.toml and Cargo.lock, composer.json and composer.lock', () => {
    expect(locked({ 'go.mod': 'module x\n\ngo 1.21\n\nrequire (\n\tgithub.com/go-chi/chi/v5 v5.0.11\n\tgolang.org/x/net v0.20.0 // indirect\n)\nrequire github.com/a/b v1.0.0\n' }))
      .toEqual(['go github.com/go-chi/chi/v5 v5.0.11', 'go golang.org/x/net v0.20.0', 'go github.com/a/b v1.0.0']);
    expect(read({ 'Cargo.toml': '[package]\nname = "x"\n\n[dependencies]\nserde = { version = "1.0", features = ["derive"] }\ntokio = "1.35"\n[dev-dependencies]\nproptest = "1"\n' })
      .declared.map((d) => `${d.name} ${d.range} ${d.dev}`)).toEqual(['serde 1.0 false', 'tokio 1.35 false', 'proptest 1 true']);
    expect(locked({ 'Cargo.lock': '[[package]]\nname = "serde"\nversion = "1.0.195"\n\n[[package]]\nname = "syn"\nversion = "1.0.109"\n\n[[package]]\nname = "syn"\nversion = "2.0.48"\n' }))
      .toEqual(['cargo serde 1.0.195', 'cargo syn 1.0.109', 'cargo syn 2.0.48']);
    expect(locked({ 'composer.lock': '{"packages": [{"name": "monolog/monolog", "version": "3.5.0"}], "packages-dev": [{"name": "phpunit/phpunit", "version": "10.5.0"}]}' }))
      .toEqual(['composer monolog/monolog 3.5.0', 'composer phpunit/phpunit 10.5.0']);
  });

  it('pom.xml, build.gradle, Package.swift and Package.resolved', () => {
    expect(locked({ 'pom.xml': '<project><dependencies><dependency><groupId>com.google.code.gson</groupId><artifactId>gson</artifactId><version>2.10.1</version></dependency></dependencies></project>' }))
      .toEqual(['maven com.google.code.gson:gson 2.10.1']);
    expect(locked({ 'build.gradle': "dependencies {\n  implementation 'com.squareup:javapoet:1.13.0'\n  testImplementation(\"junit:junit:4.13.2\")\n}\n" }))
      .toEqual(['maven com.squareup:javapoet 1.13.0', 'maven junit:junit 4.13.2']);
    expect(read({ 'Package.swift': '.package(url: "https://github.com/Alamofire/Alamofire.git", from: "5.8.0"),' }).declared.map((d) => `${d.name} ${d.range}`))
      .toEqual(['alamofire 5.8.0']);
    expect(locked({ 'Package.resolved': '{"pins": [{"identity": "alamofire", "location": "https://github.com/Alamofire/Alamofire.git", "state": {"version": "5.8.1"}}], "version": 2}' }))
      .toEqual(['swiftpm alamofire 5.8.1']);
  });
});
