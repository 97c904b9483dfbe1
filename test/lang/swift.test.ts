import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';
import { swift } from '../../src/lang/swift.js';
import { normalizeForGrammar } from '../../src/lang/swift-source.js';
import { loadLanguage } from '../../src/lang/loader.js';
import { extractSource } from '../../src/extract/extract.js';

// Golden expectations for fixtures/swift (a SwiftPM package: targets Shop and App, test target
// ShopTests), written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('swift');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

const SHOP_MODULES = ['Broken', 'Extensions', 'Inventory', 'Models', 'Routes', 'Service', 'Util/Log'].map((m) => `Sources/Shop/${m}`);

describe('swift extraction', () => {
  it('finds every definition with its kind, qualified name and line', () => {
    expect(symbolLines(ix.db)).toEqual([
      'constant package Package.swift:4',
      'struct App Sources/App/App.swift:4', // a declaration starts at its attributes (`@main`)
      'method App.main Sources/App/App.swift:6',
      'function before Sources/Shop/Broken.swift:1',
      'function broken Sources/Shop/Broken.swift:3',
      'struct After Sources/Shop/Broken.swift:8',
      'method After.after Sources/Shop/Broken.swift:9',
      'method Product.halfPrice Sources/Shop/Extensions.swift:3', // extensions qualify by the extended type
      'method Category.label Sources/Shop/Extensions.swift:9', // a computed property is a method
      'method Product.Tag.framed Sources/Shop/Extensions.swift:13',
      'method Service.subscript Sources/Shop/Extensions.swift:19',
      'struct Inventory Sources/Shop/Inventory.swift:2',
      'method Inventory.dump Sources/Shop/Inventory.swift:6', // inside #if DEBUG, in a type body
      'method Inventory.count Sources/Shop/Inventory.swift:11',
      'method Inventory.restock Sources/Shop/Inventory.swift:16',
      'enum InventoryError Sources/Shop/Inventory.swift:23',
      'constant maxDiscount Sources/Shop/Models.swift:2',
      'interface Storable Sources/Shop/Models.swift:5',
      'method Storable.save Sources/Shop/Models.swift:6', // a protocol requirement
      'interface Labeled Sources/Shop/Models.swift:10',
      'class Entity Sources/Shop/Models.swift:17',
      'method Entity.init Sources/Shop/Models.swift:20',
      'method Entity.save Sources/Shop/Models.swift:25',
      'method Entity.validate Sources/Shop/Models.swift:30',
      'method Entity.key Sources/Shop/Models.swift:32',
      'class Product Sources/Shop/Models.swift:36',
      'constant Product.shelfLife Sources/Shop/Models.swift:39', // static let; stored properties are not symbols
      'method Product.init Sources/Shop/Models.swift:41',
      'method Product.discounted Sources/Shop/Models.swift:47',
      'method Product.apply Sources/Shop/Models.swift:52',
      'method Product.free Sources/Shop/Models.swift:56',
      'method Product.description Sources/Shop/Models.swift:60',
      'struct Product.Tag Sources/Shop/Models.swift:63',
      'method Product.Tag.render Sources/Shop/Models.swift:65',
      'enum Category Sources/Shop/Models.swift:69',
      'method Category.title Sources/Shop/Models.swift:72',
      'type Price Sources/Shop/Models.swift:75',
      'interface RowDecodable Sources/Shop/Models.swift:78',
      'method RowDecodable.init Sources/Shop/Models.swift:79', // an initializer requirement
      'function routes Sources/Shop/Routes.swift:2',
      'endpoint GET /products/:id Sources/Shop/Routes.swift:3',
      'endpoint POST /products Sources/Shop/Routes.swift:4',
      'function showProduct Sources/Shop/Routes.swift:9',
      'class Repository Sources/Shop/Service.swift:4', // an actor
      'method Repository.store Sources/Shop/Service.swift:7',
      'class Service Sources/Shop/Service.swift:14',
      'method Service.init Sources/Shop/Service.swift:17',
      'method Service.run Sources/Shop/Service.swift:21',
      'method Service.check Sources/Shop/Service.swift:27',
      'method Service.make Sources/Shop/Service.swift:29',
      'method Service.deinit Sources/Shop/Service.swift:33',
      'function createProduct Sources/Shop/Service.swift:39',
      'function launch Sources/Shop/Service.swift:47',
      'function log Sources/Shop/Util/Log.swift:5',
      'function privateHelper Sources/Shop/Util/Log.swift:9',
      'function saveLogged Sources/Shop/Util/Log.swift:14',
      'function saveLogged.note Sources/Shop/Util/Log.swift:15', // a nested function
      'class ProductTests Tests/ShopTests/ProductTests.swift:4',
      'method ProductTests.setUp Tests/ShopTests/ProductTests.swift:7',
      'method ProductTests.testDiscount Tests/ShopTests/ProductTests.swift:11',
      'method ProductTests.testFree Tests/ShopTests/ProductTests.swift:15',
      'method XCTestCase.assertCheap Tests/ShopTests/ProductTests.swift:24', // extension of an outside type
      'method XCTestCase.assertAllCheap Tests/ShopTests/ProductTests.swift:28',
      'struct ServiceTests Tests/ShopTests/ServiceTests.swift:4',
      'method ServiceTests.runStoresProduct Tests/ShopTests/ServiceTests.swift:5',
      'function freeProduct Tests/ShopTests/ServiceTests.swift:11',
    ]);
  });

  it('keeps the first sentence of /// and /** */ doc comments, not // comments', () => {
    expect(sym('maxDiscount').doc).toBe('Largest discount, in percent.');
    expect(sym('Storable').doc).toBe('Something that can be saved.');
    expect(sym('Labeled').doc).toBeNull(); // only `// MARK: - Labels` above it
    expect(sym('Entity').doc).toBe('The base of every stored object.');
    expect(sym('Entity.save').doc).toBe('Persist the object.'); // above the attribute
    expect(sym('Product').doc).toBe('A thing for sale.');
    expect(sym('Product.Tag').doc).toBe('A label printed on the shelf.');
    expect(sym('Product.halfPrice').doc).toBe('Half price, whatever the discount cap says.');
    expect(sym('Repository').doc).toBe('Keeps products in memory.');
    expect(sym('log').doc).toBe('Log a message.');
    expect(sym('Product.discounted').doc).toBeNull();
  });

  it('records signatures, parameters, visibility, static, async and attributes', () => {
    expect(sym('Product.discounted').signature).toBe('public func discounted(by pct: Int) -> Double');
    expect(sym('Product.discounted').params).toEqual(['by pct: Int']);
    expect(sym('Product.init').signature).toBe('public init(name: String, price: Double)');
    expect(sym('Product.init').params).toEqual(['name: String', 'price: Double']);
    expect(sym('log').params).toEqual(['_ message: String']);
    expect(sym('Service.subscript').params).toEqual(['index: Int']);
    expect(sym('Entity.save').signature).toBe('public func save() -> Bool'); // @discardableResult is an annotation
    expect(sym('Entity.key').signature).toBe('var key: String');
    expect(sym('Storable.save').signature).toBe('func save() -> Bool');
    expect(sym('maxDiscount').signature).toBe('public let maxDiscount = 50');
    // Typed throws are blanked for the grammar, but the signature quotes the file.
    expect(sym('Inventory.count').signature).toBe('func count(of name: String) throws(InventoryError) -> Int');

    expect(sym('maxDiscount').visibility).toBe('public');
    expect(sym('Entity').visibility).toBe('public'); // open
    expect(sym('Entity.init').visibility).toBe('internal');
    expect(sym('Entity.validate').visibility).toBe('fileprivate');
    expect(sym('Product.apply').visibility).toBe('private');
    expect(sym('Category').visibility).toBe('internal');
    expect(sym('privateHelper').visibility).toBe('private');
    expect(sym('maxDiscount').exported).toBe(true);
    expect(sym('Category').exported).toBe(false);

    expect(sym('Product.free').isStatic).toBe(true); // static func
    expect(sym('Service.make').isStatic).toBe(true); // class func
    expect(sym('Product.shelfLife').isStatic).toBe(true);
    expect(sym('Product.discounted').isStatic).toBe(false);
    expect(sym('Product').isStatic).toBe(false);
    expect(sym('Service.run').isAsync).toBe(true); // `async` after the parameters
    expect(sym('App.main').isAsync).toBe(true);
    expect(sym('Product.discounted').isAsync).toBe(false);

    expect(sym('Entity.save').annotations).toEqual(['discardableResult']);
    expect(sym('App').annotations).toEqual(['main']);
    expect(sym('ServiceTests').annotations).toEqual(['Suite']);
    expect(sym('freeProduct').annotations).toEqual(['Test']);
  });

  it('marks XCTest and swift-testing tests', () => {
    expect(sym('ProductTests').isTest).toBe(true);
    expect(sym('ProductTests.testDiscount').isTest).toBe(true);
    expect(sym('ProductTests.setUp').isTest).toBe(false);
    expect(sym('ServiceTests').isTest).toBe(true); // @Suite
    expect(sym('ServiceTests.runStoresProduct').isTest).toBe(true); // @Test
    expect(sym('freeProduct').isTest).toBe(true);
    expect(sym('createProduct').isTest).toBe(false);
    expect(fileByPath(ix.db, 'Tests/ShopTests/ServiceTests.swift')!.isTest).toBe(true);
    expect(fileByPath(ix.db, 'Sources/Shop/Service.swift')!.isTest).toBe(false);
  });

  it('resolves imports of local targets to their files and keeps other modules external', () => {
    expect(edgeLines(ix.db, 'imports', { files: true })).toEqual([
      'Package.swift:Package -> external:PackageDescription',
      ...SHOP_MODULES.map((m) => `Sources/App/App.swift:Sources/App/App -> ${m}.swift:${m}`),
      'Sources/App/App.swift:Sources/App/App -> Sources/Shop/Models.swift:Product', // import struct Shop.Product
      'Sources/Shop/Service.swift:Sources/Shop/Service -> external:Foundation',
      'Sources/Shop/Util/Log.swift:Sources/Shop/Util/Log -> external:Foundation', // import struct Foundation.Date
      'Sources/Shop/Util/Log.swift:Sources/Shop/Util/Log -> external:os',
      ...SHOP_MODULES.map((m) => `Tests/ShopTests/ProductTests.swift:Tests/ShopTests/ProductTests -> ${m}.swift:${m}`),
      'Tests/ShopTests/ProductTests.swift:Tests/ShopTests/ProductTests -> external:XCTest',
      ...SHOP_MODULES.map((m) => `Tests/ShopTests/ServiceTests.swift:Tests/ShopTests/ServiceTests -> ${m}.swift:${m}`),
      'Tests/ShopTests/ServiceTests.swift:Tests/ShopTests/ServiceTests -> external:Testing',
    ].sort());
    const app = fileByPath(ix.db, 'Sources/App/App.swift')!;
    expect(importsOfFile(ix.db, app.id).map((i) => [i.module, i.alias, i.names, i.wildcard])).toEqual([
      ['Shop', 'Shop', [], true],
      ['Shop', null, [{ name: 'Product' }], false],
    ]);
    const tests = fileByPath(ix.db, 'Tests/ShopTests/ProductTests.swift')!;
    expect(importsOfFile(ix.db, tests.id).map((i) => i.module)).toEqual(['XCTest', 'Shop']); // @testable import
  });

  it('resolves calls: implicit self, self/super, typed and constructed receivers, module, imports', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'After.after -> before 0.95',
      'App.main -> Product.free 0.9', // Product from `import struct Shop.Product`
      'App.main -> Service 0.9', // constructor call, through `import Shop`
      'App.main -> Service.run 0.9', // let service = Service()
      'App.main -> log 0.9', // Shop.log(): the module name qualifies
      'Entity.save -> Entity.validate 0.95', // implicit self
      'Inventory.dump -> log 0.85', // stock[name] and stock[...] += are subscripts, not calls
      'Inventory.restock -> log 0.85',
      'POST /products -> Inventory 0.85',
      'POST /products -> Inventory.count 0.5',
      'Product.Tag.framed -> Product.Tag.render 0.9', // implicit self in an extension of a nested type
      'Product.discounted -> Product.apply 0.95',
      'Product.free -> Product 0.95',
      'Product.halfPrice -> Product.discounted 0.9', // implicit self in an extension in another file
      'Product.init -> Entity.init 0.8', // super.init
      'ProductTests.setUp -> Product 0.9', // @testable import Shop
      'ProductTests.testDiscount -> Product.discounted 0.9', // var product: Product!
      'ProductTests.testFree -> Product.free 0.9',
      'ProductTests.testFree -> Product.halfPrice 0.5', // gift's type is unknown: name match only
      // Implicit self in a subclass of an outside type (XCTestCase): a name match among methods.
      'ProductTests.testFree -> XCTestCase.assertCheap 0.5',
      'Repository.store -> Storable.save 0.9', // item: Storable
      'Service.deinit -> log 0.85', // same module, another file
      'Service.init -> Repository 0.95',
      'Service.make -> Service 0.95',
      'Service.run -> Repository.store 0.9', // stored property `let repo: Repository`
      'Service.run -> Service.check 0.9', // self.check
      'Service.run -> log 0.85',
      'ServiceTests.runStoresProduct -> Service 0.9',
      'ServiceTests.runStoresProduct -> Service.run 0.9', // inside #expect(...)
      'ServiceTests.runStoresProduct -> createProduct 0.9',
      'XCTestCase.assertAllCheap -> XCTestCase.assertCheap 0.9', // implicit self in an outside type's extension
      'broken -> before 0.475', // inside a syntax-error region: lower confidence
      'createProduct -> Entity.save 0.8', // inherited from Entity
      'createProduct -> Product 0.85',
      'createProduct -> log 0.85',
      'freeProduct -> Product.free 0.9',
      'launch -> Entity.save 0.8', // if let product = item as? Product
      'launch -> Service.make 0.9', // type: Service.Type
      'privateHelper -> log 0.95',
      'saveLogged -> Storable.save 0.9', // item: S, with <S: Storable>
      'saveLogged -> saveLogged.note 0.95', // its own nested function
      'saveLogged.note -> log 0.95',
    ]);
  });

  it('links supertypes: first class entry extends, protocols and extension conformances implement', () => {
    expect(edgeLines(ix.db, 'extends')).toEqual(['Product -> Entity']);
    expect(edgeLines(ix.db, 'implements')).toEqual([
      'Category -> Labeled', // extension Category: Labeled, in another file
      'Entity -> Storable', // written first, but a protocol: implements
    ]);
  });

  it('links tests to what they exercise', () => {
    expect(edgeLines(ix.db, 'tests')).toEqual([
      'ProductTests -> Product', // from setUp, which is not a test itself
      'ProductTests.testDiscount -> Product.discounted',
      'ProductTests.testFree -> Product.free',
      'ProductTests.testFree -> Product.halfPrice',
      'ServiceTests.runStoresProduct -> Service',
      'ServiceTests.runStoresProduct -> Service.run',
      'ServiceTests.runStoresProduct -> createProduct',
      ...SHOP_MODULES.map((m) => `Tests/ShopTests/ProductTests -> ${m}`),
      ...SHOP_MODULES.map((m) => `Tests/ShopTests/ServiceTests -> ${m}`),
      'freeProduct -> Product.free',
    ].sort());
  });

  it('indexes a file with syntax errors partially, and only that one', () => {
    const broken = fileByPath(ix.db, 'Sources/Shop/Broken.swift')!;
    expect(broken.partial).toBe(true);
    // #if in a type body, typed throws, raw strings and #expect (after the first parse) parse cleanly.
    expect(ix.summary.partial).toBe(1);
    expect(sym('broken').inError).toBe(false);
    expect(sym('After.after').inError).toBe(false);
  });
});

describe('swift language entry', () => {
  it('keys the shared scope by SwiftPM target, else by top-level folder', () => {
    expect(swift.sharedScopeKey!('Sources/Shop/Util/Log.swift')).toBe('Sources/Shop');
    expect(swift.sharedScopeKey!('Tests/ShopTests/A.swift')).toBe('Tests/ShopTests');
    expect(swift.sharedScopeKey!('Packages/Net/Sources/Net/A.swift')).toBe('Packages/Net/Sources/Net');
    expect(swift.sharedScopeKey!('Sources/Shop/Tests/Fakes/A.swift')).toBe('Sources/Shop'); // the first target folder
    expect(swift.sharedScopeKey!('MyApp/Views/Home.swift')).toBe('MyApp');
    expect(swift.sharedScopeKey!('Package.swift')).toBe('');
  });

  it('rewrites # syntax and newer syntax in place, leaving comments and strings alone', () => {
    const cases: [string, string][] = [
      ['  #if DEBUG\n  func a() {}\n  #else\n  #endif', `${' '.repeat(11)}\n  func a() {}\n${' '.repeat(7)}\n${' '.repeat(8)}`],
      ['#expect(a == #file)', ' expect(a ==  file)'],
      ['if #available(iOS 13, *) {', 'if true                  {'],
      ['#warning("fix (later)")', ' '.repeat(23)],
      ['let s = #"say "hi" \\#(x)"#;', `let s = "${' '.repeat(16)}";`],
      ['let s = ##"""\n  a "" b\n  """##', 'let s = """  \n        \n    """'],
      ['@Option() var x: Int', '@Option   var x: Int'],
      ['@Flag(help: "h") var y = false', '@Flag(help: "h") var y = false'],
      ['func f() throws(ParseError) -> Int', 'func f() throws             -> Int'],
      ['func g() rethrows -> Int', 'func g() rethrows -> Int'],
      ['nonisolated(unsafe) static var x = 1', `${' '.repeat(19)} static var x = 1`],
      ['let t = "#if \\("#x") @A()" // #if @B()', 'let t = "#if \\("#x") @A()" // #if @B()'],
      ['/* #if /* #else */ */ x', '/* #if /* #else */ */ x'],
    ];
    for (const [src, want] of cases) {
      const out = normalizeForGrammar(src);
      expect(out, src).toBe(want);
      expect(out.length).toBe(src.length);
    }
  });

  it('parses # syntax the same way after the first parse of the process', async () => {
    // The 0.7.1 scanner reads uninitialised state once anything has been parsed (see swift-source.ts).
    const lang = await loadLanguage(swift);
    extractSource(lang, 'A.swift', 'let x = 1\n');
    const src = 'func g() -> Int { 1 }\n@Test func t() {\n  #expect(g() == 1)\n  let s = #selector(g)\n}\n';
    for (let i = 0; i < 2; i++) {
      const x = extractSource(lang, 'T.swift', src);
      expect(x.partial).toBe(false);
      expect(x.calls.map((c) => `${c.name}:${c.line}`)).toEqual(['expect:3', 'g:3', 'selector:4']);
    }
  });

  it('resolves a module import to the nearest SwiftPM target of that name', () => {
    const files = new Set(['Sources/Net/A.swift', 'Sources/Net/Sub/B.swift', 'Packages/Kit/Sources/Net/C.swift',
      'Packages/Kit/Sources/App/D.swift', 'Sources/App/main.swift', 'Sources/Net/README.md']);
    const resolver = swift.createImportResolver({ root: '/repo', files, readText: () => null });
    const net = { module: 'Net', names: [], line: 1 };
    expect(resolver.resolveModule(net, 'Sources/App/main.swift')).toEqual(['Sources/Net/A.swift', 'Sources/Net/Sub/B.swift']);
    expect(resolver.resolveModule(net, 'Packages/Kit/Sources/App/D.swift')).toEqual(['Packages/Kit/Sources/Net/C.swift']);
    expect(resolver.resolveModule({ module: 'Net.Sub', names: [], line: 1 }, 'Sources/App/main.swift')).toHaveLength(2);
    expect(resolver.resolveModule({ module: 'Foundation', names: [], line: 1 }, 'Sources/App/main.swift')).toBeNull();
  });

  it('treats private(set) as a setter restriction', () => {
    const vis = (...mods: string[]) => swift.visibility({ name: 'x', kind: 'method', modifiers: new Set(mods), parentKind: 'class',
      exportedByQuery: false });
    expect(vis('public', 'private', '(', 'set', ')')).toBe('public');
    expect(vis('private', '(', 'set', ')')).toBe('internal');
    expect(vis('fileprivate', 'private', '(', 'set', ')')).toBe('fileprivate');
    expect(vis('private')).toBe('private');
    expect(vis()).toBe('internal');
  });

  it('detects test files', () => {
    expect(swift.isTestFile('Tests/ShopTests/A.swift')).toBe(true);
    expect(swift.isTestFile('MyAppUITests/LaunchTests.swift')).toBe(true);
    expect(swift.isTestFile('Sources/Shop/ProductTest.swift')).toBe(true);
    expect(swift.isTestFile('Sources/ShopTestHelpers/Helpers.swift')).toBe(false);
    expect(swift.isTestFile('Sources/Shop/Contest.swift')).toBe(false);
  });
});

describe('swift: overrides', () => {
  it("links each method to the one it overrides: conformances and overrides, with the same argument labels", () => {
    expect(edgeLines(ix.db, 'overrides', { confidence: true })).toEqual([
      'Entity.save -> Storable.save 0.903',
      // Product.init(name:price:) is not Entity.init(id:): labels are part of a Swift method's name (it calls super.init).
    ]);
  });
});

describe('swift: registrations and data access', () => {
  it('links endpoints and registering code to their callbacks (registers), keeping the literal name as the target', () => {
    expect(edgeLines(ix.db, 'registers', { confidence: true })).toEqual([
      'GET /products/:id -> showProduct [route:GET /products/:id] 0.95',
      'POST /products -> external:route:POST /products 1',
    ]);
  });
  it('records the hooks and events fired by name (fires), to be joined with their registrations', () => {
    expect(edgeLines(ix.db, 'fires', { confidence: true })).toEqual([]);
  });
  it('links functions to the fields, constants and tables they read', () => {
    expect(edgeLines(ix.db, 'reads', { confidence: true })).toEqual([
      'Inventory.restock -> Product [name] 0.85',
      'Service.run -> Product [name] 0.85',
      'XCTestCase.assertCheap -> Product [price] 0.9',
      'saveLogged -> Storable [key] 0.85',
      'showProduct -> Product [table:products] 0.6',
    ]);
  });
  it('links functions to the fields, globals and tables they write', () => {
    expect(edgeLines(ix.db, 'writes', { confidence: true })).toEqual([
      'Entity.init -> Entity [id] 0.9',
      'Product.init -> Product [name] 0.9',
      'Product.init -> Product [price] 0.9',
    ]);
  });
});
