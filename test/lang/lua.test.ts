import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';

// Golden expectations for fixtures/lua, written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('lua');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('lua extraction', () => {
  it("finds a module's functions (the fields of the table it returns), methods, locals and constants", () => {
    expect(symbolLines(ix.db)).toEqual([
      'constant MAX_DISCOUNT shop/product.lua:9', // `local M = {}` itself is no constant
      'function clamp shop/product.lua:11',
      'function new shop/product.lua:16', // function M.new
      'method M.discounted shop/product.lua:22', // function M:discounted
      'method M.apply shop/product.lua:27',
      'function sell shop/service.lua:6',
      'function broken shop/service.lua:12',
      'function log shop/util.lua:4',
      'function shout shop/util.lua:8',
    ]);
  });

  it('keeps LDoc comments, the file comment, signatures and local visibility', () => {
    expect(sym('new').doc).toBe('Creates a product.');
    expect(sym('M.discounted').doc).toBe('Computes a discounted price.');
    expect(sym('MAX_DISCOUNT').doc).toBe('Largest discount, in percent.');
    expect(sym('shop.product').doc).toBe('Products for sale.');
    expect(sym('M.discounted').signature).toBe('function M:discounted(pct)');
    expect(sym('new').params).toEqual(['name', 'price']);
    expect(sym('clamp').visibility).toBe('private'); // local function
    expect(sym('new').visibility).toBe('public');
  });

  it('resolves require by module path; binds the module or one of its fields', () => {
    const service = fileByPath(ix.db, 'shop/service.lua')!;
    expect(importsOfFile(ix.db, service.id).map((i) => [i.module, i.alias, i.names])).toEqual([
      ['shop.product', 'product', []],
      ['shop.util', null, [{ name: 'log', alias: 'log' }]],
    ]);
    expect(edgeLines(ix.db, 'imports')).toEqual([
      'shop.product -> shop.util',
      'shop.service -> log',
      'shop.service -> shop.product',
      'spec.product_spec -> shop.product',
    ]);
  });

  it("resolves calls through required modules, the file's own table and self; methods by name", () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'M.discounted -> M.apply 0.5', // self:apply: the table is no type, a name match
      'M.discounted -> clamp 0.95',
      'M.discounted -> log 0.9', // util.log through the required module
      'sell -> M.discounted 0.5',
      'sell -> log 0.9', // the imported field
      'sell -> new 0.9', // product.new
      'shout -> log 0.9', // util.log inside util.lua: the file's own table
      'spec.product_spec -> M.discounted 0.5',
      'spec.product_spec -> new 0.9',
    ]); // print, math.min, string.upper, setmetatable, describe and it are Lua's or busted's
  });

  it('marks spec files; their it(…) blocks call as the file', () => {
    expect(fileByPath(ix.db, 'spec/product_spec.lua')!.isTest).toBe(true);
    expect(edgeLines(ix.db, 'tests')).toContain('spec.product_spec -> new');
  });

  it('indexes a file with a syntax error partially', () => {
    expect(fileByPath(ix.db, 'shop/service.lua')!.partial).toBe(true);
    expect(sym('sell').inError).toBe(false);
  });
});
