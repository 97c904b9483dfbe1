import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openReader, openWriter } from '../src/store/db.js';
import { FEATURES } from '../src/retrieve/features.js';
import { addPastCommits, historyEvidence, historyOf, indexHistory, MESSAGE_TERMS, PAST_COMMITS, pastCommitsOf, readPastCommits, storePastCommits } from '../src/retrieve/history.js';
import { tokenize } from '../src/retrieve/tokenize.js';
import { git, makeRepo, runCg } from './helpers.js';

// "Similar past commits" (src/retrieve/history.ts): the index keeps recent commits' message terms and
// changed files; a task that reads like an earlier commit's message votes for that commit's files.
const files = {
  'src/cache.py': 'def evict(entries, now):\n    return [e for e in entries if e.expires > now]\n',
  'src/session.py': 'def open_session(user):\n    return {"user": user}\n',
  'src/render.py': 'def render(page):\n    return page.title\n',
  'README.md': '# app\n',
};

const commit = (dir: string, file: string, line: string, message: string) => {
  fs.appendFileSync(path.join(dir, file), line);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
};

const pastOf = (dir: string) => {
  const db = openReader(dir);
  try {
    return readPastCommits(db);
  } finally {
    db.close();
  }
};

describe('similar past commits', () => {
  it('keeps the commits newest first, their files and message terms, after a build and after updates as a full build would', () => {
    const dir = makeRepo(files, { commit: true });
    commit(dir, 'src/cache.py', '# ttl\n', 'Fix cache eviction when the expiry time is exactly now');
    commit(dir, 'src/session.py', '# user\n', 'Sessions remember the user agent');
    expect(runCg(['index', '--json'], dir).code).toBe(0);
    const built = pastOf(dir);
    expect(built.map((c) => c.paths)).toEqual([['src/session.py'], ['src/cache.py'], ['README.md', 'src/cache.py', 'src/render.py', 'src/session.py']]);
    expect(built[1].terms).toEqual(tokenize('Fix cache eviction when the expiry time is exactly now'));

    // New commits reach the table through an update; an edit without a commit changes nothing in it.
    commit(dir, 'src/render.py', '# title\n', 'Render the page title escaped');
    commit(dir, 'README.md', 'more\n', 'Document the cache settings');
    fs.appendFileSync(path.join(dir, 'src/render.py'), '# uncommitted\n');
    expect(runCg(['update', '--json'], dir).code).toBe(0);
    const updated = pastOf(dir);
    expect(updated.map((c) => c.paths[0])).toEqual(['README.md', 'src/render.py', 'src/session.py', 'src/cache.py', 'README.md']);
    expect(runCg(['index', '--full', '--json'], dir).code).toBe(0);
    expect(pastOf(dir)).toEqual(updated);
    // `cg status` says how many are kept, and that so few leave the ranking to the model fitted without them.
    expect(runCg(['status', '--json'], dir).json.pastCommits).toEqual({ kept: 5, rankerReadsThem: false });
    expect(runCg(['status'], dir).stdout).toMatch(/Past commits: 5 kept; fewer than 100: the ranker fitted without them ranks \(a shallow clone\?/);
  });

  it('keeps exactly the newest 1,000 across updates, in rows an update adds to without rewriting the others', () => {
    const dir = makeRepo(files, { commit: true });
    expect(runCg(['index', '--json'], dir).code).toBe(0);
    const db = openWriter(dir);
    try {
      const made = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ terms: [`c${from + i}`], paths: [`f${(from + i) % 7}.py`] }));
      const older = made(0, 950);
      storePastCommits(db, older);
      const rows = () => db.prepare('SELECT slot, commits FROM past_commits ORDER BY slot').raw().all() as [number, number][];
      expect(rows().length).toBe(10);
      const firstRow = db.prepare('SELECT data FROM past_commits WHERE slot = 9').pluck().get();
      addPastCommits(db, made(10_000, 30));
      expect(readPastCommits(db)).toEqual([...made(10_000, 30), ...older]);
      addPastCommits(db, made(20_000, 100));
      const kept = [...made(20_000, 100), ...made(10_000, 30), ...older].slice(0, PAST_COMMITS);
      expect(readPastCommits(db)).toEqual(kept);
      // The oldest row (commits 900-949) is wholly past the newest 1,000 and went; the others were not rewritten.
      expect(rows().map(([slot]) => slot)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      expect(db.prepare('SELECT data FROM past_commits WHERE slot = 9').pluck().get()).toEqual(firstRow);
      // What a full build storing the same list keeps reads the same.
      storePastCommits(db, [...made(20_000, 100), ...made(10_000, 30), ...older]);
      expect(readPastCommits(db)).toEqual(kept);
      expect(runCg(['status', '--json'], dir).json.pastCommits).toEqual({ kept: 1000, rankerReadsThem: true });
    } finally {
      db.close();
    }
  });

  it('never keeps a credential a message quotes', () => {
    const dir = makeRepo(files, { commit: true });
    const token = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
    commit(dir, 'src/session.py', '# t\n', `Rotate the deploy token\n\nold token: ${token}\nsessions keep working`);
    expect(runCg(['index', '--json'], dir).code).toBe(0);
    const kept = pastOf(dir)[0];
    expect(kept.terms).toEqual(expect.arrayContaining(tokenize('Rotate deploy sessions working')));
    const stored = kept.terms.join(' ');
    for (const part of tokenize(token)) expect(stored.split(' ')).not.toContain(part);
    const db = fs.readFileSync(path.join(dir, '.codegraph', 'builds', fs.readFileSync(path.join(dir, '.codegraph', 'CURRENT'), 'utf8').trim(), 'index.db'));
    expect(db.includes(Buffer.from(token.slice(4, 20).toLowerCase()))).toBe(false);
  });

  it('keeps at most MESSAGE_TERMS terms of a message that pastes a whole log', () => {
    const huge = Array.from({ length: 3000 }, (_, i) => `step${i} done`).join('\n');
    const [c] = pastCommitsOf([{ sha: 'a'.repeat(40), message: `Regenerate the fixtures\n\n${huge}`, files: ['fixtures/all.txt'] }]);
    expect(c.terms.length).toBe(MESSAGE_TERMS);
    expect(c.terms.slice(0, 2)).toEqual(tokenize('Regenerate the fixtures'));
    expect(c.paths).toEqual(['fixtures/all.txt']);
  });

  it('votes for the files of the commits whose messages read like the task', () => {
    const h = historyOf([
      { terms: tokenize('Render the page title escaped'), paths: ['src/render.py'] },
      { terms: tokenize('Fix cache eviction when the expiry time is exactly now'), paths: ['src/cache.py', 'test/test_cache.py'] },
      { terms: tokenize('Sessions remember the user agent'), paths: ['src/session.py'] },
    ]);
    const e = historyEvidence(h, 'cache eviction drops entries too early');
    expect([...e.vote.keys()].sort()).toEqual(['src/cache.py', 'test/test_cache.py']);
    // The commit's similarity shared among the two files it changed; the best voter is that commit.
    expect(e.vote.get('src/cache.py')).toBeCloseTo(e.best / 2, 10);
    expect(e.first.get('src/cache.py')).toBe(e.best);
    expect(e.top10.get('src/cache.py')).toBe(1);
    expect(historyEvidence(h, 'quantum chromodynamics').best).toBe(0);
    expect(historyEvidence(historyOf([]), 'cache').vote.size).toBe(0);
  });

  it('the ranker reads the votes: the file a similar commit changed gets them, without git none', () => {
    const dir = makeRepo(files, { commit: true });
    commit(dir, 'src/cache.py', '# ttl\n', 'Fix cache eviction when the expiry time is exactly now');
    expect(runCg(['index', '--json'], dir).code).toBe(0);
    const db = openReader(dir);
    try {
      const e = historyEvidence(indexHistory(db), 'eviction of expired cache entries');
      expect(e.vote.get('src/cache.py')).toBeGreaterThan(0);
      expect(e.vote.has('src/session.py')).toBe(false);
    } finally {
      db.close();
    }
    expect(FEATURES.slice(-4)).toEqual(['hist_vote', 'hist_first', 'hist_top10', 'hist_vote_raw']);

    const plain = makeRepo(files);
    expect(runCg(['index', '--json'], plain).code).toBe(0);
    expect(pastOf(plain)).toEqual([]);
    expect(runCg(['query', 'cache eviction', '--json'], plain).json.files[0].path).toBe('src/cache.py');
  });
});
