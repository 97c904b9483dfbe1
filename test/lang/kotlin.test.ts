import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';

// Golden expectations for fixtures/kotlin, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('kotlin');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

const M = 'src/main/kotlin/shop';

describe('kotlin extraction', () => {
  it('finds classes, interfaces, enums, objects, functions, companion members and top-level properties', () => {
    expect(symbolLines(ix.db)).toEqual([
      `constant MAX_DISCOUNT ${M}/models/Product.kt:6`,
      `interface Storable ${M}/models/Product.kt:9`,
      `method Storable.key ${M}/models/Product.kt:11`,
      `enum Kind ${M}/models/Product.kt:14`,
      `constant Kind.BOOK ${M}/models/Product.kt:14`,
      `constant Kind.PEN ${M}/models/Product.kt:14`,
      `class Base ${M}/models/Product.kt:16`,
      `method Base.touch ${M}/models/Product.kt:17`,
      `class Product ${M}/models/Product.kt:23`,
      `method Product.key ${M}/models/Product.kt:24`,
      `method Product.discounted ${M}/models/Product.kt:26`,
      `method Product.apply ${M}/models/Product.kt:31`,
      `method Product.sample ${M}/models/Product.kt:34`, // in the companion object
      `function clamp ${M}/models/Product.kt:38`,
      `class Log ${M}/service/Service.kt:7`, // object Log
      `method Log.line ${M}/service/Service.kt:9`,
      `class Repository ${M}/service/Service.kt:12`,
      `method Repository.store ${M}/service/Service.kt:13`,
      `class Service ${M}/service/Service.kt:18`,
      `method Service.sell ${M}/service/Service.kt:19`,
      `method Service.report ${M}/service/Service.kt:27`,
      'class ProductTest src/test/kotlin/shop/ProductTest.kt:7',
      'method ProductTest.discounted src/test/kotlin/shop/ProductTest.kt:8',
      'method ProductTest.helper src/test/kotlin/shop/ProductTest.kt:14',
    ]);
  });

  it('keeps KDoc, signatures, visibility and suspend', () => {
    expect(sym('Product').doc).toBe('A thing for sale.');
    expect(sym('Storable.key').doc).toBe('The storage key.');
    expect(sym('MAX_DISCOUNT').doc).toBe('Largest discount, in percent.'); // parsed inside the last import
    expect(sym('Product').signature).toBe('data class Product(val name: String, val price: Double) : Base(), Storable');
    expect(sym('Product.discounted').signature).toBe('fun discounted(pct: Double): Double');
    expect(sym('Product.discounted').params).toEqual(['pct: Double']);
    expect(sym('Product.apply').visibility).toBe('private');
    expect(sym('Base.touch').visibility).toBe('protected');
    expect(sym('Service.report').visibility).toBe('internal');
    expect(sym('Service.sell').isAsync).toBe(true);
    expect(sym('Service').isAsync).toBe(false); // its body holds a suspend fun; the class is not one
    expect(findSymbolsByRef(ix.db, 'shop.models.Product').map((s) => s.kind)).toEqual(['module']);
  });

  it('resolves imports to the files that declare the package; aliases and wildcards', () => {
    const service = fileByPath(ix.db, `${M}/service/Service.kt`)!;
    expect(importsOfFile(ix.db, service.id).map((i) => [i.module, i.names])).toEqual([
      ['shop.models', [{ name: 'Product' }]],
      ['shop.models', [{ name: 'Storable' }]],
      ['shop.models', [{ name: 'clamp', alias: 'limit' }]],
    ]);
    expect(edgeLines(ix.db, 'imports')).toEqual([
      'shop.ProductTest -> external:kotlin.test',
      'shop.ProductTest -> external:org.junit.jupiter.api',
      'shop.ProductTest -> shop.models.Product', // import shop.models.*
      'shop.models.Product -> external:kotlin.math',
      'shop.service.Service -> Product',
      'shop.service.Service -> Storable',
      'shop.service.Service -> clamp',
    ]);
  });

  it('resolves calls through this, constructor properties, parameters, locals, objects, companions and aliases', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'Product.discounted -> Base.touch 0.8', // inherited
      'Product.discounted -> Product.apply 0.95',
      'Product.sample -> Product 0.95',
      'ProductTest.discounted -> Product 0.9',
      'ProductTest.discounted -> Product.discounted 0.9',
      'ProductTest.helper -> clamp 0.9',
      'Repository.store -> Log.line 0.9', // an object
      'Repository.store -> Storable.key 0.9',
      'Service.report -> Log.line 0.9',
      'Service.report -> Product.discounted 0.9',
      'Service.report -> clamp 0.9', // `limit(…)`, imported as an alias
      'Service.sell -> Product 0.9',
      'Service.sell -> Product.sample 0.9', // companion
      'Service.sell -> Repository.store 0.9', // `private val repo: Repository`
      'Service.sell -> Service.report 0.9', // this.report
      'Service.sell -> Service.report 0.95',
    ]); // min, println, toString and assertEquals are the standard library's
    expect(edgeLines(ix.db, 'extends')).toEqual(['Product -> Base']);
    expect(edgeLines(ix.db, 'implements')).toEqual(['Product -> Storable']);
  });

  it('marks @Test functions and test classes', () => {
    expect(sym('ProductTest.discounted').isTest).toBe(true);
    expect(sym('ProductTest').isTest).toBe(true);
    expect(sym('ProductTest.helper').isTest).toBe(false);
    expect(sym('Product.discounted').isTest).toBe(false);
    expect(fileByPath(ix.db, 'src/test/kotlin/shop/ProductTest.kt')!.isTest).toBe(true);
  });
});
