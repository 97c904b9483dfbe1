import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';

// Golden expectations for fixtures/bash, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('bash');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('bash extraction', () => {
  it('finds functions in both spellings and UPPER_CASE constants', () => {
    expect(symbolLines(ix.db)).toEqual([
      'function sell bin/shop.sh:6',
      'function report bin/shop.sh:13',
      'function main bin/shop.sh:17',
      'constant MAX_DISCOUNT lib/util.sh:4',
      'function log_line lib/util.sh:7',
      'function die lib/util.sh:11', // `function die { … }`
      'function test_log_line test/test_util.sh:4',
      'function helper test/test_util.sh:9',
    ]);
  });

  it('keeps comments as docs (not the #! line) and signatures', () => {
    expect(sym('log_line').doc).toBe('Writes one line to standard error.');
    expect(sym('sell').doc).toBe('Sells one product.');
    expect(sym('lib/util').doc).toBe('Logging helpers for the shop scripts.');
    expect(sym('die').signature).toBe('function die');
    expect(sym('MAX_DISCOUNT').signature).toBe('readonly MAX_DISCOUNT=50');
  });

  it('resolves sourced files, also through $(dirname "$0")', () => {
    const shop = fileByPath(ix.db, 'bin/shop.sh')!;
    expect(importsOfFile(ix.db, shop.id).map((i) => [i.module, i.wildcard])).toEqual([['./../lib/util.sh', true]]);
    expect(edgeLines(ix.db, 'imports')).toEqual(['bin/shop -> lib/util', 'test/test_util -> lib/util']);
  });

  it("resolves commands to the script's functions and the sourced ones; programs are external", () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'bin/shop -> main 0.95', // the script's top level
      'die -> log_line 0.95',
      'helper -> log_line 0.9',
      'main -> sell 0.95',
      'sell -> die 0.9', // from the sourced lib/util.sh
      'sell -> log_line 0.9',
      'sell -> report 0.95', // in a pipeline
      'test_log_line -> log_line 0.9', // inside $( … )
    ]); // set, printf, exit, echo, tee, dirname and assertEquals are not the repository's
  });

  it('marks shunit2 test functions in test files', () => {
    expect(sym('test_log_line').isTest).toBe(true);
    expect(sym('helper').isTest).toBe(false);
    expect(fileByPath(ix.db, 'test/test_util.sh')!.isTest).toBe(true);
    expect(edgeLines(ix.db, 'tests')).toContain('test_log_line -> log_line');
  });
});
