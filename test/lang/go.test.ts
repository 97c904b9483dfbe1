import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';
import { assumedPackageName, go, modulePath, returnType } from '../../src/lang/go.js';
import type { ImportSpec, RepoView } from '../../src/lang/types.js';

// Golden expectations for fixtures/go, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('go');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('go extraction', () => {
  it('finds every definition with its kind, qualified name and line', () => {
    expect(symbolLines(ix.db)).toEqual([
      'function main cmd/shop/main.go:11',
      'struct Book models/book.go:4',
      'method Book.Key models/book.go:10',
      'method Book.Discounted models/book.go:15',
      'function SampleProduct models/helper_test.go:4',
      'struct List models/list.go:6',
      'method List.Push models/list.go:11', // generic receiver `*List[T]`
      'method List.Len models/list.go:16',
      'type Catalog models/list.go:20', // alias inside `type ( … )`
      'type PriceFunc models/list.go:23',
      'constant ErrEmpty models/list.go:27', // package-level var
      'constant defaultCatalog models/list.go:30',
      'constant width models/list.go:31', // `width, height = 80, 24`: one symbol per name
      'constant height models/list.go:31',
      'function NewCatalog models/list.go:35',
      'function Fill models/list.go:40',
      'function Collect models/list.go:48', // generic function
      'function Sample models/list.go:57',
      'constant MaxDiscount models/models.go:10',
      'type Kind models/models.go:13',
      'constant KindBook models/models.go:17',
      'constant KindPen models/models.go:18',
      'interface Storable models/models.go:22',
      'method Storable.Key models/models.go:24', // interface method spec
      'struct Base models/models.go:28',
      'method Base.Key models/models.go:33',
      'struct Product models/models.go:38',
      'function NewProduct models/models.go:45',
      'method Product.Discounted models/models.go:52',
      'method Product.apply models/models.go:59',
      'method Product.Label models/models.go:64', // value receiver
      'function TestDiscounted models/models_test.go:9',
      'function TestSample models/models_test.go:16',
      'function Testify models/models_test.go:23',
      'function before service/broken.go:3',
      'function broken service/broken.go:7',
      'function after service/broken.go:12',
      'function format service/format.go:8',
      'function Routes service/http.go:6',
      'endpoint GET /products/{id} service/http.go:7',
      'endpoint ANY /health service/http.go:8',
      'function health service/http.go:11',
      'method Service.handleProduct service/http.go:15',
      'function Count service/http.go:20',
      'struct Service service/service.go:15',
      'interface Pricer service/service.go:21',
      'method Pricer.Discounted service/service.go:23',
      'function NewService service/service.go:27',
      'method Service.Sell service/service.go:32',
      'method Service.Restock service/service.go:40',
      'method Service.report service/service.go:47',
      'function newTestService service/service_test.go:5',
      'function TestSell service/service_test.go:9',
      'function BenchmarkFormat service/service_test.go:16',
      'function ExampleService_Restock service/service_test.go:22',
      'function FuzzFormat service/service_test.go:27',
      'constant ErrMissing store/store.go:12', // `var _ Keeper = …` on line 14 is no symbol
      'interface Keeper store/store.go:17',
      'method Keeper.Put store/store.go:18',
      'method Keeper.Get store/store.go:19',
      'struct Repository store/store.go:23',
      'function NewRepository store/store.go:29',
      'method Repository.Put store/store.go:34',
      'method Repository.Get store/store.go:41',
      'constant Default store/store.go:50',
      'function Save store/store.go:53',
      'function Samples tools/gen/gen.go:7',
    ]);
  });

  it('attaches receiver methods to their type when the file defines it', () => {
    expect(sym('Product.Label').parentId).toBe(sym('Product').id);
    expect(sym('List.Push').parentId).toBe(sym('List').id);
    expect(sym('Storable.Key').parentId).toBe(sym('Storable').id);
  });

  it('keeps the first sentence of doc comments, package comments and grouped specs', () => {
    expect(sym('Base.Key').doc).toBe('Key returns the identifier.');
    expect(sym('Product').doc).toBe('Product is a thing for sale.');
    expect(sym('Storable.Key').doc).toBe('Key identifies the item.');
    expect(sym('KindBook').doc).toBe('KindBook is a printed book.');
    expect(sym('KindPen').doc).toBeNull(); // the comment above belongs to KindBook
    expect(sym('Catalog').doc).toBe('Catalog lists the products on sale.');
    expect(sym('PriceFunc').doc).toBe('PriceFunc computes a price.');
    expect(sym('ErrEmpty').doc).toBe('ErrEmpty is returned when a catalog has nothing to offer.');
    expect(sym('Product.apply').doc).toBeNull();
    // The package comment spans two lines; the licence header above it, after a blank line, is no doc.
    expect(sym('models/models').doc).toBe("Package models holds the shop's domain types.");
    expect(sym('service/format').doc).toBeNull(); // only a licence header
    expect(sym('models/list').doc).toBeNull();
  });

  it('records signatures, parameters and visibility by capitalisation', () => {
    expect(sym('Product.Discounted').signature).toBe('func (p *Product) Discounted(pct float64) float64');
    expect(sym('Product.Discounted').params).toEqual(['pct float64']);
    expect(sym('NewProduct').params).toEqual(['name string', 'price float64']);
    expect(sym('format').params).toEqual(['prefix, line string']);
    expect(sym('Storable.Key').signature).toBe('Key() string');
    expect(sym('Product').signature).toBe('type Product struct');
    expect(sym('List').signature).toBe('type List[T any] struct');
    expect(sym('Storable').signature).toBe('type Storable interface');
    expect(sym('Kind').signature).toBe('type Kind int');
    expect(sym('Catalog').signature).toBe('Catalog = List[*Product]');
    expect(sym('MaxDiscount').signature).toBe('const MaxDiscount = 50');
    expect(sym('ErrMissing').signature).toBe('var ErrMissing = errors.New("missing")');
    expect(sym('Product').visibility).toBe('public');
    expect(sym('Product.Discounted').visibility).toBe('public');
    expect(sym('Product.apply').visibility).toBe('package');
    expect(sym('format').visibility).toBe('package');
    expect(sym('defaultCatalog').visibility).toBe('package');
    expect(sym('NewProduct').exported).toBe(true);
    expect(sym('format').exported).toBe(false);
  });

  it('marks Test, Benchmark, Example and Fuzz functions of _test.go files as tests', () => {
    expect(sym('TestDiscounted').isTest).toBe(true);
    expect(sym('TestSell').isTest).toBe(true);
    expect(sym('BenchmarkFormat').isTest).toBe(true);
    expect(sym('ExampleService_Restock').isTest).toBe(true);
    expect(sym('FuzzFormat').isTest).toBe(true);
    expect(sym('Testify').isTest).toBe(false); // `Test` followed by a lower-case letter
    expect(sym('newTestService').isTest).toBe(false);
    expect(sym('SampleProduct').isTest).toBe(false);
    expect(fileByPath(ix.db, 'models/helper_test.go')!.isTest).toBe(true);
    expect(fileByPath(ix.db, 'models/models.go')!.isTest).toBe(false);
  });

  it('parses single, grouped, aliased, dot and blank imports', () => {
    const service = fileByPath(ix.db, 'service/service.go')!;
    expect(importsOfFile(ix.db, service.id).map((i) => [i.module, i.alias, i.wildcard])).toEqual([
      ['fmt', 'fmt', false],
      ['strings', null, true], // dot import: every name of the package
      ['embed', null, false], // blank import: no name
      ['example.com/shop/models', 'models', false],
      ['example.com/shop/store', 'store', false],
    ]);
    const store = fileByPath(ix.db, 'store/store.go')!;
    expect(importsOfFile(ix.db, store.id).map((i) => [i.module, i.alias])).toEqual([
      ['errors', 'errors'],
      ['sync', 'sync'],
      ['example.com/shop/models', 'm'],
    ]);
  });

  it('resolves imports through go.mod to every file of the package, nested modules included', () => {
    expect(edgeLines(ix.db, 'imports', { files: true })).toEqual([
      'cmd/shop/main.go:cmd/shop/main -> external:flag',
      'cmd/shop/main.go:cmd/shop/main -> external:os',
      'cmd/shop/main.go:cmd/shop/main -> service/broken.go:service/broken',
      'cmd/shop/main.go:cmd/shop/main -> service/format.go:service/format',
      'cmd/shop/main.go:cmd/shop/main -> service/http.go:service/http',
      'cmd/shop/main.go:cmd/shop/main -> service/service.go:service/service',
      'cmd/shop/main.go:cmd/shop/main -> tools/gen/gen.go:tools/gen/gen', // module example.com/devtools
      'models/list.go:models/list -> external:errors',
      'models/models.go:models/models -> external:fmt',
      // A test file sees the package's test files too (helper_test.go), never a test file otherwise.
      'models/models_test.go:models/models_test -> external:testing',
      'models/models_test.go:models/models_test -> models/book.go:models/book',
      'models/models_test.go:models/models_test -> models/helper_test.go:models/helper_test',
      'models/models_test.go:models/models_test -> models/list.go:models/list',
      'models/models_test.go:models/models_test -> models/models.go:models/models',
      'service/format.go:service/format -> external:fmt',
      'service/http.go:service/http -> external:net/http',
      'service/service.go:service/service -> external:embed',
      'service/service.go:service/service -> external:fmt',
      'service/service.go:service/service -> external:strings',
      'service/service.go:service/service -> models/book.go:models/book',
      'service/service.go:service/service -> models/list.go:models/list',
      'service/service.go:service/service -> models/models.go:models/models',
      'service/service.go:service/service -> store/store.go:store/store',
      'service/service_test.go:service/service_test -> external:testing',
      'store/store.go:store/store -> external:errors',
      'store/store.go:store/store -> external:sync',
      'store/store.go:store/store -> models/book.go:models/book',
      'store/store.go:store/store -> models/list.go:models/list',
      'store/store.go:store/store -> models/models.go:models/models',
      'tools/gen/gen.go:tools/gen/gen -> models/book.go:models/book',
      'tools/gen/gen.go:tools/gen/gen -> models/list.go:models/list',
      'tools/gen/gen.go:tools/gen/gen -> models/models.go:models/models',
    ]);
  });

  it('resolves calls by scope: package, imports, receivers, typed variables and constructions', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'BenchmarkFormat -> format 0.85', // same package, another file
      'Collect -> List 0.95', // &List[T]{}
      'Collect -> List.Push 0.9', // l := &List[T]{}; l.Push(it)
      'Default -> Repository 0.95', // `var Default = &Repository{…}`: a construction
      'ExampleService_Restock -> Service 0.85', // `&Service{…}` in a test file of the package
      'ExampleService_Restock -> Service.Restock 0.9', // svc := &Service{…}; svc.Restock()
      'Fill -> List.Len 0.5', // defaultCatalog = NewCatalog(): type unknown, name match only
      'Fill -> List.Push 0.5',
      'FuzzFormat -> format 0.85', // inside the fuzz target's function literal
      'NewCatalog -> Catalog 0.95',
      'NewProduct -> Product 0.95',
      'NewRepository -> Repository 0.95',
      'NewService -> NewRepository 0.9', // store.NewRepository()
      'NewService -> Service 0.95',
      'Product.Discounted -> Product.apply 0.9', // through the receiver p
      'Product.Label -> Base.Key 0.8', // promoted from the embedded Base
      'Repository.Put -> Storable.Key 0.9', // item m.Storable, through the aliased import
      'Sample -> Collect 0.95', // explicitly instantiated: Collect[*Product](…)
      'Sample -> List.Len 0.5', // through the call's result: name match only
      'Sample -> NewProduct 0.85',
      'SampleProduct -> NewProduct 0.85',
      'Samples -> NewProduct 0.9', // from the nested module
      'Save -> Repository.Put 0.9', // the package-level var Default is bound to Repository
      'Service.Restock -> Catalog 0.9', // new(models.Catalog)
      'Service.Restock -> Fill 0.9',
      'Service.Restock -> List.Len 0.5', // c is a Catalog, an alias: its methods are not followed
      'Service.Restock -> List.Push 0.5',
      'Service.Restock -> NewProduct 0.9',
      'Service.Restock -> Service.report 0.9',
      'Service.Sell -> NewProduct 0.9',
      'Service.Sell -> Product.Label 0.9', // var p *models.Product
      'Service.Sell -> Repository.Put 0.8', // promoted from the embedded *store.Repository
      'Service.Sell -> format 0.85',
      'TestDiscounted -> NewProduct 0.9',
      'TestDiscounted -> Product.Discounted 0.9', // p := models.NewProduct(…), declared to return *Product
      'TestSample -> Product.Label 0.9',
      'TestSample -> SampleProduct 0.9', // a test file of the imported package
      'TestSell -> Service.Sell 0.9', // s := newTestService(), a function of the test file
      'TestSell -> newTestService 0.95',
      'after -> before 0.95',
      'broken -> before 0.475', // inside a syntax-error region: lower confidence
      'defaultCatalog -> NewCatalog 0.95',
      'main -> NewService 0.9',
      'main -> Samples 0.9',
      'main -> Service.Sell 0.9', // svc := service.NewService(…)
      'newTestService -> NewService 0.85',
    ]);
    // Calls through external packages and values they return (f.Close(), err.Error(), t.Fatal())
    // and builtins (len, append) make no edge; r.mu.Lock(), ToUpper (dot import of strings) and
    // println stay unresolved.
    expect(ix.summary.calls.go).toMatchObject({ total: 73, resolved: 47, external: 19, unresolved: 7 });
  });

  it('links a method to the one it shadows through embedding (overrides), nearest embedded type first', () => {
    expect(edgeLines(ix.db, 'overrides', { confidence: true })).toEqual([
      'Book.Discounted -> Product.Discounted 0.808',
      'Book.Key -> Base.Key 0.767', // promoted from Base through Product: two levels
    ]);
  });

  it('links embedding as extends, never inventing implements', () => {
    expect(edgeLines(ix.db, 'extends')).toEqual([
      'Book -> Product',
      'Pricer -> Storable', // interface embedding models.Storable
      'Product -> Base',
      'Service -> Repository', // *store.Repository
    ]);
    expect(edgeLines(ix.db, 'implements')).toEqual([]);
  });

  it('links tests to what they exercise', () => {
    expect(edgeLines(ix.db, 'tests')).toEqual([
      'BenchmarkFormat -> format',
      'ExampleService_Restock -> Service',
      'ExampleService_Restock -> Service.Restock',
      'FuzzFormat -> format',
      'TestDiscounted -> NewProduct',
      'TestDiscounted -> Product.Discounted',
      'TestSample -> Product.Label',
      'TestSell -> Service.Sell',
      'models/helper_test -> NewProduct', // helper code in a test file: attributed to the file
      'models/models_test -> models/book',
      'models/models_test -> models/list',
      'models/models_test -> models/models',
      'service/service_test -> NewService',
    ]);
  });

  it('indexes a file with syntax errors partially', () => {
    const broken = fileByPath(ix.db, 'service/broken.go')!;
    expect(broken.partial).toBe(true);
    expect(ix.summary.partial).toBe(1);
    expect(sym('after').inError).toBe(false);
    expect(sym('broken').inError).toBe(false);
  });
});

describe('go import paths', () => {
  it('assumes the package name Go tooling assumes', () => {
    expect(assumedPackageName('fmt')).toBe('fmt');
    expect(assumedPackageName('net/http')).toBe('http');
    expect(assumedPackageName('github.com/jackc/pgx/v5')).toBe('pgx');
    expect(assumedPackageName('gopkg.in/yaml.v3')).toBe('yaml');
    expect(assumedPackageName('github.com/mattn/go-isatty')).toBe('isatty');
    expect(assumedPackageName('github.com/nats-io/nats.go')).toBe('nats');
    expect(assumedPackageName('example.com/v2')).toBe('example'); // the element before /v2, cut at the dot
  });

  it('reads the first result type of a signature', () => {
    expect(returnType('func NewClient(conn *ssh.Client, opts ...Option) (*Client, error)')).toBe('*Client');
    expect(returnType('func (c *Command) Root() *Command')).toBe('*Command');
    expect(returnType('func Collect[T any](items ...T) *List[T]')).toBe('*List[T]');
    expect(returnType('func Open() (f *File, err error)')).toBe('*File');
    expect(returnType('func Pair() (a, b int)')).toBeNull(); // named results: the type comes later
    expect(returnType('func Lookup(k string) (*Entry, bool)')).toBe('*Entry');
    // `c, s := Pipe()` binds both names to the call: a second result with methods makes it unusable.
    expect(returnType('func Pipe() (*Client, *Server)')).toBeNull();
    expect(returnType('func Run(f func() (int, error))')).toBeNull();
    expect(returnType('func main()')).toBeNull();
  });

  it('reads the module path of go.mod', () => {
    expect(modulePath('// comment\nmodule example.com/shop\n\ngo 1.21\n')).toBe('example.com/shop');
    expect(modulePath('module "example.com/quoted"\n')).toBe('example.com/quoted');
    expect(modulePath('go 1.21\n')).toBeNull();
  });

  it('maps import paths to package directories, respecting nested modules', () => {
    const texts: Record<string, string> = {
      'go.mod': 'module example.com/app\n',
      'plugins/go.mod': 'module example.com/plugins\n',
    };
    const repo: RepoView = {
      root: '/repo',
      files: new Set(['main.go', 'lib/a.go', 'lib/b.go', 'lib/a_test.go', 'plugins/p/p.go', 'README.md']),
      readText: (p) => texts[p] ?? null,
    };
    const resolver = go.createImportResolver(repo);
    const spec = (module: string): ImportSpec => ({ module, names: [], line: 1 });
    expect(resolver.resolveModule(spec('example.com/app/lib'), 'main.go')).toEqual(['lib/a.go', 'lib/b.go']);
    expect(resolver.resolveModule(spec('example.com/app/lib'), 'x_test.go')).toEqual(['lib/a.go', 'lib/b.go', 'lib/a_test.go']);
    expect(resolver.resolveModule(spec('example.com/app'), 'lib/a.go')).toEqual(['main.go']);
    expect(resolver.resolveModule(spec('example.com/plugins/p'), 'main.go')).toEqual(['plugins/p/p.go']);
    // plugins/ is a module of its own: not part of example.com/app whatever the path says.
    expect(resolver.resolveModule(spec('example.com/app/plugins/p'), 'main.go')).toBeNull();
    expect(resolver.resolveModule(spec('example.com/app/missing'), 'main.go')).toBeNull();
    expect(resolver.resolveModule(spec('fmt'), 'main.go')).toBeNull();
    expect(resolver.resolveModule(spec('example.com/application'), 'main.go')).toBeNull();
  });
});

describe('go: registrations and data access', () => {
  it('links endpoints and registering code to their callbacks (registers), keeping the literal name as the target', () => {
    expect(edgeLines(ix.db, 'registers', { confidence: true })).toEqual([
      'ANY /health -> health [route:ANY /health] 0.95',
      'GET /products/{id} -> Service.handleProduct [route:GET /products/{id}] 0.9',
    ]);
  });
  it('records the hooks and events fired by name (fires), to be joined with their registrations', () => {
    expect(edgeLines(ix.db, 'fires', { confidence: true })).toEqual([]);
  });
  it('links functions to the fields, constants and tables they read', () => {
    expect(edgeLines(ix.db, 'reads', { confidence: true })).toEqual([
      'Base.Key -> Base [ID] 0.95',
      'Book.Discounted -> Book [Price] 0.95',
      'Book.Key -> Book [Author] 0.95',
      'Book.Key -> Book [ID] 0.95',
      'Count -> Product [table:products] 0.6',
      'List.Len -> List [items] 0.95',
      'List.Push -> List [items] 0.95',
      'Product.Label -> Product [Name] 0.95',
      'Product.apply -> Product [Price] 0.95',
      'Repository.Get -> Repository [items] 0.95',
      'Repository.Put -> Repository [items] 0.95',
      'Repository.Put -> Repository [mu] 0.95',
      'Service.Sell -> Service [prefix] 0.95',
    ]);
  });
  it('links functions to the fields, globals and tables they write', () => {
    expect(edgeLines(ix.db, 'writes', { confidence: true })).toEqual([
      'List.Push -> List [items] 0.95',
      'NewProduct -> Product [ID] 0.95',
      'Service.handleProduct -> Service [prefix] 0.85',
    ]);
  });
});
