import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';

// Golden expectations for fixtures/haskell, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('haskell');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('haskell extraction', () => {
  it('finds functions, values, data types, newtypes, synonyms, classes and instance methods', () => {
    expect(symbolLines(ix.db)).toEqual([
      'function maxDiscount src/Shop/Product.hs:14',
      'type Product src/Shop/Product.hs:17',
      'type Sku src/Shop/Product.hs:23',
      'type Catalog src/Shop/Product.hs:25',
      'interface Storable src/Shop/Product.hs:28', // a type class
      'method Storable.key src/Shop/Product.hs:30',
      'method Product.key src/Shop/Product.hs:33', // in `instance Storable Product`
      'function discounted src/Shop/Product.hs:37',
      'function applyDiscount src/Shop/Product.hs:40',
      'function sample src/Shop/Product.hs:43',
      'function cheapest src/Shop/Product.hs:46',
      'function sell src/Shop/Service.hs:7',
      'function report src/Shop/Service.hs:14',
      'function logLine src/Shop/Util.hs:7',
      'function traced src/Shop/Util.hs:10',
      'function spec test/ProductSpec.hs:7',
      'function prop_discountBelowPrice test/ProductSpec.hs:12',
    ]);
  });

  it('keeps Haddock above type signatures, and the export list as visibility', () => {
    expect(sym('discounted').doc).toBe('Computes a discounted price.');
    expect(sym('maxDiscount').doc).toBe('Largest discount, in percent.'); // parsed inside the imports
    expect(sym('Product').doc).toBe('A thing for sale.');
    expect(sym('Storable').doc).toBe('Things that can be stored.');
    expect(sym('Shop.Product').doc).toBe('Products for sale.');
    expect(sym('discounted').params).toEqual(['pct', 'p']);
    expect(sym('Storable.key').signature).toBe('key :: a -> String');
    expect(sym('discounted').visibility).toBe('public'); // in the export list
    expect(sym('applyDiscount').visibility).toBe('private'); // not in it
    expect(sym('sell').visibility).toBe('public'); // Shop.Service has no export list
  });

  it('resolves imports by module path: everything, a list, or a qualified prefix', () => {
    const product = fileByPath(ix.db, 'src/Shop/Product.hs')!;
    expect(importsOfFile(ix.db, product.id).map((i) => [i.module, i.alias, i.wildcard, i.names])).toEqual([
      ['Data.List', null, false, [{ name: 'sortOn' }]],
      ['Shop.Util', 'U', false, []], // import qualified … as U
    ]);
    expect(edgeLines(ix.db, 'imports')).toEqual([
      'ProductSpec -> Shop.Product',
      'ProductSpec -> external:Test.Hspec',
      'Shop.Product -> Shop.Util',
      'Shop.Product -> external:Data.List',
      'Shop.Service -> Shop.Product',
      'Shop.Service -> logLine',
      'Shop.Util -> external:Debug.Trace',
    ]);
  });

  it('resolves applications: local, imported, qualified, constructors', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'cheapest -> traced 0.9', // U.traced
      'discounted -> applyDiscount 0.95',
      'prop_discountBelowPrice -> discounted 0.9',
      'report -> discounted 0.9',
      'report -> logLine 0.9',
      'sample -> Product 0.95', // the record's constructor
      'sell -> Product 0.9',
      'sell -> discounted 0.9',
      'sell -> logLine 0.9',
      'sell -> report 0.95',
      'spec -> discounted 0.9',
    ]); // `key p` calls a class method, which no top-level name holds: unresolved
    expect(edgeLines(ix.db, 'implements')).toEqual(['Product -> Storable']);
  });

  it('marks hspec specs and QuickCheck properties', () => {
    expect(sym('spec').isTest).toBe(true);
    expect(sym('prop_discountBelowPrice').isTest).toBe(true);
    expect(fileByPath(ix.db, 'test/ProductSpec.hs')!.isTest).toBe(true);
    expect(edgeLines(ix.db, 'tests')).toContain('spec -> discounted');
  });
});
