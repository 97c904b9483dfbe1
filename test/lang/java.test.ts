import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';

// Golden expectations for fixtures/java (a Maven layout), written by hand from reading the fixture.
const M = 'src/main/java/com/acme/shop';
const T = 'src/test/java/com/acme/shop';

let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('java');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('java extraction', () => {
  it('finds every definition with its kind, qualified name and line', () => {
    expect(symbolLines(ix.db)).toEqual([
      `class ProductRow ${M}/data/ProductRow.java:4`,
      `enum Category ${M}/model/Category.java:4`,
      `constant Category.FOOD ${M}/model/Category.java:5`,
      `constant Category.DRINK ${M}/model/Category.java:6`,
      `constant Category.OTHER ${M}/model/Category.java:7`,
      `method Category.isRestricted ${M}/model/Category.java:9`,
      `class Entity ${M}/model/Entity.java:6`,
      `method Entity.save ${M}/model/Entity.java:10`,
      `method Entity.validate ${M}/model/Entity.java:14`,
      `method Entity.getId ${M}/model/Entity.java:16`,
      `class Money ${M}/model/Money.java:4`,
      `method Money.Money ${M}/model/Money.java:5`, // compact constructor
      `method Money.plus ${M}/model/Money.java:11`,
      `interface Named ${M}/model/Named.java:4`,
      `method Named.name ${M}/model/Named.java:5`,
      `interface Priced ${M}/model/Priced.java:4`,
      `constant Priced.MAX_PRICE ${M}/model/Priced.java:5`, // interface fields are constants
      `method Priced.price ${M}/model/Priced.java:7`,
      `method Priced.isFree ${M}/model/Priced.java:9`,
      `class Product ${M}/model/Product.java:11`,
      `constant Product.MAX_DISCOUNT ${M}/model/Product.java:12`, // static final; plain fields are not symbols
      `method Product.Product ${M}/model/Product.java:19`, // constructors are named after their class
      `method Product.free ${M}/model/Product.java:25`,
      `method Product.name ${M}/model/Product.java:29`, // the declaration starts at its @Override
      `method Product.price ${M}/model/Product.java:34`,
      `method Product.discounted ${M}/model/Product.java:39`,
      `method Product.apply ${M}/model/Product.java:45`,
      `method Product.validate ${M}/model/Product.java:51`,
      `class Product.Builder ${M}/model/Product.java:59`,
      `method Product.Builder.named ${M}/model/Product.java:62`,
      `method Product.Builder.build ${M}/model/Product.java:67`,
      `interface Audited ${M}/service/Audited.java:4`, // @interface
      `method Audited.value ${M}/service/Audited.java:5`,
      `class InMemoryRepository ${M}/service/InMemoryRepository.java:8`,
      `method InMemoryRepository.store ${M}/service/InMemoryRepository.java:11`,
      `method InMemoryRepository.find ${M}/service/InMemoryRepository.java:17`,
      `interface Repository ${M}/service/Repository.java:6`,
      `method Repository.store ${M}/service/Repository.java:7`,
      `method Repository.find ${M}/service/Repository.java:9`,
      `class ShopService ${M}/service/ShopService.java:13`,
      `constant ShopService.LOG ${M}/service/ShopService.java:14`,
      `method ShopService.ShopService ${M}/service/ShopService.java:18`,
      `method ShopService.ShopService ${M}/service/ShopService.java:22`,
      `method ShopService.create ${M}/service/ShopService.java:26`,
      `method ShopService.createFree ${M}/service/ShopService.java:34`,
      `method ShopService.createNamed ${M}/service/ShopService.java:40`,
      `method ShopService.total ${M}/service/ShopService.java:45`,
      `method ShopService.discountAll ${M}/service/ShopService.java:53`,
      `method ShopService.reporter ${M}/service/ShopService.java:58`,
      `method ShopService.reporter.run ${M}/service/ShopService.java:60`, // in an anonymous class
      `method ShopService.audit ${M}/service/ShopService.java:67`,
      `class Broken ${M}/util/Broken.java:4`,
      `method Broken.before ${M}/util/Broken.java:5`,
      `method Broken.broken ${M}/util/Broken.java:9`,
      `class Broken.Half ${M}/util/Broken.java:14`,
      `method Broken.Half.method ${M}/util/Broken.java:15`,
      `method Broken.after ${M}/util/Broken.java:20`,
      `class Strings ${M}/util/Strings.java:6`,
      `constant Strings.SEPARATOR ${M}/util/Strings.java:8`,
      `method Strings.Strings ${M}/util/Strings.java:10`,
      `method Strings.slug ${M}/util/Strings.java:14`,
      `method Strings.describe ${M}/util/Strings.java:18`,
      `method Strings.describe ${M}/util/Strings.java:22`, // an overload
      `class ProductController ${M}/web/ProductController.java:7`,
      `method ProductController.ProductController ${M}/web/ProductController.java:12`,
      `method ProductController.get ${M}/web/ProductController.java:16`,
      `endpoint GET /api/products/{id} ${M}/web/ProductController.java:16`, // the annotation, inside its method
      `method ProductController.create ${M}/web/ProductController.java:21`,
      `endpoint POST /api/products ${M}/web/ProductController.java:21`, // a bare @PostMapping: the class's prefix
      `method ProductController.search ${M}/web/ProductController.java:26`,
      `endpoint GET /api/products/search ${M}/web/ProductController.java:26`, // @RequestMapping(value =, method =)
      `class ShopResource ${M}/web/ShopResource.java:4`,
      `method ShopResource.index ${M}/web/ShopResource.java:6`,
      `endpoint GET /shop ${M}/web/ShopResource.java:6`, // JAX-RS: @GET under the class's @Path
      `method ShopResource.remove ${M}/web/ShopResource.java:11`,
      `endpoint DELETE /shop/{id} ${M}/web/ShopResource.java:11`, // @DELETE with @Path("/{id}")
      `method ShopResource.add ${M}/web/ShopResource.java:16`,
      `endpoint POST /shop/items ${M}/web/ShopResource.java:16`,
      `method ShopResource.add ${M}/web/ShopResource.java:22`, // an overload, with a route of its own
      `endpoint POST /shop/batch ${M}/web/ShopResource.java:22`,
      `class ProductTest ${T}/model/ProductTest.java:6`,
      `method ProductTest.testDiscountIsCapped ${T}/model/ProductTest.java:7`,
      `method ProductTest.testBuilder ${T}/model/ProductTest.java:13`,
      `method ProductTest.lamp ${T}/model/ProductTest.java:18`,
      `class ShopServiceTest ${T}/service/ShopServiceTest.java:10`,
      `method ShopServiceTest.setUp ${T}/service/ShopServiceTest.java:13`,
      `method ShopServiceTest.createStoresTheProduct ${T}/service/ShopServiceTest.java:18`,
      `method ShopServiceTest.freeProductsCostNothing ${T}/service/ShopServiceTest.java:24`,
      `method ShopServiceTest.slugJoinsWords ${T}/service/ShopServiceTest.java:29`,
    ]);
  });

  it('names modules by package and keeps the first sentence of Javadoc', () => {
    expect(findSymbolsByRef(ix.db, 'com.acme.shop.model.Product').map((s) => [s.kind, s.file]))
      .toEqual([['module', `${M}/model/Product.java`]]);
    expect(sym('Entity').doc).toBe('Something that can be stored.');
    expect(sym('Entity.save').doc).toBe('Persist the entity.');
    expect(sym('Product').doc).toBe('A thing for sale.'); // the @see tag is not part of it
    expect(sym('Product.free').doc).toBe('A product that costs nothing.');
    expect(sym('Product.Builder').doc).toBe('Builds products step by step.');
    expect(sym('Strings.SEPARATOR').doc).toBe('Separator between the words of a slug.');
    expect(sym('Audited').doc).toBe('Marks operations that are written to the audit log.');
    expect(sym('Strings.slug').doc).toBe('Lower-case words joined by SEPARATOR, as in "blue-pen".'); // inline tags
    expect(findSymbolsByRef(ix.db, 'com.acme.shop.model.package-info')[0].doc)
      .toBe('What the shop sells: products and their categories.'); // not the license header
    expect(sym('Product.discounted').doc).toBeNull(); // a comment inside the body
    expect(sym('Product.name').doc).toBeNull(); // an annotation, no comment
  });

  it('records signatures without annotations, parameters, visibility, static and annotations', () => {
    const ctor = sym('Product.Product');
    expect(ctor.signature).toBe('public Product(String name, long price)');
    expect(ctor.params).toEqual(['String name', 'long price']);
    expect(sym('Product').signature).toBe('public class Product extends Entity implements Priced');
    expect(sym('InMemoryRepository').signature)
      .toBe('public class InMemoryRepository<T extends Entity> implements Repository<T>');
    expect(sym('Money').signature).toBe('public record Money(long cents, String currency)');
    expect(sym('Money').params).toEqual(['long cents', 'String currency']);
    expect(sym('Product.name').signature).toBe('public String name()');
    expect(sym('Product.name').annotations).toEqual(['Override']);
    expect(sym('ShopService.create').signature).toBe('public Product create(String name, long price)');
    expect(sym('ShopService.create').annotations).toEqual(['Audited']);
    expect(sym('Entity.validate').signature).toBe('protected abstract void validate()');
    expect(sym('ShopService.LOG').signature).toBe('private static final Logger LOG = Logger.getLogger("shop")');
    expect(sym('Priced.MAX_PRICE').signature).toBe('long MAX_PRICE = 1_000_000');

    const vis = (ref: string) => sym(ref).visibility;
    expect(vis('Product')).toBe('public');
    expect(vis('Entity.validate')).toBe('protected');
    expect(vis('Product.apply')).toBe('private');
    expect(vis('Strings.Strings')).toBe('private');
    expect(vis('ShopServiceTest')).toBe('package');
    expect(vis('Broken.before')).toBe('package');
    expect(vis('Repository.store')).toBe('public'); // interface members
    expect(vis('Priced.MAX_PRICE')).toBe('public');
    expect(vis('Category.FOOD')).toBe('public'); // enum constants
    expect(sym('Product').exported).toBe(true);
    expect(sym('ShopServiceTest').exported).toBe(false); // package-private
    expect(sym('Product.Builder').exported).toBe(false); // only top-level types are exported

    expect(sym('Product.free').isStatic).toBe(true);
    expect(sym('Product.Builder').isStatic).toBe(true);
    expect(sym('Product.MAX_DISCOUNT').isStatic).toBe(true);
    expect(sym('Product.name').isStatic).toBe(false);
    expect(sym('Product.name').isAsync).toBe(false);
  });

  it('marks tests: @Test methods, JUnit 3 test methods, test classes', () => {
    expect(sym('ShopServiceTest.createStoresTheProduct').isTest).toBe(true);
    expect(sym('ShopServiceTest.slugJoinsWords').isTest).toBe(true);
    expect(sym('ShopServiceTest.setUp').isTest).toBe(false); // @BeforeEach
    expect(sym('ShopServiceTest').isTest).toBe(true);
    expect(sym('ProductTest.testDiscountIsCapped').isTest).toBe(true);
    expect(sym('ProductTest.lamp').isTest).toBe(false);
    expect(sym('Product.discounted').isTest).toBe(false);
    expect(fileByPath(ix.db, `${T}/model/ProductTest.java`)!.isTest).toBe(true);
    expect(fileByPath(ix.db, `${M}/model/Product.java`)!.isTest).toBe(false);
  });

  it('parses imports as module + name and resolves them to classes, members, packages, or outside', () => {
    const service = fileByPath(ix.db, `${M}/service/ShopService.java`)!;
    expect(importsOfFile(ix.db, service.id).map((i) => [i.module, i.names, i.wildcard])).toEqual([
      ['com.acme.shop.util.Strings', [{ name: 'slug' }], false], // import static
      ['com.acme.shop.model', [], true],
      ['com.acme.shop.model.Product', [{ name: 'Builder' }], false], // a nested class
      ['com.acme.shop.util', [{ name: 'Strings' }], false],
      ['java.util.logging', [{ name: 'Logger' }], false],
    ]);
    const svc = `${M}/service/ShopService.java:com.acme.shop.service.ShopService`;
    const test = `${T}/service/ShopServiceTest.java:com.acme.shop.service.ShopServiceTest`;
    expect(edgeLines(ix.db, 'imports', { files: true })).toEqual([
      `${M}/model/Product.java:com.acme.shop.model.Product -> external:java.util`,
      `${M}/service/InMemoryRepository.java:com.acme.shop.service.InMemoryRepository -> external:java.util`,
      `${M}/service/InMemoryRepository.java:com.acme.shop.service.InMemoryRepository -> ${M}/model/Entity.java:Entity`,
      `${M}/service/Repository.java:com.acme.shop.service.Repository -> ${M}/model/Entity.java:Entity`,
      `${svc} -> external:java.util.logging`,
      // The package wildcard: every main file of com.acme.shop.model, not the test in that package.
      `${svc} -> ${M}/model/Category.java:com.acme.shop.model.Category`,
      `${svc} -> ${M}/model/Entity.java:com.acme.shop.model.Entity`,
      `${svc} -> ${M}/model/Money.java:com.acme.shop.model.Money`,
      `${svc} -> ${M}/model/Named.java:com.acme.shop.model.Named`,
      `${svc} -> ${M}/model/Priced.java:com.acme.shop.model.Priced`,
      `${svc} -> ${M}/model/Product.java:com.acme.shop.model.Product`,
      `${svc} -> ${M}/model/Product.java:Product.Builder`,
      `${svc} -> ${M}/util/Strings.java:Strings`,
      `${svc} -> ${M}/util/Strings.java:Strings.slug`,
      `${M}/util/Strings.java:com.acme.shop.util.Strings -> ${M}/model/Priced.java:Priced`,
      `${M}/web/ProductController.java:com.acme.shop.web.ProductController -> ${M}/model/Product.java:Product`,
      `${M}/web/ProductController.java:com.acme.shop.web.ProductController -> ${M}/service/ShopService.java:ShopService`,
      `${T}/model/ProductTest.java:com.acme.shop.model.ProductTest -> external:junit.framework`,
      `${test} -> external:org.junit.jupiter.api`,
      `${test} -> external:org.junit.jupiter.api.Assertions`,
      `${test} -> ${M}/model/Product.java:Product`,
      `${test} -> ${M}/util/Strings.java:com.acme.shop.util.Strings`, // import static …Strings.*
    ].sort());
  });

  it('resolves calls: members, this/fields, typed locals, static imports, same package, constructors', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'Broken.Half.method -> Broken.before 0.95', // a member of the enclosing class
      'Broken.after -> Broken.before 0.95',
      'Broken.broken -> Broken.before 0.475', // inside a syntax-error region: lower confidence
      'Entity.save -> Entity.validate 0.95', // bare call of a member
      'InMemoryRepository.store -> Entity.getId 0.5', // `T item`: a type parameter, name match only
      'InMemoryRepository.store -> Entity.save 0.5',
      'Money.plus -> Money 0.95', // `new Money(...)` inside Money reaches the record, not its constructor
      'Priced.isFree -> Priced.price 0.95',
      'Product.Builder.build -> Product 0.95',
      'Product.discounted -> Product.apply 0.95', // Math.min is java.lang: external
      'Product.free -> Product 0.95',
      'Product.validate -> Category.isRestricted 0.9', // field `category` of a same-package type
      'ProductController.get -> ShopService.create 0.9',
      'ProductTest.lamp -> Product.free 0.9',
      'ProductTest.testBuilder -> Product.Builder 0.9', // new Product.Builder()
      'ProductTest.testBuilder -> Product.Builder.build 0.5', // on what named() returns: name match only
      'ProductTest.testBuilder -> Product.Builder.named 0.9', // on `new Product.Builder()`: its type
      'ProductTest.testBuilder -> Product.name 0.9',
      'ProductTest.testDiscountIsCapped -> Product 0.85', // same package, other source root
      'ProductTest.testDiscountIsCapped -> Product.discounted 0.9',
      'ProductTest.testDiscountIsCapped -> Product.price 0.9',
      'ShopService.ShopService -> InMemoryRepository 0.85', // same package, no import
      'ShopService.audit -> Product.name 0.9',
      'ShopService.create -> Product 0.9', // through `import com.acme.shop.model.*`
      'ShopService.create -> Repository.store 0.9', // this.repo: the field's declared type
      // Strings.describe(): a static call through an import, to either overload of one method.
      'ShopService.create -> Strings.describe 0.9',
      'ShopService.create -> Strings.slug 0.9', // import static
      'ShopService.createFree -> Product.free 0.9',
      'ShopService.createFree -> Repository.store 0.9', // repo: the field without `this.`
      'ShopService.createNamed -> Product.Builder 0.9', // the imported nested class
      'ShopService.createNamed -> Product.Builder.build 0.5',
      'ShopService.createNamed -> Product.Builder.named 0.9',
      'ShopService.discountAll -> Product.discounted 0.5', // untyped lambda parameter
      'ShopService.discountAll -> ShopService.audit 0.9', // this::audit
      'ShopService.reporter.run -> ShopService.audit 0.95', // from an anonymous class
      'ShopService.total -> Product.price 0.9', // for (Product p : products)
      'ShopServiceTest.createStoresTheProduct -> Product.price 0.9',
      'ShopServiceTest.createStoresTheProduct -> ShopService.create 0.9', // field `service`
      'ShopServiceTest.freeProductsCostNothing -> Priced.price 0.25', // chained: two name matches
      'ShopServiceTest.freeProductsCostNothing -> Product.price 0.25',
      'ShopServiceTest.freeProductsCostNothing -> ShopService.createFree 0.9',
      'ShopServiceTest.setUp -> ShopService 0.85',
      'ShopServiceTest.slugJoinsWords -> Strings.slug 0.9', // import static …Strings.*
      'Strings.describe -> Named.name 0.8', // inherited: Priced extends Named
      'Strings.describe -> Priced.price 0.9',
      'Strings.describe -> Strings.describe 0.95', // the overload calling the other one
    ]);
  });

  it('counts calls into the JDK and imported libraries as external, not as name matches', () => {
    // External: Math.min, tags.add (List), new ArrayList/HashMap/IllegalStateException/
    // IllegalArgumentException/Runnable, Logger.getLogger, LOG.info/fine, items.put/get (Map),
    // products.forEach (Iterable) twice, text.trim (String), assertEquals three times (JUnit, imported).
    // Unresolved: other.cents() (a record accessor), the chained toLowerCase/replace on a String, and
    // assertEquals inherited from JUnit 3's TestCase (an unknown supertype).
    expect(ix.summary.calls.java).toMatchObject({ total: 69, resolved: 45, external: 18, unresolved: 6 });
  });

  it('links supertypes: extends, implements, interfaces extending interfaces', () => {
    expect(edgeLines(ix.db, 'extends')).toEqual(['Priced -> Named', 'Product -> Entity']);
    expect(edgeLines(ix.db, 'implements')).toEqual(['InMemoryRepository -> Repository', 'Product -> Priced']);
  });

  it('links tests to what they exercise', () => {
    expect(edgeLines(ix.db, 'tests')).toEqual([
      'ProductTest -> Product.free', // from the helper lamp(): attributed to the test class
      'ProductTest.testBuilder -> Product.Builder',
      'ProductTest.testBuilder -> Product.Builder.build',
      'ProductTest.testBuilder -> Product.Builder.named',
      'ProductTest.testBuilder -> Product.name',
      'ProductTest.testDiscountIsCapped -> Product',
      'ProductTest.testDiscountIsCapped -> Product.discounted',
      'ProductTest.testDiscountIsCapped -> Product.price',
      'ShopServiceTest -> ShopService', // from setUp()
      'ShopServiceTest.createStoresTheProduct -> Product.price',
      'ShopServiceTest.createStoresTheProduct -> ShopService.create',
      'ShopServiceTest.freeProductsCostNothing -> Priced.price',
      'ShopServiceTest.freeProductsCostNothing -> Product.price',
      'ShopServiceTest.freeProductsCostNothing -> ShopService.createFree',
      'ShopServiceTest.slugJoinsWords -> Strings.slug',
      'com.acme.shop.service.ShopServiceTest -> com.acme.shop.model.Product',
      'com.acme.shop.service.ShopServiceTest -> com.acme.shop.util.Strings',
    ]);
  });

  it('indexes a file with syntax errors partially', () => {
    const broken = fileByPath(ix.db, `${M}/util/Broken.java`)!;
    expect(broken.partial).toBe(true);
    expect(ix.summary.partial).toBe(1);
    expect(sym('Broken.after').inError).toBe(false);
    expect(sym('Broken.Half.method').inError).toBe(false);
  });
});

describe('java: overrides', () => {
  it("links each method to the one it overrides: methods override the superclass's and implement the interfaces', nearest level first", () => {
    expect(edgeLines(ix.db, 'overrides', { confidence: true })).toEqual([
      'InMemoryRepository.find -> Repository.find 0.808',
      'InMemoryRepository.store -> Repository.store 0.808',
      'Product.name -> Named.name 0.686', // Priced extends Named: two levels up
      'Product.price -> Priced.price 0.808',
      'Product.validate -> Entity.validate 0.808',
    ]);
  });
});

describe('java: registrations and data access', () => {
  it('links endpoints and registering code to their callbacks (registers), keeping the literal name as the target', () => {
    expect(edgeLines(ix.db, 'registers', { confidence: true })).toEqual([
      'DELETE /shop/{id} -> ShopResource.remove [route:DELETE /shop/{id}] 0.95',
      'GET /api/products/search -> ProductController.search [route:GET /api/products/search] 0.95',
      'GET /api/products/{id} -> ProductController.get [route:GET /api/products/{id}] 0.95',
      'GET /shop -> ShopResource.index [route:GET /shop] 0.95',
      'POST /api/products -> ProductController.create [route:POST /api/products] 0.95',
      'POST /shop/batch -> ShopResource.add [route:POST /shop/batch] 0.95',
      'POST /shop/items -> ShopResource.add [route:POST /shop/items] 0.95',
    ]);
  });
  it('links a route to the overload it annotates, not to every method of that name (dropwizard: six validExample routes)', () => {
    const rows = ix.db.prepare(`SELECT e.target AS target, d.start_line AS line FROM edges e JOIN symbols d ON d.id = e.dst_id
      WHERE e.kind = 'registers' AND d.qualified_name = 'ShopResource.add' ORDER BY e.target, d.start_line`).all();
    expect(rows).toEqual([{ target: 'route:POST /shop/batch', line: 22 }, { target: 'route:POST /shop/items', line: 16 }]);
  });
  it('records the hooks and events fired by name (fires), to be joined with their registrations', () => {
    expect(edgeLines(ix.db, 'fires', { confidence: true })).toEqual([]);
  });
  it('links functions to the fields, constants and tables they read', () => {
    expect(edgeLines(ix.db, 'reads', { confidence: true })).toEqual([
      'Category.isRestricted -> Category.DRINK 0.95',
      'Product.apply -> Product [price] 0.9',
      'Product.discounted -> Product.MAX_DISCOUNT 0.95',
      'ProductController.search -> ProductRow [table:products] 0.9',
      'ShopService.audit -> ShopService.LOG 0.95',
      'ShopService.create -> ShopService [repo] 0.9',
      'ShopService.create -> ShopService.LOG 0.95',
      'ShopServiceTest.slugJoinsWords -> Strings.SEPARATOR 0.9',
      'Strings.slug -> Strings.SEPARATOR 0.95',
    ]);
  });
  it('links functions to the fields, globals and tables they write', () => {
    expect(edgeLines(ix.db, 'writes', { confidence: true })).toEqual([
      'Product.Builder.named -> Product.Builder [name] 0.9',
      'Product.Product -> Product [name] 0.9',
      'Product.Product -> Product [price] 0.9',
      'ProductController.ProductController -> ProductController [service] 0.9',
      'ShopService.ShopService -> ShopService [repo] 0.9',
    ]);
  });
});
