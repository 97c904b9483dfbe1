import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath } from '../../src/store/queries.js';

// Golden expectations for fixtures/cpp, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('cpp');
});
afterAll(() => ix?.db.close());

const sym = (ref: string, file?: string) => {
  const found = findSymbolsByRef(ix.db, ref).filter((s) => !file || s.file === file);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('c++ extraction', () => {
  it('finds classes, members declared in the body, members defined outside it, and free functions', () => {
    expect(symbolLines(ix.db)).toEqual([
      'constant kMaxDiscount include/shop/product.hpp:8', // namespace-level constexpr
      'enum Kind include/shop/product.hpp:10',
      'constant Kind.Book include/shop/product.hpp:10',
      'constant Kind.Pen include/shop/product.hpp:10',
      'class Item include/shop/product.hpp:13',
      'method Item.key include/shop/product.hpp:17', // pure virtual
      'class Product include/shop/product.hpp:21',
      'method Product.Product include/shop/product.hpp:23', // constructor declaration
      'method Product.key include/shop/product.hpp:24',
      'method Product.discounted include/shop/product.hpp:25',
      'method Product.price include/shop/product.hpp:26', // defined inline
      'method Product.apply include/shop/product.hpp:29',
      'type Catalog include/shop/product.hpp:34',
      'function clamp include/shop/product.hpp:37', // a template
      'function log_line src/log.cpp:5',
      'method Product.Product src/product.cpp:6', // `Product::Product(…)` inside `namespace shop`
      'method Product.key src/product.cpp:8',
      'method Product.discounted src/product.cpp:11',
      'method Product.apply src/product.cpp:16',
      'struct Repository src/service.cpp:7',
      'method Repository.store src/service.cpp:8',
      'class Service src/service.cpp:11',
      'method Service.Service src/service.cpp:13',
      'method Service.sell src/service.cpp:15',
      'method Service.create src/service.cpp:22',
      'method Service.report src/service.cpp:29',
      'function sample tests/product_test.cpp:6',
      'function Discounted tests/product_test.cpp:8', // TEST(ProductTest, Discounted)
    ]);
  });

  it('keeps docs, signatures, access labels and static', () => {
    expect(sym('Product').doc).toBe('A thing for sale.');
    expect(sym('Item.key').doc).toBe('The storage key.');
    expect(sym('kMaxDiscount').doc).toBe('Largest discount, in percent.');
    expect(sym('Product.discounted', 'src/product.cpp').doc).toBe('Applies a clamped discount.');
    expect(sym('Product').signature).toBe('class Product : public Item');
    expect(sym('Product.discounted', 'src/product.cpp').signature).toBe('double Product::discounted(double pct) const');
    expect(sym('Product.key', 'include/shop/product.hpp').signature).toBe('std::string key() const override');
    expect(sym('clamp').signature).toBe('T clamp(T value, T low, T high)');
    expect(sym('Product.apply', 'include/shop/product.hpp').visibility).toBe('private'); // after `private:`
    expect(sym('Product.price').visibility).toBe('public');
    expect(sym('Service.report').visibility).toBe('private');
    expect(sym('Repository.store').visibility).toBe('public'); // a struct starts public
    expect(sym('Service.create').isStatic).toBe(true);
    expect(sym('Product.apply', 'include/shop/product.hpp').parentId).toBe(sym('Product').id);
  });

  it('resolves includes like C', () => {
    expect(edgeLines(ix.db, 'imports', { files: true }).filter((l) => !l.includes('external'))).toEqual([
      'src/log.cpp:src/log.cpp -> src/log.hpp:src/log.hpp',
      'src/product.cpp:src/product.cpp -> include/shop/product.hpp:include/shop/product.hpp',
      'src/product.cpp:src/product.cpp -> src/log.hpp:src/log.hpp',
      'src/service.cpp:src/service.cpp -> include/shop/product.hpp:include/shop/product.hpp',
      'src/service.cpp:src/service.cpp -> src/log.hpp:src/log.hpp',
      'tests/product_test.cpp:tests/product_test.cpp -> include/shop/product.hpp:include/shop/product.hpp',
    ]);
  });

  it('resolves calls through this, fields, declared and constructed types, base classes and namespaces', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'Discounted -> Product.discounted 0.9', // `shop::Product p = sample()`: both the declaration and the definition
      'Discounted -> sample 0.95',
      'Product.apply -> Product.price 0.9', // implicit this
      'Product.discounted -> Product.apply 0.9',
      'Product.discounted -> clamp 0.85',
      'Product.discounted -> log_line 0.85',
      'Repository.store -> Item.key 0.9', // `const Item &item`
      'Repository.store -> log_line 0.85',
      'Service.create -> Product 0.85', // `Product("sample", 1)` constructs
      'Service.create -> Repository.store 0.9', // `Repository repo;`
      'Service.report -> Product.key 0.9',
      'Service.report -> Service.sell 0.9', // this->sell
      'Service.report -> log_line 0.85',
      'Service.sell -> Product 0.85', // new Product(…)
      'Service.sell -> Repository.store 0.9', // the field `Repository *repo_`
      'Service.sell -> Service.report 0.95',
      'sample -> Product 0.85', // `shop::Product(…)`: the namespace is no receiver
    ]); // std::move, std::fprintf, std::make_unique and EXPECT_EQ are not the repository's
    expect(edgeLines(ix.db, 'extends')).toEqual(['Product -> Item']);
  });

  it('names GoogleTest tests after their test and links them to the code they call', () => {
    expect(sym('Discounted').isTest).toBe(true);
    expect(sym('sample').isTest).toBe(false);
    expect(fileByPath(ix.db, 'tests/product_test.cpp')!.isTest).toBe(true);
    expect(edgeLines(ix.db, 'tests')).toEqual([
      'Discounted -> Product.discounted',
      'tests/product_test.cpp -> Product',
      'tests/product_test.cpp -> include/shop/product.hpp',
    ]);
  });
});
