import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';
import { typesAdmitted } from './wildcard-places.js';

// Golden expectations for fixtures/python, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('python');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('python extraction', () => {
  it('finds every definition with its kind, qualified name and line', () => {
    expect(symbolLines(ix.db)).toEqual([
      'class SaleProduct shop/admin.py:5',
      'method SaleProduct.apply shop/admin.py:8',
      'method SaleProduct.save shop/admin.py:11',
      'class Sale shop/admin.py:15',
      'endpoint GET, DELETE /sales/<int:sale_id> shop/admin.py:21',
      'function show_sale shop/admin.py:22',
      'function on_sold shop/admin.py:27',
      'function sell shop/admin.py:31',
      'function restock shop/admin.py:36',
      'function before shop/broken.py:1',
      'function broken shop/broken.py:5',
      'class Half shop/broken.py:10',
      'method Half.method shop/broken.py:11',
      'function after shop/broken.py:15',
      'constant MAX_DISCOUNT shop/models.py:3',
      'class Base shop/models.py:6',
      'method Base.save shop/models.py:9',
      'class Product shop/models.py:14',
      'method Product.__init__ shop/models.py:20',
      'method Product.discounted shop/models.py:24',
      'method Product.apply shop/models.py:29',
      'method Product.free shop/models.py:34',
      'class Repository shop/service.py:6',
      'method Repository.store shop/service.py:7',
      'class Service shop/service.py:12',
      'method Service.__init__ shop/service.py:15',
      'method Service.run shop/service.py:18',
      'method Service.build shop/service.py:24',
      'method Service.fetch shop/service.py:27',
      'function create_product shop/service.py:31',
      'function log shop/util.py:6',
      'function _private_helper shop/util.py:13',
      'function test_create_product tests/test_service.py:4',
      'class TestService tests/test_service.py:9',
      'method TestService.test_discount tests/test_service.py:10',
    ]);
  });

  it('keeps the first sentence of docstrings, not comments inside bodies', () => {
    expect(sym('Product').doc).toBe('A thing for sale.');
    expect(sym('Base.save').doc).toBe('Persist the object.');
    expect(sym('log').doc).toBe('Log a message.');
    expect(sym('Product.discounted').doc).toBeNull();
    expect(findSymbolsByRef(ix.db, 'shop')[0].doc).toBe('A tiny shop: products, a repository and a service.');
  });

  it('records signatures, parameters, visibility, async, static and mutates', () => {
    const init = sym('Product.__init__');
    expect(init.signature).toBe('def __init__(self, name: str, price: float = 0.0)');
    expect(init.params).toEqual(['self', 'name: str', 'price: float = 0.0']);
    expect(init.mutates).toEqual(['self.name', 'self.price']);
    expect(sym('log').mutates).toEqual(['counter']); // a global, declared with `global`
    expect(sym('Product.discounted').mutates).toEqual([]); // `pct = ...` is a local
    expect(sym('Service.fetch').isAsync).toBe(true);
    expect(sym('Service.build').isStatic).toBe(true);
    expect(sym('Product.free').isStatic).toBe(false); // @classmethod is not static
    expect(sym('_private_helper').visibility).toBe('private');
    expect(sym('Product.__init__').visibility).toBe('public');
    expect(sym('MAX_DISCOUNT').signature).toBe('MAX_DISCOUNT = 50');
  });

  it('marks tests', () => {
    expect(sym('test_create_product').isTest).toBe(true);
    expect(sym('TestService.test_discount').isTest).toBe(true);
    expect(sym('create_product').isTest).toBe(false);
  });

  it('resolves imports to files, through package re-exports, and keeps external ones by name', () => {
    expect(edgeLines(ix.db, 'imports', { files: true })).toEqual([
      'shop/__init__.py:shop -> shop/models.py:Product',
      'shop/admin.py:shop.admin -> shop/models.py:Product',
      'shop/service.py:shop.service -> shop/models.py:Base',
      'shop/service.py:shop.service -> shop/models.py:Product', // via `from shop import Product`
      'shop/service.py:shop.service -> shop/util.py:shop.util',
      'shop/util.py:shop.util -> external:logging',
      'tests/test_service.py:tests.test_service -> shop/service.py:create_product',
    ]);
    const service = fileByPath(ix.db, 'shop/service.py')!;
    expect(importsOfFile(ix.db, service.id).map((i) => [i.module, i.alias, i.names])).toEqual([
      ['shop.util', 'util', []],
      ['shop', null, [{ name: 'Product' }]],
      ['.models', null, [{ name: 'Base', alias: 'StoredBase' }]],
    ]);
  });

  it('resolves calls by scope: same file, imports, self, receiver types, module aliases', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'Half.method -> before 0.95',
      'Product.discounted -> Product.apply 0.9', // self.apply()
      'Repository.store -> Base.save 0.9', // item: StoredBase (an aliased import) -> Base.save
      'Repository.store -> log 0.9', // util.log() through `import shop.util as util`
      'SaleProduct.apply -> Product.apply 0.8', // super().apply(): the supertype's
      'Service.__init__ -> Repository 0.95',
      'Service.build -> Service 0.95',
      'Service.fetch -> Service.run 0.9',
      'Service.run -> Repository.store 0.9', // self.repo = Repository() in __init__
      'Service.run -> create_product 0.95', // same file, cross-scope
      'TestService.test_discount -> Product.discounted 0.5', // receiver type unknown: name match only
      'TestService.test_discount -> create_product 0.9', // cross-file, imported
      '_private_helper -> log 0.95',
      'after -> before 0.95',
      'broken -> before 0.475', // inside a syntax-error region: lower confidence
      'create_product -> Base.save 0.8', // p = Product(); p.save() is inherited from Base
      'create_product -> Product 0.9',
      'create_product -> log 0.9',
      'test_create_product -> create_product 0.9',
    ]);
  });

  it('links subclasses and tests to what they exercise', () => {
    expect(edgeLines(ix.db, 'extends')).toEqual(['Product -> Base', 'SaleProduct -> Product']);
    expect(edgeLines(ix.db, 'tests')).toEqual([
      'TestService.test_discount -> Product.discounted',
      'TestService.test_discount -> create_product',
      'test_create_product -> create_product',
      'tests.test_service -> shop.service',
    ]);
  });

  it('links overriding methods to the methods they override, the nearest supertype first', () => {
    expect(edgeLines(ix.db, 'overrides', { confidence: true })).toEqual([
      'SaleProduct.apply -> Product.apply 0.855',
      'SaleProduct.save -> Base.save 0.812', // two levels up: Product does not define save
    ]);
  });

  it('indexes a file with syntax errors partially', () => {
    const broken = fileByPath(ix.db, 'shop/broken.py')!;
    expect(broken.partial).toBe(true);
    expect(ix.summary.partial).toBe(1);
    expect(sym('after').inError).toBe(false);
  });
});

describe('python: registrations and data access', () => {
  it('links endpoints and registering code to their callbacks (registers), keeping the literal name as the target', () => {
    expect(edgeLines(ix.db, 'registers', { confidence: true })).toEqual([
      'GET, DELETE /sales/<int:sale_id> -> show_sale [route:GET, DELETE /sales/<int:sale_id>] 0.95',
      'sell -> restock [event:restock] 0.95',
      'shop.admin -> on_sold [event:sold] 0.95',
    ]);
  });
  it('records the hooks and events fired by name (fires), to be joined with their registrations', () => {
    expect(edgeLines(ix.db, 'fires', { confidence: true })).toEqual([
      'sell -> external:event:sold 1',
    ]);
  });
  it('links functions to the fields, constants and tables they read', () => {
    expect(edgeLines(ix.db, 'reads', { confidence: true })).toEqual([
      'Product.apply -> Product [price] 0.9',
      'Product.discounted -> MAX_DISCOUNT 0.95',
      'Service.run -> Service [repo] 0.9',
      'show_sale -> Sale [table:sales] 0.9',
    ]);
  });
  it('links functions to the fields, globals and tables they write', () => {
    expect(edgeLines(ix.db, 'writes', { confidence: true })).toEqual([
      'Base.save -> Base [saved] 0.9',
      'Product.__init__ -> Product [name] 0.9',
      'Product.__init__ -> Product [price] 0.9',
      'Product.apply -> Product [price] 0.9',
      'SaleProduct.save -> SaleProduct [saved] 0.9',
      'Service.__init__ -> Service [repo] 0.9',
      'on_sold -> external:table:audit 1',
    ]);
  });
});

describe('Python queries: wildcard nodes', () => {
  it('each wildcard place admits only the node type it stands for (`attribute`, `call`; wildcard-places.ts)', async () => {
    const admitted = await typesAdmitted('python');
    expect(admitted('(call function: X)', '(T object: (_) attribute: (identifier))')).toEqual(['attribute']);
    expect(admitted('(call function: X)', '(T attribute: (identifier))')).toEqual(['attribute']);
    expect(admitted('(attribute object: X)', '(T object: (identifier) attribute: (identifier))')).toEqual(['attribute']);
    expect(admitted('(decorator X)', '(T function: (_) arguments: (argument_list))')).toEqual(['call']);
  });
});
