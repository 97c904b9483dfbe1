import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';

// Golden expectations for fixtures/elixir, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('elixir');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('elixir extraction', () => {
  it("finds a module's functions (def, defp, one-line and zero-arity) and attributes", () => {
    expect(symbolLines(ix.db)).toEqual([
      'constant max_discount lib/shop/product.ex:10', // @max_discount 50
      'function new lib/shop/product.ex:13',
      'function discounted lib/shop/product.ex:19',
      'function apply_discount lib/shop/product.ex:25',
      'function sample lib/shop/product.ex:27',
      'function sell lib/shop/service.ex:5',
      'function report lib/shop/service.ex:13',
      'function log lib/shop/util.ex:3',
    ]);
    // The file's module is named as Mix lays files out.
    expect(sym('Shop.Product').doc).toBe('A thing for sale.'); // @moduledoc
  });

  it('keeps @doc and comments, signatures and defp as private', () => {
    expect(sym('new').doc).toBe('Creates a product.');
    expect(sym('discounted').doc).toBe('Computes a discounted price.'); // a heredoc
    expect(sym('apply_discount').doc).toBe('Not part of the API.'); // a comment
    expect(sym('new').signature).toBe('def new(name, price)');
    expect(sym('discounted').signature).toBe('def discounted(%__MODULE__{} = product, pct)');
    expect(sym('discounted').params).toEqual(['%__MODULE__{} = product', 'pct']);
    expect(sym('apply_discount').visibility).toBe('private');
    expect(sym('report').visibility).toBe('private');
    expect(sym('new').visibility).toBe('public');
  });

  it('resolves alias, import and use to the files that define the module', () => {
    const service = fileByPath(ix.db, 'lib/shop/service.ex')!;
    expect(importsOfFile(ix.db, service.id).map((i) => [i.module, i.alias, i.wildcard])).toEqual([
      ['Shop.Product', 'Product', false],
      ['Shop.Util', null, true],
    ]);
    expect(edgeLines(ix.db, 'imports')).toEqual([
      'Shop.Product -> Shop.Util',
      'Shop.ProductTest -> Shop.Product',
      'Shop.ProductTest -> external:ExUnit.Case',
      'Shop.Service -> Shop.Product',
      'Shop.Service -> Shop.Util',
    ]);
  });

  it('resolves local, aliased, imported, fully qualified and piped calls', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'Shop.ProductTest -> discounted 0.9', // inside `test "…" do`: the test file's
      'Shop.ProductTest -> sample 0.9',
      'discounted -> apply_discount 0.95',
      'discounted -> log 0.9', // Util.log through `alias Shop.Util`
      'report -> log 0.9', // Shop.Util.log: the module's full name
      'sample -> new 0.95',
      'sell -> discounted 0.9', // |> Product.discounted(5)
      'sell -> log 0.9', // log(…) through `import Shop.Util`
      'sell -> new 0.9',
      'sell -> report 0.95', // |> report()
    ]); // IO.puts, min, to_string and assert are Elixir's; `product.price` is a field
  });

  it('marks test files, whose test blocks call as the file', () => {
    expect(fileByPath(ix.db, 'test/shop/product_test.exs')!.isTest).toBe(true);
    expect(edgeLines(ix.db, 'tests')).toContain('Shop.ProductTest -> discounted');
  });
});
