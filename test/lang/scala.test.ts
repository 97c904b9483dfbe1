import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';

// Golden expectations for fixtures/scala, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('scala');
});
afterAll(() => ix?.db.close());

const sym = (ref: string, kind?: string) => {
  const found = findSymbolsByRef(ix.db, ref).filter((s) => !kind || s.signature.startsWith(kind));
  expect(found, ref).toHaveLength(1);
  return found[0];
};

const M = 'src/main/scala/shop';

describe('scala extraction', () => {
  it('finds classes, case classes, objects (companions too), traits, defs and object vals', () => {
    expect(symbolLines(ix.db)).toEqual([
      `trait Storable ${M}/models/Product.scala:6`,
      `method Storable.key ${M}/models/Product.scala:8`, // abstract
      `class Base ${M}/models/Product.scala:11`,
      `method Base.touch ${M}/models/Product.scala:12`,
      `class Product ${M}/models/Product.scala:16`,
      `method Product.key ${M}/models/Product.scala:17`,
      `method Product.discounted ${M}/models/Product.scala:19`,
      `method Product.apply ${M}/models/Product.scala:24`,
      `class Product ${M}/models/Product.scala:27`, // the companion object
      `constant Product.MaxDiscount ${M}/models/Product.scala:29`,
      `method Product.sample ${M}/models/Product.scala:31`,
      `class Limits ${M}/models/Product.scala:34`,
      `method Limits.clamp ${M}/models/Product.scala:35`,
      `class Log ${M}/service/Service.scala:6`,
      `method Log.line ${M}/service/Service.scala:8`,
      `class Repository ${M}/service/Service.scala:11`,
      `method Repository.store ${M}/service/Service.scala:12`,
      `class Service ${M}/service/Service.scala:17`,
      `method Service.sell ${M}/service/Service.scala:18`,
      `method Service.report ${M}/service/Service.scala:26`,
      'class ProductSpec src/test/scala/shop/ProductSpec.scala:6',
      'method ProductSpec.helper src/test/scala/shop/ProductSpec.scala:12',
    ]);
  });

  it('keeps Scaladoc, signatures without the `=` before the body, and visibility', () => {
    expect(sym('Product', 'case').doc).toBe('A thing for sale.');
    expect(sym('Storable.key').doc).toBe('The storage key.');
    expect(sym('Product.MaxDiscount').doc).toBe('Largest discount, in percent.');
    expect(sym('Product', 'case').signature).toBe('case class Product(name: String, price: Double) extends Base with Storable');
    expect(sym('Product.key').signature).toBe('def key: String');
    expect(sym('Product.discounted').signature).toBe('def discounted(pct: Double): Double');
    expect(sym('Product.discounted').params).toEqual(['pct: Double']);
    expect(sym('Product.apply').visibility).toBe('private');
    expect(sym('Service.report').visibility).toBe('private'); // private[service]
    expect(sym('Base.touch').visibility).toBe('protected');
  });

  it('resolves imports of packages and of objects, with selectors, renames and wildcards', () => {
    const service = fileByPath(ix.db, `${M}/service/Service.scala`)!;
    expect(importsOfFile(ix.db, service.id).map((i) => [i.module, i.names])).toEqual([
      ['shop.models', [{ name: 'Product' }, { name: 'Storable' }]],
      ['shop.models.Limits', [{ name: 'clamp', alias: 'limit' }]], // an object's member
    ]);
    expect(edgeLines(ix.db, 'imports')).toEqual([
      'shop.ProductSpec -> external:org.scalatest.funsuite',
      'shop.ProductSpec -> shop.models.Product', // import shop.models._
      'shop.models.Product -> external:scala.math',
      'shop.service.Service -> Limits.clamp',
      'shop.service.Service -> Product', // the class and its companion
      'shop.service.Service -> Storable',
    ]);
  });

  it('resolves calls through this, class parameters, companions, objects and renamed imports', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'Product.discounted -> Base.touch 0.8',
      'Product.discounted -> Product.apply 0.95',
      'Product.sample -> Product 0.95', // `new Product(…)`: the class and its companion share the name
      'ProductSpec -> Product 0.9', // inside `test("…") { … }`: the suite's
      'ProductSpec -> Product.discounted 0.9',
      'ProductSpec.helper -> Limits.clamp 0.9',
      'Repository.store -> Log.line 0.9',
      'Service.report -> Limits.clamp 0.9', // limit(…)
      'Service.report -> Log.line 0.9',
      'Service.report -> Product.discounted 0.9',
      'Service.sell -> Product 0.9',
      'Service.sell -> Product.sample 0.9', // the companion's
      'Service.sell -> Repository.store 0.9', // the class parameter `repo`
      'Service.sell -> Service.report 0.9',
      'Service.sell -> Service.report 0.95',
    ]); // min, println and assert are Scala's
    expect(edgeLines(ix.db, 'extends')).toEqual(['Product -> Base', 'Product -> Storable']);
  });

  it('marks suites in test folders', () => {
    expect(sym('ProductSpec').isTest).toBe(true);
    expect(sym('ProductSpec.helper').isTest).toBe(false);
    expect(fileByPath(ix.db, 'src/test/scala/shop/ProductSpec.scala')!.isTest).toBe(true);
    expect(edgeLines(ix.db, 'tests')).toContain('ProductSpec -> Product.discounted');
  });
});
