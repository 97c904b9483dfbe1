import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { fileByPath, findSymbolsByRef, importsOfFile } from '../../src/store/queries.js';
import { fileOverview } from '../../src/store/file-info.js';

// Golden expectations for fixtures/javascript (CommonJS, ES modules and JSX), written by hand from
// reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('javascript');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('javascript extraction', () => {
  it('finds every definition with its kind, qualified name and line', () => {
    expect(symbolLines(ix.db)).toEqual([
      'function Note lib/notes.js:8',
      'method Note.render lib/notes.js:13', // Note.prototype.render = function
      'method Note.slug lib/notes.js:17',
      'class Notebook lib/notes.js:22',
      'method Notebook.constructor lib/notes.js:23',
      'method Notebook.add lib/notes.js:32',
      'method Notebook.load lib/notes.js:39',
      'method Notebook.summary lib/notes.js:43',
      'function createNotebook lib/notes.js:48',
      'constant book lib/server.js:3',
      'function listNotes lib/server.js:5',
      'endpoint GET /notes lib/server.js:9',
      'endpoint DELETE /notes/:id lib/server.js:10',
      'function countNotes lib/server.js:14',
      'class Store lib/store.js:4',
      'method Store.add lib/store.js:7',
      'method Store.size lib/store.js:12',
      'method Store.#check lib/store.js:16',
      'constant VERSION lib/util.js:1',
      'function slugify lib/util.js:6', // exports.slugify = function
      'constant helpers lib/util.js:10',
      'function helpers.trim lib/util.js:11', // object-literal members
      'function helpers.shout lib/util.js:14',
      'constant DEFAULT_NAME src/app.mjs:6',
      'function main src/app.mjs:9',
      'class App src/app.mjs:17',
      'method App.constructor src/app.mjs:20',
      'method App.start src/app.mjs:24', // a class field holding an arrow function
      'function before src/broken.js:1',
      'function broken src/broken.js:5',
      'class After src/broken.js:9',
      'method After.run src/broken.js:10',
      'function Title src/view.jsx:3',
      'function Page src/view.jsx:7',
    ]);
  });

  it('takes the first sentence of JSDoc comments', () => {
    expect(sym('Note').doc).toBe('A single note.');
    expect(sym('Notebook').doc).toBe('A store of notes.');
    expect(sym('Notebook.add').doc).toBe('Adds a note and indexes it by slug.');
    expect(sym('slugify').doc).toBe('Turns a title into a URL part.');
    expect(sym('Store').doc).toBe('Keeps items in insertion order.');
    expect(sym('main').doc).toBe('Starts the app.');
    expect(sym('createNotebook').doc).toBeNull();
    expect(findSymbolsByRef(ix.db, 'lib/bundle')[0].doc).toBe('Everything in one object.'); // @fileoverview
    expect(findSymbolsByRef(ix.db, 'lib/store')[0].doc).toBeNull(); // its first JSDoc is the class's
  });

  it('records signatures, parameters, visibility, static, async and CommonJS exports', () => {
    expect(sym('Notebook.load').isStatic).toBe(true);
    expect(sym('Notebook.load').isAsync).toBe(true);
    expect(sym('Notebook.load').signature).toBe('static async load(name)');
    expect(sym('main').isAsync).toBe(true);
    expect(sym('Note').params).toEqual(['title', 'body']);
    expect(sym('Store.size').signature).toBe('get size()');
    expect(sym('Store.#check').visibility).toBe('private');
    expect(sym('Store.add').visibility).toBe('public');
    expect(sym('Note.render').signature).toBe('Note.prototype.render = function ()');
    expect(sym('App.start').signature).toBe('start = async () =>');
    expect(sym('App.start').isAsync).toBe(true); // `async` written after the name, on the arrow function
    expect(sym('helpers.shout').isAsync).toBe(false);
    expect(sym('helpers.trim').visibility).toBe('public');
    // module.exports = { Note, Notebook, createNotebook, create: createNotebook }
    for (const name of ['Note', 'Notebook', 'createNotebook', 'slugify', 'VERSION', 'helpers', 'main', 'App', 'Page', 'Store']) {
      expect(sym(name).exported, name).toBe(true);
    }
    expect(sym('Title').exported).toBe(false);
    expect(sym('Title').visibility).toBe('module');
    expect(sym('broken').exported).toBe(false);
  });

  it('resolves require, import, re-exports through module.exports and a directory package', () => {
    expect(edgeLines(ix.db, 'imports', { files: true })).toEqual([
      'lib/bundle.js:lib/bundle -> lib/store.js:Store', // module.exports = { Store: require('./store') }
      'lib/bundle.js:lib/bundle -> lib/util.js:lib/util',
      'lib/index.js:lib/index -> lib/notes.js:lib/notes', // module.exports = require('./notes')
      'lib/notes.js:lib/notes -> lib/store.js:Store', // module.exports = Store, required by name
      'lib/notes.js:lib/notes -> lib/util.js:lib/util', // no module.exports = x: the module itself
      'lib/notes.js:lib/notes -> lib/util.js:slugify', // destructured and renamed
      'lib/server.js:lib/server -> lib/notes.js:lib/notes',
      'src/app.mjs:src/app -> external:node:fs/promises',
      'src/app.mjs:src/app -> lib/notes.js:createNotebook',
      'src/app.mjs:src/app -> lib/store.js:Store', // an ES default import of a CommonJS export
      'src/app.mjs:src/app -> lib/util.js:lib/util',
      'src/view.jsx:src/view -> src/app.mjs:main', // export default function main
      'test/notes.test.js:test/notes.test -> external:node:assert',
      'test/notes.test.js:test/notes.test -> lib/notes.js:Note', // require('..'): package.json main, then lib/index.js
      'test/notes.test.js:test/notes.test -> lib/notes.js:createNotebook',
      'test/notes.test.js:test/notes.test -> lib/store.js:Store', // re-exported by lib/bundle.js
    ]);
    const notes = fileByPath(ix.db, 'lib/notes.js')!;
    expect(importsOfFile(ix.db, notes.id).map((i) => [i.module, i.alias, i.names])).toEqual([
      ['./store', null, [{ name: 'default', alias: 'Store' }]],
      ['./util', null, [{ name: 'slugify', alias: 'toSlug' }]],
      ['./util', null, [{ name: 'default', alias: 'util' }]],
      ['', null, [{ name: 'createNotebook', alias: 'create' }]], // an export alias, not an import
    ]);
    expect(fileOverview(ix.db, ix.root, 'lib/notes.js').exports.sort()).toEqual(['Note', 'Notebook', 'create', 'createNotebook']);
    expect(fileOverview(ix.db, ix.root, 'lib/store.js').exports.sort()).toEqual(['Store', 'default']);
    expect(ix.summary.imports.javascript).toEqual({ total: 15, internal: 13, external: 2, unresolved: 0 });
  });

  it('resolves calls through this, super, constructed fields, prototypes, object constants and JSX', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'After.run -> before 0.95',
      'App -> Store 0.9', // field initialiser `store = new Store()`
      'App.start -> Notebook.summary 0.5', // this.book is untyped: a unique name match
      'App.start -> Store.add 0.9', // this.store, a field holding new Store()
      'DELETE /notes/:id -> Notebook.add 0.9',
      'Note.slug -> slugify 0.9', // renamed by destructuring
      'Notebook.add -> Note.slug 0.5',
      'Notebook.add -> Store.add 0.8', // super.add()
      'Notebook.add -> Store.add 0.9', // this.archive = new Store() in the constructor
      'Notebook.constructor -> Note 0.95',
      'Notebook.constructor -> Store 0.9',
      'Notebook.load -> Notebook 0.95',
      'Notebook.summary -> Note.render 0.5', // this.last = new Note(): a function, not a class
      'Notebook.summary -> helpers.shout 0.9', // util.helpers.shout() through the required module
      'Page -> Title 0.95', // <Title />
      'Page -> main 0.9',
      'Store.add -> Store.#check 0.9',
      'book -> Notebook 0.5',
      'broken -> before 0.475', // inside a syntax-error region
      'createNotebook -> Note 0.95',
      'createNotebook -> Notebook 0.95',
      'createNotebook -> Notebook.add 0.9', // const book = new Notebook()
      'listNotes -> Notebook.summary 0.9',
      'main -> App 0.95',
      'main -> App.start 0.9', // new App(book).start(): the constructed type
      'main -> Store 0.9',
      'main -> Store.add 0.9',
      'main -> createNotebook 0.9',
      'main -> slugify 0.9', // util.slugify through import * as util
      'slugify -> helpers.trim 0.9', // a member of an object constant of the same file
      'test/notes.test -> Note 0.9',
      'test/notes.test -> Note.render 0.5',
      'test/notes.test -> Store 0.9',
      'test/notes.test -> Store.add 0.9', // new Store().add(book)
      'test/notes.test -> createNotebook 0.9',
    ].sort());
    // External: new Map(), String(), String(s).trim(), readFile (imported), describe, it x2,
    // assert.match, assert.equal, assert.ok, this.index.set (index = new Map()).
    // Unresolved: this.#items.push, .toLowerCase, .replace, s.toUpperCase; in lib/server.js the
    // router, process and res calls, db.query and book.emit (Notebook extends nothing that has emit).
    expect(ix.summary.calls.javascript).toEqual({
      total: 56, resolved: 35, external: 12, unresolved: 9, values: 0,
      byTier: { local: 8, member: 11, import: 10, inherited: 1, global: 5 },
    });
  });

  it('links subclasses and tests', () => {
    expect(edgeLines(ix.db, 'extends')).toEqual(['Notebook -> Store']);
    expect(edgeLines(ix.db, 'tests')).toEqual([
      'test/notes.test -> Note',
      'test/notes.test -> Note.render',
      'test/notes.test -> Store',
      'test/notes.test -> Store.add',
      'test/notes.test -> createNotebook',
      'test/notes.test -> lib/notes',
      'test/notes.test -> lib/store',
    ]);
  });

  it('indexes a file with syntax errors partially', () => {
    expect(fileByPath(ix.db, 'src/broken.js')!.partial).toBe(true);
    expect(ix.summary.partial).toBe(1);
    expect(sym('After.run').inError).toBe(false);
  });
});

describe('javascript: overrides', () => {
  it("links each method to the one it overrides: a subclass's method overrides the class it extends, across files", () => {
    expect(edgeLines(ix.db, 'overrides', { confidence: true })).toEqual([
      'Notebook.add -> Store.add 0.855',
    ]);
  });
});

describe('javascript: registrations and data access', () => {
  it('links endpoints and registering code to their callbacks (registers), keeping the literal name as the target', () => {
    expect(edgeLines(ix.db, 'registers', { confidence: true })).toEqual([
      'DELETE /notes/:id -> external:route:DELETE /notes/:id 1',
      'GET /notes -> listNotes [route:GET /notes] 0.95',
      'lib/server -> listNotes [event:exit] 0.95',
    ]);
  });
  it('records the hooks and events fired by name (fires), to be joined with their registrations', () => {
    expect(edgeLines(ix.db, 'fires', { confidence: true })).toEqual([
      'lib/server -> external:event:saved 1',
    ]);
  });
  it('links functions to the fields, constants and tables they read', () => {
    expect(edgeLines(ix.db, 'reads', { confidence: true })).toEqual([
      'App.start -> App [book] 0.9',
      'App.start -> App [store] 0.9',
      'Notebook.add -> Notebook [archive] 0.9',
      'Notebook.add -> Notebook [index] 0.9',
      'Notebook.summary -> Notebook [last] 0.9',
      'Notebook.summary -> Notebook [name] 0.9',
      'Store.#check -> Store [LIMIT] 0.95',
      'Store.#check -> Store [size] 0.9',
      'countNotes -> external:table:notes 1',
      'main -> DEFAULT_NAME 0.95',
    ]);
  });
  it('links functions to the fields, globals and tables they write', () => {
    expect(edgeLines(ix.db, 'writes', { confidence: true })).toEqual([
      'App.constructor -> App [book] 0.9',
      'Notebook.constructor -> Notebook [archive] 0.9',
      'Notebook.constructor -> Notebook [index] 0.9',
      'Notebook.constructor -> Notebook [last] 0.9',
      'Notebook.constructor -> Notebook [name] 0.9',
    ]);
  });
});
