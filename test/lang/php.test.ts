import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';
import { php } from '../../src/lang/php.js';

// Golden expectations for fixtures/php, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('php');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('php extraction', () => {
  it('finds every definition with its kind, qualified name and line; namespaces do not qualify names', () => {
    expect(symbolLines(ix.db)).toEqual([
      'function boot lib/bootstrap.php:6',
      'function legacy_title lib/support/helpers.php:4',
      'class Entity src/Model/Entity.php:10',
      'method Entity.save src/Model/Entity.php:15',
      'method Entity.validate src/Model/Entity.php:20',
      'method Entity.table src/Model/Entity.php:22',
      'trait HasName src/Model/HasName.php:5',
      'method HasName.name src/Model/HasName.php:10',
      'interface Priced src/Model/Priced.php:5',
      'method Priced.price src/Model/Priced.php:7',
      'class Product src/Model/Product.php:10', // starts at its #[Audited] attribute
      'constant Product.TABLE src/Model/Product.php:15',
      'constant Product.MAX_DISCOUNT src/Model/Product.php:16',
      'constant Product.MIN_PRICE src/Model/Product.php:16',
      'method Product.__construct src/Model/Product.php:18',
      'method Product.price src/Model/Product.php:23',
      'method Product.discounted src/Model/Product.php:28',
      'method Product.describe src/Model/Product.php:34',
      'method Product.validate src/Model/Product.php:39',
      'method Product.jsonSerialize src/Model/Product.php:44',
      'method Product.free src/Model/Product.php:49',
      'enum Status src/Model/Status.php:5',
      'constant Status.Active src/Model/Status.php:7',
      'constant Status.Hidden src/Model/Status.php:8',
      'method Status.isVisible src/Model/Status.php:10',
      'class Repository src/Repo/Repository.php:9',
      'method Repository.store src/Repo/Repository.php:14',
      'method Repository.find src/Repo/Repository.php:22',
      'class BaseService src/Service/BaseService.php:5',
      'method BaseService.__construct src/Service/BaseService.php:7',
      'method BaseService.audit src/Service/BaseService.php:11',
      'class ProductService src/Service/ProductService.php:15',
      'method ProductService.__construct src/Service/ProductService.php:19',
      'method ProductService.create src/Service/ProductService.php:24',
      'method ProductService.label src/Service/ProductService.php:33',
      'method ProductService.make src/Service/ProductService.php:39',
      'method ProductService.hide src/Service/ProductService.php:44',
      'class Cache src/Support/Cache.php:6',
      'method Cache.has src/Support/Cache.php:11',
      'method Cache.put src/Support/Cache.php:16',
      'class InvalidArgumentException src/Support/InvalidArgumentException.php:6',
      'constant VERSION src/Support/functions.php:5',
      'constant SHOP_DEBUG src/Support/functions.php:7', // define('SHOP_DEBUG', false)
      'function log_message src/Support/functions.php:12',
      'function format_price src/Support/functions.php:19',
      'function before src/broken.php:5',
      'function broken src/broken.php:10',
      'class Half src/broken.php:16',
      'method Half.method src/broken.php:17',
      'function after src/broken.php:23',
      'function shop_init src/plugin.php:13',
      'endpoint GET /shop/v1/products/(?P<id>\\d+) src/plugin.php:16',
      'function shop_title src/plugin.php:22',
      'function shop_get_product src/plugin.php:27',
      'class ShopCart src/plugin.php:33',
      'method ShopCart.render src/plugin.php:37',
      'method ShopCart.boot src/plugin.php:42',
      'method ShopCart.onLoaded src/plugin.php:47',
      'endpoint GET /products/{id} src/routes.php:5',
      'endpoint POST /products src/routes.php:6',
      'endpoint GET /health src/routes.php:7',
      'class ProductServiceTest tests/ProductServiceTest.php:10',
      'method ProductServiceTest.setUp tests/ProductServiceTest.php:14',
      'method ProductServiceTest.testCreate tests/ProductServiceTest.php:19',
      'method ProductServiceTest.discountIsCapped tests/ProductServiceTest.php:28',
      'method ProductServiceTest.freeProductsCostNothing tests/ProductServiceTest.php:34',
      'class TestCase tests/TestCase.php:6',
      'method TestCase.product tests/TestCase.php:8',
    ]);
    // The .phtml template defines nothing but is indexed (its calls appear below).
    expect(fileByPath(ix.db, 'templates/page.phtml')).toBeTruthy();
  });

  it('keeps the first sentence of PHPDoc and line comments above a definition', () => {
    expect(sym('Entity').doc).toBe('Something that can be stored.');
    expect(sym('Entity.save').doc).toBe('Persist the entity.');
    expect(sym('Product').doc).toBe('A thing for sale.'); // above the #[Audited] attribute
    expect(sym('HasName.name').doc).toBe('The name, trimmed.');
    expect(sym('Cache').doc).toBe('An in-memory cache.');
    expect(sym('log_message').doc).toBe('Write a line to the log.');
    expect(sym('ProductService').doc).toBe('Creates products and keeps them in a store.');
    expect(sym('legacy_title').doc).toBe('Helpers for the old templates.');
    expect(sym('ProductServiceTest.discountIsCapped').doc).toBeNull(); // only an @test tag
    expect(sym('Product.price').doc).toBeNull();
    expect(sym('VERSION').doc).toBeNull();
  });

  it('records signatures, parameters, visibility, static and attributes', () => {
    expect(sym('Product').signature).toBe('final class Product extends Entity implements Priced, \\JsonSerializable'); // #[Audited] is in annotations
    expect(sym('Product').annotations).toEqual(['Audited']);
    const ctor = sym('Product.__construct');
    expect(ctor.signature).toBe('public function __construct(string $name, private int $cents, public Status $status = Status::Active)');
    expect(ctor.params).toEqual(['string $name', 'private int $cents', 'public Status $status = Status::Active']);
    expect(sym('Entity.validate').signature).toBe('abstract protected function validate(): bool');
    expect(sym('Priced.price').signature).toBe('public function price(): float');
    expect(sym('Status.Active').signature).toBe("case Active = 'active'");
    expect(sym('Product.TABLE').signature).toBe("TABLE = 'products'");
    expect(sym('SHOP_DEBUG').signature).toBe("define('SHOP_DEBUG', false)");

    expect(sym('Entity.validate').visibility).toBe('protected');
    expect(sym('Product.validate').visibility).toBe('protected');
    expect(sym('Product.price').visibility).toBe('public');
    expect(sym('HasName.name').visibility).toBe('public');
    expect(sym('Product.TABLE').visibility).toBe('public');
    // `private const MAX_DISCOUNT = 50, MIN_PRICE = 1;`: both elements take the declaration's modifier.
    expect(sym('Product.MAX_DISCOUNT').visibility).toBe('private');
    expect(sym('Product.MIN_PRICE').visibility).toBe('private');
    expect(sym('log_message').visibility).toBe('public');
    expect(sym('log_message').exported).toBe(true);

    expect(sym('Product.free').isStatic).toBe(true);
    expect(sym('Entity.table').isStatic).toBe(true);
    expect(sym('Cache.has').isStatic).toBe(true);
    expect(sym('Product.price').isStatic).toBe(false);
    expect(sym('ProductServiceTest.freeProductsCostNothing').annotations).toEqual(['Test']);
    expect(sym('ProductServiceTest.discountIsCapped').annotations).toEqual(['test']); // the PHPDoc tag
  });

  it('marks test classes and test methods (test*, @test, #[Test]) in test files', () => {
    expect(sym('ProductServiceTest').isTest).toBe(true);
    expect(sym('ProductServiceTest.testCreate').isTest).toBe(true);
    expect(sym('ProductServiceTest.discountIsCapped').isTest).toBe(true);
    expect(sym('ProductServiceTest.freeProductsCostNothing').isTest).toBe(true);
    expect(sym('ProductServiceTest.setUp').isTest).toBe(false);
    expect(sym('ProductService.create').isTest).toBe(false);
    expect(fileByPath(ix.db, 'tests/ProductServiceTest.php')!.isTest).toBe(true);
    expect(fileByPath(ix.db, 'src/Model/Product.php')!.isTest).toBe(false);
  });

  it('parses use statements (plain, aliased, grouped, function) into one spec per name', () => {
    const service = fileByPath(ix.db, 'src/Service/ProductService.php')!;
    expect(importsOfFile(ix.db, service.id).map((i) => [i.module, i.names, i.line])).toEqual([
      ['Shop\\Model', [{ name: 'Product' }], 5],
      ['Shop\\Model', [{ name: 'Status' }], 5],
      ['Shop\\Repo', [{ name: 'Repository', alias: 'Store' }], 6],
      ['Shop\\Support', [{ name: 'Cache' }], 7],
      ['Psr\\Log', [{ name: 'LoggerInterface' }], 8],
      ['Shop\\Support', [{ name: 'format_price' }], 10],
    ]);
    const boot = fileByPath(ix.db, 'lib/bootstrap.php')!;
    expect(importsOfFile(ix.db, boot.id).map((i) => [i.module, i.wildcard])).toEqual([
      ['./support/helpers.php', true],
      ['vendor/autoload.php', true],
    ]);
  });

  it('resolves imports through composer PSR-4 and require paths, and keeps unknown namespaces external', () => {
    expect(edgeLines(ix.db, 'imports', { files: true })).toEqual([
      'lib/bootstrap.php:lib/bootstrap -> external:vendor/autoload.php',
      'lib/bootstrap.php:lib/bootstrap -> lib/support/helpers.php:lib/support/helpers',
      'src/Model/Product.php:src/Model/Product -> src/Support/Cache.php:Cache',
      'src/Repo/Repository.php:src/Repo/Repository -> src/Model/Entity.php:Entity',
      'src/Repo/Repository.php:src/Repo/Repository -> src/Model/Product.php:Product',
      'src/Repo/Repository.php:src/Repo/Repository -> src/Support/functions.php:log_message', // use function
      'src/Service/ProductService.php:src/Service/ProductService -> external:Psr\\Log',
      'src/Service/ProductService.php:src/Service/ProductService -> src/Model/Product.php:Product',
      'src/Service/ProductService.php:src/Service/ProductService -> src/Model/Status.php:Status',
      'src/Service/ProductService.php:src/Service/ProductService -> src/Repo/Repository.php:Repository',
      'src/Service/ProductService.php:src/Service/ProductService -> src/Support/Cache.php:Cache',
      'src/Service/ProductService.php:src/Service/ProductService -> src/Support/functions.php:format_price',
      'src/routes.php:src/routes -> src/Service/ProductService.php:ProductService',
      'tests/ProductServiceTest.php:tests/ProductServiceTest -> external:PHPUnit\\Framework\\Attributes', // use …\Test
      'tests/ProductServiceTest.php:tests/ProductServiceTest -> src/Model/Product.php:Product',
      'tests/ProductServiceTest.php:tests/ProductServiceTest -> src/Service/ProductService.php:ProductService',
    ]);
  });

  it('resolves calls: functions, $this, self/static/parent, Foo::, new, typed and promoted receivers', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'BaseService.audit -> log_message 0.5', // \Shop\Support\log_message(): no import, a unique global name
      'Cache.put -> InvalidArgumentException 0.85', // new InvalidArgumentException: the namespace's own
      'Cache.put -> log_message 0.85', // same namespace directory, no `use` needed
      'Entity.save -> Entity.validate 0.9', // $this->validate()
      'Half.method -> before 0.95',
      'Product.describe -> HasName.name 0.8', // $this->name() comes from the trait
      'Product.describe -> Status.isVisible 0.9', // promoted `public Status $status` -> $this->status
      'Product.discounted -> Product.price 0.9',
      'Product.jsonSerialize -> HasName.name 0.8',
      'Product.jsonSerialize -> Product.price 0.9',
      'Product.validate -> Cache.has 0.9', // Cache::has() through `use Shop\Support\Cache`
      'ProductService.__construct -> BaseService.__construct 0.8', // parent::__construct()
      'ProductService.create -> Cache.put 0.9',
      'ProductService.create -> Product 0.9', // new Product()
      'ProductService.create -> Repository.store 0.9', // $this->store: promoted `private Store $store`, Store an alias
      'ProductService.hide -> BaseService.audit 0.8',
      'ProductService.hide -> Product.discounted 0.9', // typed parameter Product $product
      'ProductService.hide -> ProductService.make 0.9', // static::make()
      'ProductService.label -> Product.describe 0.5', // $found?->describe(): type unknown, a unique method name
      'ProductService.label -> Repository.find 0.9',
      'ProductService.label -> format_price 0.9', // use function
      'ProductService.make -> Repository 0.9', // new Store() with `Repository as Store`
      'ProductServiceTest.discountIsCapped -> Product 0.9',
      'ProductServiceTest.discountIsCapped -> Product.discounted 0.9', // $product = new Product()
      'ProductServiceTest.freeProductsCostNothing -> Product.discounted 0.5',
      'ProductServiceTest.freeProductsCostNothing -> Product.free 0.9',
      'ProductServiceTest.setUp -> ProductService.make 0.9',
      'ProductServiceTest.testCreate -> Priced.price 0.25', // $product->price(): two methods of that name
      'ProductServiceTest.testCreate -> Product.price 0.25',
      'ProductServiceTest.testCreate -> ProductService.create 0.9', // typed property `ProductService $service`
      'ProductServiceTest.testCreate -> TestCase.product 0.8',
      'Repository.find -> HasName.name 0.8', // `$row instanceof Product` narrows $row
      'Repository.store -> Entity.save 0.9', // typed parameter Entity $entity
      'Repository.store -> log_message 0.9',
      'ShopCart.onLoaded -> Entity.table 0.5',
      'TestCase.product -> Product 0.5', // new \Shop\Model\Product: looked up by its last name
      'after -> before 0.95',
      'boot -> legacy_title 0.9', // through require_once __DIR__ . '/support/helpers.php'
      'broken -> before 0.475', // inside a syntax-error region: lower confidence
      'lib/bootstrap -> boot 0.95', // top-level script code
      'templates/page -> format_price 0.5',
      'templates/page -> legacy_title 0.5',
    ]);
    // External: $this->logger?->info() (a ?LoggerInterface from Psr\Log) and the three assertSame() calls
    // (the test class's TestCase extends \PHPUnit\Framework\TestCase, so unknown $this/self methods are
    // PHPUnit's). Built-ins (trim, min, define…) and `new \InvalidArgumentException` (PHP's, not
    // Shop\Support's) stay unresolved; isset() is a language construct, not a call. So do WordPress's
    // functions (add_action…), Laravel's Route:: and Slim's $app-> in src/plugin.php and src/routes.php.
    expect(ix.summary.calls.php).toMatchObject({ total: 68, resolved: 42, external: 4, unresolved: 22 });
  });

  it('links subtypes, trait users and tests to what they exercise', () => {
    expect(edgeLines(ix.db, 'extends')).toEqual([
      'Product -> Entity',
      'Product -> HasName', // `use HasName;` counts as extends
      'ProductService -> BaseService',
      'ProductServiceTest -> TestCase', // tests/TestCase.php, not PHPUnit's: same namespace directory
      // TestCase extends \PHPUnit\Framework\TestCase: a dependency's, not itself (no edge)
    ]);
    expect(edgeLines(ix.db, 'implements')).toEqual(['Product -> Priced']); // \JsonSerializable is PHP's
    // `extends \InvalidArgumentException` names PHP's class: no edge (not even to the class itself).
    expect(edgeLines(ix.db, 'tests')).toEqual([
      'ProductServiceTest -> ProductService.make', // setUp is not a test: its class is
      'ProductServiceTest.discountIsCapped -> Product',
      'ProductServiceTest.discountIsCapped -> Product.discounted',
      'ProductServiceTest.freeProductsCostNothing -> Product.discounted',
      'ProductServiceTest.freeProductsCostNothing -> Product.free',
      'ProductServiceTest.testCreate -> Priced.price',
      'ProductServiceTest.testCreate -> Product.price',
      'ProductServiceTest.testCreate -> ProductService.create',
      'tests/ProductServiceTest -> src/Model/Product',
      'tests/ProductServiceTest -> src/Service/ProductService',
      'tests/TestCase -> Product', // TestCase.product is a helper, not a test: its file owns the edge
    ]);
  });

  it('indexes a file with syntax errors partially', () => {
    const broken = fileByPath(ix.db, 'src/broken.php')!;
    expect(broken.partial).toBe(true);
    expect(ix.summary.partial).toBe(1);
    expect(sym('after').inError).toBe(false);
    expect(sym('Half.method').inError).toBe(false);
  });
});

describe('php import resolver', () => {
  const repo = (files: Record<string, string>) => ({
    root: '/r',
    files: new Set(Object.keys(files).filter((f) => f.endsWith('.php'))),
    readText: (p: string) => files[p] ?? null,
  });

  it('falls back to Name.php files that declare the namespace when there is no composer.json', () => {
    const r = php.createImportResolver(repo({
      'lib/Acme/Mail/Mailer.php': '<?php\nnamespace Acme\\Mail;\nclass Mailer {}\n',
      'other/Mailer.php': '<?php\nnamespace Other;\nclass Mailer {}\n',
      'lib/Acme/Mail/functions.php': '<?php\nnamespace Acme\\Mail;\nfunction send() {}\n',
    }));
    const spec = (module: string, name: string) => ({ module, names: [{ name }], line: 1 });
    expect(r.resolveModule(spec('Acme\\Mail', 'Mailer'), 'x.php')).toEqual(['lib/Acme/Mail/Mailer.php']);
    expect(r.resolveModule(spec('Other', 'Mailer'), 'x.php')).toEqual(['other/Mailer.php']);
    expect(r.resolveModule(spec('Vendor\\Mail', 'Mailer'), 'x.php')).toBeNull(); // same file name, other namespace
    expect(r.resolveModule(spec('Acme\\Mail', 'send'), 'x.php')).toEqual(['lib/Acme/Mail/Mailer.php', 'lib/Acme/Mail/functions.php']);
  });

  it('resolves a use of a namespace (not a class) to that namespace\'s files', () => {
    const r = php.createImportResolver(repo({
      'src/Driver/API/ExceptionConverter.php': '<?php\nnamespace App\\Driver\\API;\ninterface ExceptionConverter {}\n',
      'src/Driver/API/MySQL/ExceptionConverter.php': '<?php\nnamespace App\\Driver\\API\\MySQL;\nclass ExceptionConverter {}\n',
    }));
    const spec = { module: 'App\\Driver\\API', names: [{ name: 'MySQL' }], line: 1 };
    expect(r.resolveModule(spec, 'src/Driver/X.php')).toEqual(['src/Driver/API/MySQL/ExceptionConverter.php']);
    expect(r.resolveMember!(spec, 'MySQL', 'src/Driver/X.php')).toEqual(['src/Driver/API/MySQL/ExceptionConverter.php']);
  });

  it('resolves qualified names absolutely or from the file\'s namespace, and knows outside ones', () => {
    const r = php.createImportResolver(repo({
      'src/Driver/Statement.php': '<?php\nnamespace App\\Driver;\nclass Statement {}\n',
      'src/Connection.php': '<?php\nnamespace App;\nclass Connection {}\n',
    }));
    const from = 'src/Connection.php';
    expect(r.resolveQualified!('App\\Driver\\Statement', from)).toEqual(['src/Driver/Statement.php']);
    expect(r.resolveQualified!('Driver\\Statement', from)).toEqual(['src/Driver/Statement.php']); // App\Driver\…
    expect(r.resolveQualified!('PHPUnit\\Framework\\TestCase', from)).toEqual([]); // a dependency's
    expect(r.resolveQualified!('Other\\Driver\\Missing', from)).toBeNull(); // a Driver directory exists: unknown
    expect(r.resolveQualified!('Statement', from)).toBeNull(); // not qualified
  });

  it('maps PSR-0 prefixes and global classes', () => {
    const r = php.createImportResolver(repo({
      'composer.json': '{"autoload": {"psr-0": {"Twig_": "lib/"}}}',
      'lib/Twig/Node.php': '<?php\nclass Twig_Node {}\n',
      'src/Legacy.php': '<?php\nclass Legacy {}\n',
    }));
    expect(r.resolveModule({ module: '\\', names: [{ name: 'Twig_Node' }], line: 1 }, 'x.php')).toEqual(['lib/Twig/Node.php']);
    expect(r.resolveModule({ module: '\\', names: [{ name: 'Legacy' }], line: 1 }, 'x.php')).toEqual(['src/Legacy.php']);
  });
});

describe('php shared scope', () => {
  it('is the directory, with mirrored src/ and tests/ roots seen as one namespace', () => {
    const key = (p: string) => php.sharedScopeKey!(p);
    expect(key('src/Monolog/Handler/StreamHandler.php')).toBe('Monolog/Handler');
    expect(key('tests/Monolog/Handler/StreamHandlerTest.php')).toBe('Monolog/Handler');
    expect(key('src/Model/Product.php')).not.toBe(key('src/Repo/Repository.php'));
    expect(key('src/broken.php')).toBe('src'); // a root of its own stays itself
    expect(key('Monolog/Logger.php')).toBe('Monolog');
  });
});

describe('php: overrides', () => {
  it("links each method to the one it overrides: methods implement the interface's and override the parent's, constructors included", () => {
    expect(edgeLines(ix.db, 'overrides', { confidence: true })).toEqual([
      'Product.price -> Priced.price 0.808',
      'Product.validate -> Entity.validate 0.808',
      'ProductService.__construct -> BaseService.__construct 0.808',
    ]);
  });
});

describe('php: registrations and data access', () => {
  it('links endpoints and registering code to their callbacks (registers), keeping the literal name as the target', () => {
    expect(edgeLines(ix.db, 'registers', { confidence: true })).toEqual([
      'GET /health -> ProductService.label [route:GET /health] 0.9',
      'GET /products/{id} -> ProductService.label [route:GET /products/{id}] 0.9',
      'GET /shop/v1/products/(?P<id>\\d+) -> shop_get_product [route:GET /shop/v1/products/(?P<id>\\d+)] 0.95',
      'POST /products -> ProductService.create [route:POST /products] 0.9',
      'ShopCart.boot -> ShopCart.onLoaded [action:shop_loaded] 0.9',
      'src/plugin -> ShopCart.render [shortcode:shop_cart] 0.9',
      'src/plugin -> external:action:wp_footer 1',
      'src/plugin -> shop_init [action:init] 0.95',
      'src/plugin -> shop_title [filter:the_title] 0.95',
    ]);
  });
  it('records the hooks and events fired by name (fires), to be joined with their registrations', () => {
    expect(edgeLines(ix.db, 'fires', { confidence: true })).toEqual([
      'shop_init -> external:action:shop_loaded 1',
      'shop_title -> external:filter:shop_title 1',
    ]);
  });
  it('links functions to the fields, constants and tables they read', () => {
    expect(edgeLines(ix.db, 'reads', { confidence: true })).toEqual([
      'BaseService.audit -> BaseService [name] 0.9',
      'Cache.has -> Cache [items] 0.9',
      'Cache.put -> Cache [items] 0.9',
      'Entity.table -> Entity [TABLE] 0.9',
      'HasName.name -> HasName [name] 0.9',
      'Product.__construct -> Status.Active 0.85',
      'Product.describe -> Product [status] 0.9',
      'Product.discounted -> Product.MAX_DISCOUNT 0.9',
      'Product.price -> Product [cents] 0.9',
      'Product.validate -> Product [cents] 0.9',
      'Product.validate -> Product [name] 0.9',
      'Product.validate -> Product.MIN_PRICE 0.9',
      'ProductService.create -> ProductService [logger] 0.9',
      'ProductService.create -> ProductService [store] 0.9',
      'ProductService.hide -> Status.Hidden 0.9',
      'ProductService.label -> ProductService [store] 0.9',
      'ProductServiceTest.testCreate -> ProductServiceTest [service] 0.9',
      'Repository.find -> Repository [rows] 0.9',
      'Repository.store -> Repository [rows] 0.9',
      'Status.isVisible -> Status.Active 0.9',
      'shop_get_product -> external:table:wp_shop_products 1',
    ]);
  });
  it('links functions to the fields, globals and tables they write', () => {
    expect(edgeLines(ix.db, 'writes', { confidence: true })).toEqual([
      'Product.__construct -> Product [name] 0.9',
      'ProductService.hide -> Product [status] 0.9',
      'ProductServiceTest.setUp -> ProductServiceTest [service] 0.9',
      'ShopCart.onLoaded -> ShopCart [table:shop_carts] 0.9',
    ]);
  });
});
