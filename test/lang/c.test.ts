import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath } from '../../src/store/queries.js';

// Golden expectations for fixtures/c, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('c');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('c extraction', () => {
  it('finds function definitions (not prototypes), types, typedefs, macros and enumerators', () => {
    expect(symbolLines(ix.db)).toEqual([
      'constant MAX_DISCOUNT include/shop/product.h:5', // the include guard's bare #define is no constant
      'enum kind include/shop/product.h:8',
      'constant kind.KIND_BOOK include/shop/product.h:9',
      'constant kind.KIND_PEN include/shop/product.h:10',
      'struct product include/shop/product.h:14',
      'type product_t include/shop/product.h:20',
      'function clamp src/product.c:5',
      'function product_discounted src/product.c:13',
      'function product_new src/product.c:19', // returns a pointer: the name sits under a pointer declarator
      'function log_line src/util.c:5',
      'type handler_fn src/util.c:10', // a function-pointer typedef
      'function dispatch src/util.c:12',
      'function broken src/util.c:17',
      'function after src/util.c:21',
      'function SQUARE src/util.h:3', // a function-like macro
      'function test_discounted tests/test_product.c:4',
      'function main tests/test_product.c:10',
    ]);
  });

  it('keeps doc comments, signatures and static (file-local) visibility', () => {
    expect(sym('product_discounted').doc).toBe('Computes a discounted price.');
    expect(sym('product').doc).toBe('A thing for sale.');
    expect(sym('MAX_DISCOUNT').doc).toBe('Largest discount, in percent.');
    expect(sym('SQUARE').doc).toBeNull(); // the file's comment is followed by a blank line
    expect(sym('product_new').signature).toBe('product_t *product_new(const char *name, double price)');
    expect(sym('product_new').params).toEqual(['const char *name', 'double price']);
    expect(sym('SQUARE').signature).toBe('#define SQUARE(x) ((x) * (x))');
    expect(sym('handler_fn').signature).toBe('typedef int (*handler_fn)(int code)');
    expect(sym('clamp').visibility).toBe('private');
    expect(sym('clamp').exported).toBe(false);
    expect(sym('product_new').visibility).toBe('public');
    expect(sym('product_new').exported).toBe(true);
  });

  it('resolves quoted includes beside the file and angle includes by path suffix; system headers are external', () => {
    expect(edgeLines(ix.db, 'imports', { files: true })).toEqual([
      'src/product.c:src/product.c -> external:<stdlib.h>',
      'src/product.c:src/product.c -> include/shop/product.h:include/shop/product.h', // <shop/product.h>
      'src/product.c:src/product.c -> src/util.h:src/util.h',
      'src/util.c:src/util.c -> external:<stdio.h>',
      'src/util.c:src/util.c -> src/util.h:src/util.h',
      'tests/test_product.c:tests/test_product.c -> external:<assert.h>',
      'tests/test_product.c:tests/test_product.c -> include/shop/product.h:include/shop/product.h', // "../include/…"
    ]);
  });

  it('resolves calls in the file first, then across the program; the C library stays external', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'after -> dispatch 0.95',
      'dispatch -> SQUARE 0.85', // a macro from the included header
      'main -> test_discounted 0.95',
      'product_discounted -> clamp 0.95',
      'product_discounted -> log_line 0.85', // declared in util.h, defined in util.c
      'test_discounted -> product_discounted 0.85',
      'test_discounted -> product_new 0.85',
    ]); // malloc, fprintf and assert are the C library's; `fn(code)` calls through a pointer
  });

  it('marks test files and their test_ functions, and links them to the code they call', () => {
    expect(fileByPath(ix.db, 'tests/test_product.c')!.isTest).toBe(true);
    expect(sym('test_discounted').isTest).toBe(true);
    expect(sym('main').isTest).toBe(false);
    expect(edgeLines(ix.db, 'tests')).toEqual([
      'test_discounted -> product_discounted',
      'test_discounted -> product_new',
      'tests/test_product.c -> include/shop/product.h',
    ]);
  });

  it('indexes a file with a syntax error partially', () => {
    expect(fileByPath(ix.db, 'src/util.c')!.partial).toBe(true);
    expect(sym('after').inError).toBe(false);
  });
});
