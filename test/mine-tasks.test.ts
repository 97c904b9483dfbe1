import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
// @ts-expect-error: an evaluation script in plain JavaScript, without type declarations
import { cleanDescription, isChore, mineRepo } from '../eval/mine-tasks.mjs';

// The held-out miner (eval/mine-tasks.mjs) on a repository made here: of a fix, a chore, a docs-only
// change, a bot's commit, a merge and a branch commit with a short message, only the fix qualifies,
// and its description is cleaned as the dev set's README §3.2 says.

function commitAll(dir: string, date: string, message: string, author = 'Dev <dev@example.com>'): void {
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  execFileSync('git', ['-C', dir, 'add', '-A'], { env });
  execFileSync('git', ['-C', dir, 'commit', '-q', '--author', author, '-m', message], { env });
}

function write(dir: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
}

const CORE = (ret: string) => `class Reader:\n    def parse(self, text):\n        fields = text.split(",")\n        return ${ret}\n\n\ndef helper():\n    return 1\n`;

describe('held-out task miner', () => {
  it('keeps only the qualifying commit, with a cleaned description and the 15 fields', () => {
    const dir = path.join(tempDir('cg-mine-'), 'repo');
    fs.mkdirSync(dir);
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    execFileSync('git', ['-C', dir, 'config', 'user.name', 'Dev']);
    execFileSync('git', ['-C', dir, 'config', 'user.email', 'dev@example.com']);
    write(dir, 'src/pkg/core.py', CORE('fields[:-1]'));
    write(dir, 'tests/test_core.py', 'from pkg.core import Reader\n\ndef test_parse():\n    assert Reader().parse("a,b")\n');
    commitAll(dir, '2024-01-01T10:00:00Z', 'Import the reader package with its parser and the first tests');

    write(dir, 'src/pkg/core.py', CORE('fields'));
    write(dir, 'tests/test_core.py', 'from pkg.core import Reader\n\ndef test_parse():\n    assert Reader().parse("a,b") == ["a", "b"]\n');
    commitAll(dir, '2024-02-01T10:00:00Z', [
      'Fix the reader dropping the last field of every parsed line (#12)', '',
      'The loop in core.py stopped one field short. See https://example.com/issue/12 for the report.', '',
      'Fixes #12', 'Signed-off-by: Dev <dev@example.com>'].join('\n'));

    write(dir, 'src/pkg/core.py', `${CORE('fields')}\n# tidy\n`);
    commitAll(dir, '2024-03-01T10:00:00Z', 'chore: bump the dependencies and tidy the project configuration files');

    write(dir, 'docs/index.md', '# Reader\n');
    commitAll(dir, '2024-04-01T10:00:00Z', 'Describe how the reader splits fields and what it returns for empty input');

    write(dir, 'src/pkg/core.py', `${CORE('fields')}\n# bot\n`);
    commitAll(dir, '2024-05-01T10:00:00Z', 'Update the lock file and pinned versions of every dependency we use', 'dependabot[bot] <bot@example.com>');

    execFileSync('git', ['-C', dir, 'checkout', '-q', '-b', 'feature']);
    write(dir, 'src/pkg/core.py', `${CORE('fields')}\n# feature\n`);
    commitAll(dir, '2024-06-01T10:00:00Z', 'wip');
    execFileSync('git', ['-C', dir, 'checkout', '-q', 'main']);
    const env = { ...process.env, GIT_AUTHOR_DATE: '2024-06-02T10:00:00Z', GIT_COMMITTER_DATE: '2024-06-02T10:00:00Z' };
    execFileSync('git', ['-C', dir, 'merge', '-q', '--no-ff', '-m', 'Combine the trailing separator option with the parser changes here', 'feature'], { env });

    const cfg = { language: 'python', roots: ['src/', 'tests/'], exts: ['.py'], since: '2023-01-01' };
    const mined = mineRepo('example/reader', dir, cfg, 10);
    expect(mined.tasks).toHaveLength(1);
    const task = mined.tasks[0];
    expect(Object.keys(task)).toHaveLength(15);
    const fix = execFileSync('git', ['-C', dir, 'log', '--format=%H', '--grep', 'dropping the last field'], { encoding: 'utf8' }).trim();
    expect(task).toMatchObject({
      task_id: `example__reader@${fix.slice(0, 10)}`,
      repo: 'example/reader',
      language: 'python',
      commit_after: fix,
      files_edited: ['src/pkg/core.py', 'tests/test_core.py'],
      source_files_edited: ['src/pkg/core.py'],
      files_added: [],
      functions_edited: ['Reader.parse'],
      subject: 'Fix the reader dropping the last field of every parsed line',
      source_lines_changed: 2,
      description_mentions_edited_symbol: false,
    });
    expect(task.commit_before).toBe(execFileSync('git', ['-C', dir, 'rev-parse', `${fix}^`], { encoding: 'utf8' }).trim());
    expect(task.description).toBe('Fix the reader dropping the last field of every parsed line\n\n'
      + 'The loop in [file] stopped one field short. See [url] for the report.');
    // The same repository mined again gives the same tasks.
    expect(mineRepo('example/reader', dir, cfg, 10)).toEqual(mined);
  });

  it('tells chores from changes and cleans paths, references and trailers', () => {
    expect(isChore('chore(deps): bump x')).toBe(true);
    expect(isChore('Fix typo in the README')).toBe(true);
    expect(isChore('Release 2.1.0')).toBe(true);
    expect(isChore('Fix the parser dropping fields')).toBe(false);
    const words = new Set(['src/a/b.ts', 'a/b.ts', 'b.ts', 'src', 'src/a', 'a']);
    expect(cleanDescription('Handle ./b and src/a/ in b.ts (org/repo#3)\r\n\r\nCo-authored-by: X <x@y>\r\nCloses #4', words))
      .toBe('Handle [file] and [file] in [file]');
  });
});
