import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { fileByPath, findSymbolsByRef, importsOfFile } from '../../src/store/queries.js';
import { fileOverview } from '../../src/store/file-info.js';

// Golden expectations for fixtures/typescript (TypeScript, TSX and a .d.ts), written by hand from
// reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('typescript');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('typescript extraction', () => {
  it('finds every definition with its kind, qualified name and line', () => {
    expect(symbolLines(ix.db)).toEqual([
      'constant CURRENCY packages/money/src/index.ts:1',
      'function formatPrice packages/money/src/index.ts:4',
      'function Rounding.down packages/money/src/index.ts:10',
      'function before src/broken.ts:1',
      'function broken src/broken.ts:5',
      'class After src/broken.ts:9',
      'method After.run src/broken.ts:10',
      'interface Entity src/core/model.ts:4',
      'method Entity.validate src/core/model.ts:6',
      'class Model src/core/model.ts:10',
      'method Model.constructor src/core/model.ts:11',
      'method Model.validate src/core/model.ts:13',
      'method Model.describe src/core/model.ts:17',
      'constant MAX_PRICE src/core/model.ts:20',
      'class Product src/core/model.ts:27', // the class node starts after its decorator's line
      'method Product.constructor src/core/model.ts:31',
      'method Product.total src/core/model.ts:36',
      'method Product.validate src/core/model.ts:40',
      'method Product.describe src/core/model.ts:44',
      'method Product.applyDiscount src/core/model.ts:48',
      'method Product.create src/core/model.ts:52',
      'function sealed src/core/model.ts:58',
      'function clamp src/core/model.ts:62',
      'type ProductId src/core/model.ts:66',
      'enum Status src/core/model.ts:68',
      'class Repository src/core/repository.ts:5',
      'method Repository.save src/core/repository.ts:8',
      'method Repository.find src/core/repository.ts:12',
      'class ProductRepository src/core/repository.ts:17',
      'method ProductRepository.findByName src/core/repository.ts:19', // a field holding an arrow function
      'constant shop src/routes.ts:3',
      'function showProduct src/routes.ts:6',
      'endpoint GET /products/:id src/routes.ts:10',
      'endpoint POST /products src/routes.ts:11',
      'class OrdersController src/routes.ts:15',
      'endpoint GET /orders/:id src/routes.ts:16',
      'method OrdersController.find src/routes.ts:17',
      'endpoint POST /orders src/routes.ts:21',
      'method OrdersController.create src/routes.ts:22',
      'class ShopService src/service.ts:7',
      'method ShopService.constructor src/service.ts:10',
      'method ShopService.addProduct src/service.ts:14',
      'method ShopService.priceLabel src/service.ts:22',
      'method ShopService.lookup src/service.ts:26',
      'class AuditLog src/service.ts:32',
      'method AuditLog.record src/service.ts:35',
      'function createService src/service.ts:40',
      'interface ShopOptions src/types.d.ts:2',
      'function bootstrap src/types.d.ts:6',
      'type Props src/ui/ProductCard.tsx:5',
      'function ProductCard src/ui/ProductCard.tsx:8',
      'function Badge src/ui/ProductCard.tsx:17',
      'function Price src/ui/ProductCard.tsx:19',
      'function loadService src/ui/ProductCard.tsx:23',
    ]);
  });

  it('takes the first sentence of JSDoc comments, above export and decorators, and ignores line comments', () => {
    expect(sym('Entity').doc).toBe('Anything that can be stored.');
    expect(sym('Model').doc).toBe('Base class for stored records.');
    expect(sym('Product').doc).toBe('A product for sale.'); // stops before @param
    expect(sym('ProductRepository.findByName').doc).toBe('Finds a product by its name.');
    expect(sym('formatPrice').doc).toBe('Formats an amount in cents, like `12.50 EUR`.');
    expect(sym('Rounding').doc).toBe('Rounding helpers.');
    expect([sym('Rounding').kind, sym('Rounding').startLine]).toEqual(['module', 9]); // a namespace
    expect(sym('ShopOptions').doc).toBe('Options accepted at start-up.');
    expect(sym('ProductCard').doc).toBe('Shows one product with its price.');
    expect(sym('sealed').doc).toBeNull(); // a `//` comment is not documentation
    expect(sym('Product.describe').doc).toBeNull();
  });

  it('records signatures, parameters, visibility, static, async, decorators and exports', () => {
    const ctor = sym('Product.constructor');
    expect(ctor.signature).toBe('constructor(id: string, public name: string, private price: number)');
    expect(ctor.params).toEqual(['id: string', 'public name: string', 'private price: number']);
    expect(sym('Product').signature).toBe('class Product extends Model');
    expect(sym('Product').annotations).toEqual(['sealed']);
    expect(sym('Model').signature).toBe('abstract class Model implements Entity');
    expect(sym('Model.describe').signature).toBe('abstract describe(): string');
    expect(sym('Product.total').signature).toBe('get total(): number');
    expect(sym('createService').signature).toBe('createService = (): ShopService =>');
    expect(sym('MAX_PRICE').signature).toBe('MAX_PRICE = 10_000');
    expect(sym('createService').isAsync).toBe(false);
    expect(sym('ShopService.addProduct').isAsync).toBe(true);
    expect(sym('ShopService.addProduct').signature).toBe('async addProduct(name: string): Promise<Product>');
    expect(sym('Product.create').isStatic).toBe(true);
    expect(sym('Product.describe').isStatic).toBe(false);

    expect(sym('Product.applyDiscount').visibility).toBe('protected');
    expect(sym('Product.describe').visibility).toBe('public');
    expect(sym('clamp').visibility).toBe('module');
    expect(sym('clamp').exported).toBe(false);
    expect(sym('AuditLog').visibility).toBe('module');
    expect(sym('Badge').visibility).toBe('module');
    expect(sym('sealed').visibility).toBe('public');
    expect(sym('sealed').exported).toBe(true);
    expect(sym('createService').exported).toBe(true);
    expect(sym('Status').exported).toBe(true);
    expect(sym('Rounding').exported).toBe(true);
    expect(sym('Rounding.down').visibility).toBe('public'); // exported from its namespace
    expect(sym('Rounding.down').exported).toBe(false); // not a top-level export of the file
    expect(sym('bootstrap').visibility).toBe('module'); // a global declaration, not an export
  });

  it('resolves relative, .js-suffixed, tsconfig paths, workspace and barrel imports; keeps packages external', () => {
    expect(edgeLines(ix.db, 'imports', { files: true })).toEqual([
      'src/core/model.ts:src/core/model -> packages/money/src/index.ts:formatPrice', // @shop/money: main dist/ -> src/
      'src/core/repository.ts:src/core/repository -> src/core/model.ts:Entity', // './model.js' names model.ts
      'src/core/repository.ts:src/core/repository -> src/core/model.ts:Product',
      'src/index.ts:src/index -> src/core/model.ts:src/core/model', // export * from
      'src/index.ts:src/index -> src/core/repository.ts:ProductRepository', // export { default as … } from
      'src/index.ts:src/index -> src/service.ts:ShopService',
      'src/index.ts:src/index -> src/service.ts:createService',
      'src/routes.ts:src/routes -> src/service.ts:ShopService',
      'src/service.ts:src/service -> external:node:events',
      'src/service.ts:src/service -> packages/money/src/index.ts:packages/money/src/index', // import * as money
      'src/service.ts:src/service -> src/core/model.ts:Product',
      'src/service.ts:src/service -> src/core/model.ts:ProductId',
      'src/service.ts:src/service -> src/core/repository.ts:ProductRepository', // @core/* path, default import
      'src/ui/ProductCard.tsx:src/ui/ProductCard -> external:react',
      'src/ui/ProductCard.tsx:src/ui/ProductCard -> src/core/model.ts:Product',
      'src/ui/ProductCard.tsx:src/ui/ProductCard -> src/service.ts:ShopService', // '..' is src/index.ts, a re-export
      'src/ui/ProductCard.tsx:src/ui/ProductCard -> src/service.ts:src/service', // import('../service')
      'test/service.test.ts:test/service.test -> external:vitest',
      'test/service.test.ts:test/service.test -> src/core/model.ts:Product', // through export *
      'test/service.test.ts:test/service.test -> src/core/repository.ts:ProductRepository', // through a default alias
      'test/service.test.ts:test/service.test -> src/service.ts:createService',
    ]);
    const service = fileByPath(ix.db, 'src/service.ts')!;
    expect(importsOfFile(ix.db, service.id).map((i) => [i.module, i.alias, i.names])).toEqual([
      ['@core/repository', null, [{ name: 'default', alias: 'ProductRepository' }]],
      ['./core/model', null, [{ name: 'Product' }, { name: 'ProductId' }]],
      ['@shop/money', 'money', []],
      ['node:events', null, [{ name: 'EventEmitter' }]],
    ]);
  });

  it('lists exports, re-exports and the default export of a file', () => {
    const repo = fileOverview(ix.db, ix.root, 'src/core/repository.ts');
    expect(repo.exports.sort()).toEqual(['ProductRepository', 'Repository', 'default']);
    expect(repo.imports.map((i) => i.module)).toEqual(['./model.js', './model.js']); // the alias row is no import
    const barrel = fileOverview(ix.db, ix.root, 'src/index.ts');
    expect(barrel.exports.sort()).toEqual(['ProductRepository', 'ShopService', 'createService']);
  });

  it('resolves calls through this, super, typed parameters and fields, parameter properties, namespaces and JSX', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'After.run -> before 0.95',
      'OrdersController.create -> Product.create 0.25',
      'POST /products -> ShopService.addProduct 0.9',
      'ProductCard -> Badge 0.95', // <Badge> renders the component
      'ProductCard -> Price 0.95',
      'ProductCard -> ShopService.priceLabel 0.5', // destructured, untyped: a unique name match only
      'Product.applyDiscount -> clamp 0.95',
      'Product.create -> Product 0.95', // new Product()
      'Product.describe -> formatPrice 0.9', // an aliased import
      'Product.validate -> Model.validate 0.8', // super.validate()
      'ProductRepository.findByName -> Repository.find 0.8', // this.find() is inherited
      'Repository.save -> Entity.validate 0.167', // item: T, a type parameter: three name matches
      'Repository.save -> Model.validate 0.167',
      'Repository.save -> Product.validate 0.167',
      'ShopService -> AuditLog 0.95', // a field initialiser runs in the class
      'ShopService.addProduct -> AuditLog.record 0.9', // field `audit: AuditLog`
      'ShopService.addProduct -> Product.create 0.9', // a static call
      'ShopService.addProduct -> Repository.save 0.8', // constructor(private repo: ProductRepository)
      'ShopService.lookup -> Model.describe 0.25', // found?.describe(): untyped local, two name matches
      'ShopService.lookup -> Product.describe 0.25',
      'ShopService.lookup -> ProductRepository.findByName 0.9',
      'ShopService.priceLabel -> formatPrice 0.9', // money.formatPrice through `import * as money`
      'broken -> before 0.475', // inside a syntax-error region
      'createService -> ProductRepository 0.9',
      'createService -> ShopService 0.95',
      'formatPrice -> Rounding.down 0.9', // a namespace member
      'shop -> ShopService 0.9',
      'showProduct -> ShopService.lookup 0.9',
      'src/core/model -> sealed 0.95', // @sealed decorator
      'test/service.test -> Model.describe 0.25',
      'test/service.test -> Product 0.9',
      'test/service.test -> Product.describe 0.25',
      'test/service.test -> ProductRepository 0.9',
      'test/service.test -> Repository.save 0.8', // const repo: ProductRepository
      'test/service.test -> ShopService.addProduct 0.5',
      'test/service.test -> createService 0.9',
    ].sort());
  });

  it('counts calls to runtime and test-runner globals as external, not unresolved', () => {
    // External: Object.seal, Math.min, Math.floor, new Map(), describe, it x2, expect, expect(…).toContain,
    // this.emit (ShopService extends node's EventEmitter), this.items.set/get (items = new Map()).
    // Unresolved: this.entries.push (string[]), (…).toFixed.
    // src/routes.ts adds app.get/app.post, db.query and prisma.order.create (unresolved: not declared).
    expect(ix.summary.calls.typescript).toEqual({
      total: 50, resolved: 29, external: 13, unresolved: 8, values: 0,
      byTier: { local: 7, member: 6, import: 7, inherited: 4, global: 5 },
    });
  });

  it('links subtypes, implementations and tests', () => {
    expect(edgeLines(ix.db, 'extends')).toEqual(['Product -> Model', 'ProductRepository -> Repository']);
    expect(edgeLines(ix.db, 'implements')).toEqual(['Model -> Entity']);
    expect(edgeLines(ix.db, 'tests')).toEqual([
      'test/service.test -> Model.describe',
      'test/service.test -> Product',
      'test/service.test -> Product.describe',
      'test/service.test -> ProductRepository',
      'test/service.test -> Repository.save',
      'test/service.test -> ShopService.addProduct',
      'test/service.test -> createService',
      'test/service.test -> src/core/model',
      'test/service.test -> src/core/repository',
      'test/service.test -> src/service',
    ]);
    expect(fileByPath(ix.db, 'test/service.test.ts')!.isTest).toBe(true);
    expect(fileByPath(ix.db, 'src/service.ts')!.isTest).toBe(false);
  });

  it('indexes a file with syntax errors partially', () => {
    expect(fileByPath(ix.db, 'src/broken.ts')!.partial).toBe(true);
    expect(ix.summary.partial).toBe(1);
    expect(sym('After.run').inError).toBe(false);
    expect(sym('broken').inError).toBe(false);
  });
});

describe('typescript: overrides', () => {
  it("links each method to the one it overrides: an abstract class's method implements the interface's; a subclass's constructor and methods override the base class's", () => {
    expect(edgeLines(ix.db, 'overrides', { confidence: true })).toEqual([
      'Model.validate -> Entity.validate 0.903',
      'Product.constructor -> Model.constructor 0.903',
      'Product.describe -> Model.describe 0.903',
      'Product.validate -> Model.validate 0.903',
    ]);
  });
});

describe('typescript: registrations and data access', () => {
  it('links endpoints and registering code to their callbacks (registers), keeping the literal name as the target', () => {
    expect(edgeLines(ix.db, 'registers', { confidence: true })).toEqual([
      'GET /orders/:id -> OrdersController.find [route:GET /orders/:id] 0.95',
      'GET /products/:id -> showProduct [route:GET /products/:id] 0.95',
      'POST /orders -> OrdersController.create [route:POST /orders] 0.95',
      'POST /products -> external:route:POST /products 1',
      'src/routes -> showProduct [event:added] 0.95',
    ]);
  });
  it('records the hooks and events fired by name (fires), to be joined with their registrations', () => {
    expect(edgeLines(ix.db, 'fires', { confidence: true })).toEqual([
      'ShopService.addProduct -> external:event:added 1',
    ]);
  });
  it('links functions to the fields, constants and tables they read', () => {
    expect(edgeLines(ix.db, 'reads', { confidence: true })).toEqual([
      'AuditLog.record -> AuditLog [entries] 0.9',
      'Model.validate -> Model [id] 0.9',
      'OrdersController.find -> external:table:orders 1',
      'Product.applyDiscount -> Product [price] 0.9',
      'Product.describe -> Product [name] 0.9',
      'Product.describe -> Product [total] 0.9',
      'Product.total -> Product [price] 0.9',
      'Product.validate -> Product [price] 0.9',
      'Repository.find -> Repository [items] 0.9',
      'Repository.save -> Repository [items] 0.9',
      'ShopService.addProduct -> ShopService [audit] 0.9',
      'ShopService.addProduct -> ShopService [repo] 0.9',
      'ShopService.lookup -> ShopService [repo] 0.9',
      'ShopService.priceLabel -> Product [total] 0.9',
      'clamp -> MAX_PRICE 0.95',
      'formatPrice -> CURRENCY 0.95',
    ]);
  });
  it('links functions to the fields, globals and tables they write', () => {
    expect(edgeLines(ix.db, 'writes', { confidence: true })).toEqual([
      'OrdersController.create -> external:table:order 1',
      'Product.applyDiscount -> Product [discount] 0.9',
      'Product.constructor -> Product [count] 0.95',
    ]);
  });
});
