import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { buildIndex } from '../src/indexer/build.js';
import { openReader } from '../src/store/db.js';
import { findSymbolsByRef, fileByPath } from '../src/store/queries.js';
import { edgeLines, makeRepo, symbolLines } from './helpers.js';

// Error recovery (spec 004, US2-AS1): what follows a syntax error is extracted even where tree-sitter
// swallowed it into the error node. Each case below lost its last definition before recovery.
let db: Database.Database;
beforeAll(async () => {
  const root = makeRepo({
    // The broken parameter list takes the rest of the class body into one ERROR node.
    'bank/account.py': [
      'def fee(amount):', '    return amount // 100', '', '',
      'class Account:', '    def broken(self, x:', '        pass', '',
      '    def deposit(self, amount):', '        return amount - fee(amount)', '',
    ].join('\n'),
    // An unterminated text block takes the rest of the class.
    'src/Ledger.java': [
      'class Ledger {', '  void broken() {', '    String s = """', '      unterminated;', '  }',
      '  int total(int amount) { return check(amount); }', '  int check(int amount) { return amount; }', '}', '',
    ].join('\n'),
    'ok.py': 'def fine():\n    return 1\n',
  });
  await buildIndex(root);
  db = openReader(root);
});
afterAll(() => db?.close());

describe('error recovery', () => {
  it('extracts the well-formed definitions after a broken one, under their class', () => {
    expect(symbolLines(db, 'bank/%')).toEqual([
      'function fee bank/account.py:1',
      'class Account bank/account.py:5',
      'method Account.deposit bank/account.py:9',
    ]);
    expect(symbolLines(db, 'src/%')).toContain('method check src/Ledger.java:7');
    expect(symbolLines(db, 'src/%')).toContain('method total src/Ledger.java:6');
  });

  it('keeps the file partial, but what was recovered is outside the error region', () => {
    expect(fileByPath(db, 'bank/account.py')!.partial).toBe(true);
    expect(fileByPath(db, 'ok.py')!.partial).toBe(false);
    const deposit = findSymbolsByRef(db, 'Account.deposit')[0];
    expect(deposit.inError).toBe(false);
    // The header of a class broken after its name stops where the error starts.
    expect(findSymbolsByRef(db, 'Account')[0].signature).toBe('class Account');
  });

  it('resolves the calls in recovered code at full confidence', () => {
    expect(edgeLines(db, 'calls', { confidence: true })).toContain('Account.deposit -> fee 0.95');
    expect(edgeLines(db, 'calls')).toContain('total -> check');
  });
});
