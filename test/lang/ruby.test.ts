import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath } from '../../src/store/queries.js';

// Golden expectations for fixtures/ruby, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('ruby');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('ruby extraction', () => {
  it('finds classes, methods, class methods, constants and modules with methods; namespace modules are left out of names', () => {
    expect(symbolLines(ix.db)).toEqual([
      'constant VERSION lib/shop.rb:7',
      'class Base lib/shop/base.rb:3',
      'method Base.save lib/shop/base.rb:4',
      'function Util.log lib/shop/base.rb:11', // `module Util` defines methods: a module symbol
      'class Product lib/shop/product.rb:5', // inside `module Shop`, a namespace
      'constant Product.MAX_DISCOUNT lib/shop/product.rb:8',
      'method Product.initialize lib/shop/product.rb:12',
      'method Product.discounted lib/shop/product.rb:19',
      'method Product.sample lib/shop/product.rb:23',
      'method Product.apply lib/shop/product.rb:29',
      'class Repository lib/shop/service.rb:2',
      'method Repository.store lib/shop/service.rb:3',
      'class Service lib/shop/service.rb:8',
      'method Service.initialize lib/shop/service.rb:9',
      'method Service.sell lib/shop/service.rb:13',
      'method Service.report lib/shop/service.rb:21',
      'method Service.broken lib/shop/service.rb:25',
      'class TestProduct test/test_product.rb:4',
      'method TestProduct.test_discounted test/test_product.rb:5',
      'method TestProduct.helper test/test_product.rb:10',
    ]);
    expect(findSymbolsByRef(ix.db, 'Util').map((s) => s.kind)).toEqual(['module']);
  });

  it('keeps comment docs (also the first comment of a body), signatures, private sections and class methods', () => {
    expect(sym('Product').doc).toBe('A thing for sale.');
    expect(sym('Base').doc).toBe('Something that can be stored.'); // written first in `module Shop`
    expect(sym('Util.log').doc).toBe('Writes one line.');
    expect(sym('Product.discounted').doc).toBe('Computes a discounted price.');
    expect(findSymbolsByRef(ix.db, 'shop')[0].doc).toBe('A tiny shop: products, a repository and a service.');
    expect(sym('Product.discounted').signature).toBe('def discounted(pct)');
    expect(sym('Service.initialize').params).toEqual(['repo = Repository.new']);
    expect(sym('Product').signature).toBe('class Product < Base');
    expect(sym('Product.apply').visibility).toBe('private'); // after `private`
    expect(sym('Product.discounted').visibility).toBe('public');
    expect(sym('Product.sample').isStatic).toBe(true);
    expect(sym('Product.discounted').isStatic).toBe(false);
  });

  it('resolves require by load-path suffix and require_relative beside the file; gems are external', () => {
    expect(edgeLines(ix.db, 'imports', { files: true })).toEqual([
      'lib/shop.rb:shop -> external:json',
      'lib/shop.rb:shop -> lib/shop/product.rb:shop/product', // require_relative "shop/product"
      'lib/shop.rb:shop -> lib/shop/service.rb:shop/service', // require "shop/service"
      'lib/shop/product.rb:shop/product -> lib/shop/base.rb:shop/base',
      'spec/service_spec.rb:spec/service_spec -> lib/shop/service.rb:shop/service',
      'test/test_product.rb:test/test_product -> external:minitest/autorun',
      'test/test_product.rb:test/test_product -> lib/shop/product.rb:shop/product',
    ]);
  });

  it('resolves calls: implicit and explicit self, Class.new, instance variables, modules, namespaces', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'Base.save -> Util.log 0.9',
      'Product.discounted -> Product.apply 0.95', // implicit self
      'Repository.store -> Base.save 0.5', // `item` has no known class: a name match
      'Service.broken -> Util.log 0.9',
      'Service.initialize -> Repository 0.95', // Repository.new in a default value
      'Service.report -> Product.discounted 0.5',
      'Service.report -> Util.log 0.9',
      'Service.sell -> Product 0.85', // Product.new(…), defined in another file
      'Service.sell -> Repository.store 0.5',
      'Service.sell -> Service.report 0.9', // self.report
      'Service.sell -> Service.report 0.95', // report(…)
      'Service.sell -> Util.log 0.9', // Shop::Util.log
      'TestProduct.helper -> Product.sample 0.9', // Shop::Product.sample
      'TestProduct.test_discounted -> Product 0.85',
      'TestProduct.test_discounted -> Product.discounted 0.9', // product = Shop::Product.new(…)
      'spec/service_spec -> Service 0.85', // an RSpec block: the spec file calls
      'spec/service_spec -> Service.sell 0.9',
    ]); // puts, assert_equal, expect, `[…].min` are Ruby's
    expect(edgeLines(ix.db, 'extends')).toEqual(['Product -> Base']);
  });

  it('marks minitest classes and test_ methods, and spec files', () => {
    expect(sym('TestProduct').isTest).toBe(true);
    expect(sym('TestProduct.test_discounted').isTest).toBe(true);
    expect(sym('TestProduct.helper').isTest).toBe(false);
    expect(fileByPath(ix.db, 'spec/service_spec.rb')!.isTest).toBe(true);
    expect(edgeLines(ix.db, 'tests')).toContain('spec/service_spec -> Service.sell');
  });

  it('indexes a file with a syntax error partially', () => {
    expect(fileByPath(ix.db, 'lib/shop/service.rb')!.partial).toBe(true);
    expect(sym('Service.report').inError).toBe(false);
  });
});
