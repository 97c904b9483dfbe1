import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';

// Golden expectations for fixtures/dart, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('dart');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('dart extraction', () => {
  it('finds classes, mixins, enums, functions, methods, constructors and constants', () => {
    expect(symbolLines(ix.db)).toEqual([
      'constant maxDiscount lib/src/product.dart:4',
      'class Storable lib/src/product.dart:7',
      'method Storable.key lib/src/product.dart:9', // abstract
      'enum Kind lib/src/product.dart:12',
      'constant Kind.book lib/src/product.dart:12',
      'constant Kind.pen lib/src/product.dart:12',
      'trait Logging lib/src/product.dart:14', // a mixin
      'method Logging.log lib/src/product.dart:15',
      'class Product lib/src/product.dart:19',
      'method Product.Product lib/src/product.dart:23',
      'method Product.sample lib/src/product.dart:25', // factory Product.sample()
      'method Product.key lib/src/product.dart:28',
      'method Product.discounted lib/src/product.dart:31',
      'method Product._apply lib/src/product.dart:36',
      'method Product.free lib/src/product.dart:38',
      'class Base lib/src/product.dart:41',
      'method Base.touch lib/src/product.dart:42',
      'function clamp lib/src/product.dart:45',
      'class Repository lib/src/service.dart:4',
      'method Repository.store lib/src/service.dart:5',
      'class Service lib/src/service.dart:10',
      'method Service.Service lib/src/service.dart:13',
      'method Service.sell lib/src/service.dart:15',
      'method Service.report lib/src/service.dart:23',
      'function logLine lib/src/util.dart:2',
      'function sample test/product_test.dart:4',
      'function main test/product_test.dart:6',
    ]);
  });

  it('spans a method from its signature to the end of its body, and keeps docs, signatures and modifiers', () => {
    expect(sym('Product.discounted').startLine).toBe(31);
    expect(sym('Product.discounted').endLine).toBe(34); // the body is a sibling of the signature
    expect(sym('Product.discounted').doc).toBe('Computes a discounted price.');
    expect(sym('maxDiscount').doc).toBe('Largest discount, in percent.');
    expect(findSymbolsByRef(ix.db, 'shop')[0].doc).toBe('A tiny shop: products, a repository and a service.');
    expect(sym('Product').signature).toBe('class Product extends Base with Logging implements Storable');
    expect(sym('Service.sell').signature).toBe('Future<Product> sell(String name)');
    expect(sym('Service.sell').params).toEqual(['String name']);
    expect(sym('Service.sell').isAsync).toBe(true);
    expect(sym('Product.free').isStatic).toBe(true);
    expect(sym('Product._apply').visibility).toBe('private');
    expect(sym('Product.key').annotations).toEqual(['override']);
  });

  it('resolves package: URIs through pubspec.yaml, relative URIs beside the file, prefixes and re-exports', () => {
    const service = fileByPath(ix.db, 'lib/src/service.dart')!;
    expect(importsOfFile(ix.db, service.id).map((i) => [i.module, i.alias, i.wildcard])).toEqual([
      ['package:shop/src/product.dart', null, true],
      ['util.dart', 'util', false],
    ]);
    expect(edgeLines(ix.db, 'imports', { files: true })).toEqual([
      'lib/shop.dart:shop -> lib/src/product.dart:src/product', // export
      'lib/shop.dart:shop -> lib/src/service.dart:src/service',
      'lib/src/product.dart:src/product -> external:dart:math',
      'lib/src/service.dart:src/service -> lib/src/product.dart:src/product',
      'lib/src/service.dart:src/service -> lib/src/util.dart:src/util',
      'test/product_test.dart:test/product_test -> external:package:test/test.dart',
      'test/product_test.dart:test/product_test -> lib/shop.dart:shop',
    ]);
  });

  it('resolves calls through this, fields, parameters, prefixes, mixins and re-exports', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'Product.discounted -> Logging.log 0.8', // from the mixin
      'Product.discounted -> Product._apply 0.95',
      'Product.free -> Product 0.95',
      'Product.sample -> Product 0.95',
      'Repository.store -> Storable.key 0.9',
      'Repository.store -> logLine 0.9', // util.logLine through the prefix
      'Service.report -> Product.discounted 0.9',
      'Service.report -> logLine 0.9',
      'Service.sell -> Product 0.9',
      'Service.sell -> Product.free 0.9',
      'Service.sell -> Repository.store 0.9', // the field _repo
      'Service.sell -> Service.report 0.9', // this.report
      'Service.sell -> Service.report 0.95',
      'main -> Product.discounted 0.5', // `p = sample()`: no type written
      'main -> clamp 0.9', // through lib/shop.dart's export
      'main -> sample 0.95',
      'sample -> Product.sample 0.9',
    ]); // math.min, print and expect are not the repository's
    expect(edgeLines(ix.db, 'extends')).toEqual(['Product -> Base', 'Product -> Logging']);
    expect(edgeLines(ix.db, 'implements')).toEqual(['Product -> Storable']);
  });

  it("marks a test file's main, which registers its tests", () => {
    expect(sym('main').isTest).toBe(true);
    expect(sym('sample').isTest).toBe(false);
    expect(fileByPath(ix.db, 'test/product_test.dart')!.isTest).toBe(true);
    expect(edgeLines(ix.db, 'tests')).toContain('main -> clamp');
  });
});
