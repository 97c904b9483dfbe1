import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { buildIndex } from '../src/indexer/build.js';
import { openReader } from '../src/store/db.js';
import { signalsFromText } from '../src/retrieve/signal-input.js';
import { runQuery } from '../src/retrieve/query.js';
import { copyFixture, ROOT, runCg } from './helpers.js';

// Profiler output, coverage reports and logs, as the tools print them: fixtures/signals/out holds
// real output of each tool run over fixtures/signals/app (scripts/signal-fixtures.sh regenerates it).
// The tools ran in /tmp/cg-signals/app, another checkout of the same files.
let root: string;
let db: Database.Database;
beforeAll(async () => {
  root = copyFixture('signals/app');
  await buildIndex(root);
  db = openReader(root);
});
afterAll(() => db?.close());

const output = (name: string) => fs.readFileSync(path.join(ROOT, 'fixtures', 'signals', 'out', name), 'utf8');
const refs = (name: string) => signalsFromText(db, root, output(name))
  .map((r) => `${r.kind} ${r.path}:${r.line ?? ''} ${r.symbol ?? ''} ${r.depth}`.trim());

describe('profilers', () => {
  it('cProfile (python -m cProfile -s tottime): functions by own time, the hottest at depth 0', () => {
    // Built-in methods (`{method 'upper' of 'str' objects}`) name no file and are left out.
    expect(refs('cprofile.txt')).toEqual([
      'hotspot shop/users.py:4 format_name 0',
      'hotspot shop/users.py:11 save_user 1',
      'hotspot shop/run.py:4 main 2',
      'hotspot shop/run.py:1  3',
    ]);
  });

  it('pstats printed by cumulative time: still ranked by own time', () => {
    expect(refs('pstats.txt')[0]).toBe('hotspot shop/users.py:4 format_name 0');
  });

  it('go tool pprof -top names functions only: found by name in the index', () => {
    expect(refs('pprof-top.txt')).toContain('hotspot cart/cart.go: Cart.Label 0');
    expect(refs('pprof-top-lines.txt')).toEqual(['hotspot cart/cart.go:21 Cart.Label 0']);
  });

  it('node --prof-process: the [JavaScript] section', () => {
    expect(refs('node-prof.txt')).toEqual(['hotspot web/run.js:1  0', 'hotspot web/api.js:3 formatName 1']);
  });

  it('a Chrome/V8 CPU profile (node --cpu-prof): own samples per function', () => {
    expect(refs('node.cpuprofile')).toEqual(['hotspot web/run.js:1  0', 'hotspot web/api.js:9 saveUser 1', 'hotspot web/api.js:3 formatName 2']);
  });

  it('a listing of hot functions by share, as pasted', () => {
    const list = signalsFromText(db, root, 'web/api.js saveUser 12%\nweb/api.js formatName 83%\n');
    expect(list.map((r) => `${r.path} ${r.symbol} ${r.depth}`)).toEqual(['web/api.js formatName 0', 'web/api.js saveUser 1']);
  });
});

describe('coverage reports', () => {
  it('lcov from c8: the functions that ran, not the one that did not', () => {
    // run.js has no functions: its covered lines instead.
    expect(refs('c8.lcov')).toEqual(['coverage web/api.js:3 formatName 0', 'coverage web/api.js:9 saveUser 0', 'coverage web/run.js:1  0']);
  });

  it('lcov from coverage.py (lines only): the first line of each covered run', () => {
    const users = refs('coverage-py.lcov').filter((r) => r.includes('shop/users.py'));
    expect(users).toEqual(['coverage shop/users.py:1  0', 'coverage shop/users.py:4  0', 'coverage shop/users.py:11  0', 'coverage shop/users.py:16  0']);
  });

  it('Cobertura XML from coverage.py: the same runs (the XML counts no docstring line), the installed library left out', () => {
    const all = refs('coverage.xml');
    expect(all.filter((r) => r.includes('shop/users.py'))).toEqual(['coverage shop/users.py:4  0', 'coverage shop/users.py:11  0',
      'coverage shop/users.py:16  0']);
    expect(all.every((r) => !r.includes('dist-packages'))).toBe(true);
  });

  it('a Go cover profile (go test -coverprofile): module paths resolve to the package\'s files', () => {
    expect(refs('go-cover.out')).toEqual(['coverage cart/cart.go:17  0', 'coverage cart/cart.go:25  0', 'coverage cart/cart.go:29  0']);
  });
});

describe('logs', () => {
  it('Python logging with %(funcName)s: the function named, found in the index', () => {
    expect(refs('python-logging.txt')).toEqual(['log shop/store.py: store_user 0']);
  });

  it('ignores names the repository does not define, and lines without a level', () => {
    expect(signalsFromText(db, root, 'ERROR in connect_db: refused\nINFO calling store_user() now\n')).toEqual([]);
  });
});

describe('in a query', () => {
  it('brings in the hottest function with its rank as the reason', async () => {
    const res = await runQuery(db, root, { text: 'make the user list faster', signals: signalsFromText(db, root, output('cprofile.txt')) });
    expect(res.files[0].path).toBe('shop/users.py');
    expect(res.files.find((f) => f.symbol === 'format_name')?.rationale).toBe('line 4 is in the execution signal (hotspot 1 of the profile)');
  });
});

describe('cg signal record', () => {
  it('runs the command, exits with its status, keeps its failures until their files change', () => {
    const repo = copyFixture('signals/app');
    expect(runCg(['index'], repo).code).toBe(0);
    // Node's own report of an uncaught error: a V8 stack through web/api.js.
    const rec = runCg(['signal', 'record', '--', process.execPath, '-e', "require('./web/api.js').formatName(null, 'x')"], repo);
    expect(rec.code).toBe(1);
    expect(rec.stderr).toContain("Cannot read properties of null (reading '0')");
    expect(rec.stderr).toMatch(/cg: kept 1 place named by the output of `.*node -e .*` \(exit 1\)/);
    const q = runCg(['query', 'the name is formatted wrong', '--json'], repo);
    expect(q.json.files[0]).toMatchObject({ path: 'web/api.js', symbol: 'formatName' });
    expect(q.json.warnings).toContainEqual(expect.stringMatching(/^1 place\(s\) from the recorded run of .* were used as execution signals$/));
    expect(runCg(['query', 'the name is formatted wrong', '--json', '--no-recorded-signals'], repo).json.warnings
      .some((w: string) => w.includes('recorded'))).toBe(false);

    fs.appendFileSync(path.join(repo, 'web', 'api.js'), '// changed\n');
    const list = runCg(['signal', 'list', '--json'], repo).json;
    expect(list).toMatchObject({ signals: [], expired: 1, recording: { exitCode: 1 } });
    expect(runCg(['query', 'the name is formatted wrong', '--json'], repo).json.warnings)
      .toContainEqual(expect.stringMatching(/^1 recorded signal\(s\) of .* expired: their files changed since/));
    expect(runCg(['signal', 'clear'], repo).code).toBe(0);
    expect(runCg(['signal', 'list'], repo).stdout).toMatch(/^No signals recorded/);
  });

  it('says clearly when the command cannot be run', () => {
    const repo = copyFixture('signals/app');
    expect(runCg(['index'], repo).code).toBe(0);
    const res = runCg(['signal', 'record', '--', 'no-such-command-cg'], repo);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Cannot run no-such-command-cg');
  });
});
