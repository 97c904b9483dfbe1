import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';

// Golden expectations for fixtures/csharp, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('csharp');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('c# extraction', () => {
  it('finds types, members, constructors and constants, namespaces left out of names', () => {
    expect(symbolLines(ix.db)).toEqual([
      'interface IStorable src/Shop/Models/Product.cs:6',
      'method IStorable.Key src/Shop/Models/Product.cs:9',
      'enum Kind src/Shop/Models/Product.cs:12',
      'constant Kind.Book src/Shop/Models/Product.cs:12',
      'constant Kind.Pen src/Shop/Models/Product.cs:12',
      'class Product src/Shop/Models/Product.cs:17',
      'constant Product.MaxDiscount src/Shop/Models/Product.cs:19',
      'method Product.Product src/Shop/Models/Product.cs:21', // constructor
      'method Product.Key src/Shop/Models/Product.cs:30',
      'method Product.Discounted src/Shop/Models/Product.cs:32',
      'method Product.Apply src/Shop/Models/Product.cs:37',
      'method Product.Sample src/Shop/Models/Product.cs:39',
      'class Base src/Shop/Models/Product.cs:42',
      'method Base.Touch src/Shop/Models/Product.cs:44',
      'class Money src/Shop/Models/Product.cs:47', // a record
      'struct Point src/Shop/Models/Product.cs:49',
      'class Repository src/Shop/Services/Service.cs:7', // file-scoped namespace
      'method Repository.Store src/Shop/Services/Service.cs:11',
      'class Log src/Shop/Services/Service.cs:18',
      'method Log.Line src/Shop/Services/Service.cs:21',
      'class Service src/Shop/Services/Service.cs:24',
      'method Service.Service src/Shop/Services/Service.cs:28',
      'method Service.SellAsync src/Shop/Services/Service.cs:33',
      'method Service.Report src/Shop/Services/Service.cs:42',
      'class ProductTests tests/Shop.Tests/ProductTests.cs:6',
      'method ProductTests.Discounted_AppliesPercent tests/Shop.Tests/ProductTests.cs:8',
      'method ProductTests.Helper tests/Shop.Tests/ProductTests.cs:15',
    ]);
  });

  it('reads XML doc comments as words, and keeps signatures, modifiers and default access', () => {
    expect(sym('Product').doc).toBe('A thing for sale.'); // <summary> on lines of its own
    expect(sym('IStorable.Key').doc).toBe('The storage key.');
    expect(sym('Log.Line').doc).toBe('Writes one line.');
    expect(sym('Product.Discounted').signature).toBe('public decimal Discounted(decimal pct)');
    expect(sym('Product.Discounted').params).toEqual(['decimal pct']);
    expect(sym('Money').signature).toBe('public record Money(decimal Amount, string Currency)');
    expect(sym('Product.Apply').visibility).toBe('private');
    expect(sym('Product.Sample').visibility).toBe('internal');
    expect(sym('Base.Touch').visibility).toBe('protected');
    expect(sym('IStorable.Key').visibility).toBe('public'); // interface members
    expect(sym('Product.Sample').isStatic).toBe(true);
    expect(sym('Service.SellAsync').isAsync).toBe(true);
    expect(sym('ProductTests.Discounted_AppliesPercent').annotations).toEqual(['Fact']);
  });

  it('resolves usings to the files that declare the namespace; others are external', () => {
    const service = fileByPath(ix.db, 'src/Shop/Services/Service.cs')!;
    expect(importsOfFile(ix.db, service.id).map((i) => [i.module, i.alias, i.wildcard])).toEqual([
      ['System.Collections.Generic', null, true],
      ['Shop.Models', null, true],
      ['Shop.Models', 'M', false],
    ]);
    expect(edgeLines(ix.db, 'imports', { files: true })).toEqual([
      'src/Shop/Models/Product.cs:src/Shop/Models/Product -> external:System',
      'src/Shop/Services/Service.cs:src/Shop/Services/Service -> external:System.Collections.Generic',
      'src/Shop/Services/Service.cs:src/Shop/Services/Service -> src/Shop/Models/Product.cs:src/Shop/Models/Product',
      'tests/Shop.Tests/ProductTests.cs:tests/Shop.Tests/ProductTests -> external:Xunit',
      'tests/Shop.Tests/ProductTests.cs:tests/Shop.Tests/ProductTests -> src/Shop/Models/Product.cs:src/Shop/Models/Product',
    ]);
  });

  it('resolves calls through this, fields, parameters, var, aliases and static classes', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'Product.Discounted -> Product.Apply 0.95', // implicit this; Math.Min is the base library's
      'Product.Sample -> Product 0.95',
      'ProductTests.Discounted_AppliesPercent -> Product 0.85',
      'ProductTests.Discounted_AppliesPercent -> Product.Discounted 0.9', // var p = new Product(…)
      'ProductTests.Helper -> Product.Sample 0.9',
      'Repository.Store -> IStorable.Key 0.9', // a parameter of the interface type
      'Repository.Store -> Log.Line 0.9',
      'Service.Report -> Log.Line 0.9',
      'Service.Report -> Product.Discounted 0.9',
      'Service.SellAsync -> Product 0.85',
      'Service.SellAsync -> Product.Sample 0.9', // M.Product.Sample() through the alias
      'Service.SellAsync -> Repository.Store 0.9', // the field _repo
      'Service.SellAsync -> Service.Report 0.9', // this.Report
    ]);
    expect(edgeLines(ix.db, 'extends')).toEqual(['Product -> Base']);
    expect(edgeLines(ix.db, 'implements')).toEqual(['Product -> IStorable']); // from the base list, by the target's kind
  });

  it('marks [Fact] methods and test classes', () => {
    expect(sym('ProductTests.Discounted_AppliesPercent').isTest).toBe(true);
    expect(sym('ProductTests').isTest).toBe(true);
    expect(sym('ProductTests.Helper').isTest).toBe(false);
    expect(fileByPath(ix.db, 'tests/Shop.Tests/ProductTests.cs')!.isTest).toBe(true);
    expect(fileByPath(ix.db, 'src/Shop/Models/Product.cs')!.isTest).toBe(false);
  });
});
