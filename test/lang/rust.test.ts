import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeLines, indexFixture, symbolLines, type Indexed } from '../helpers.js';
import { findSymbolsByRef, fileByPath, importsOfFile } from '../../src/store/queries.js';

// Golden expectations for fixtures/rust (a Cargo workspace: the `shapes-core` library with an
// integration test, and a `cli` binary using it), written by hand from reading the fixture.
let ix: Indexed;
beforeAll(async () => {
  ix = await indexFixture('rust');
});
afterAll(() => ix?.db.close());

const sym = (ref: string) => {
  const found = findSymbolsByRef(ix.db, ref);
  expect(found, ref).toHaveLength(1);
  return found[0];
};

describe('rust extraction', () => {
  it('finds every definition with its kind, qualified name and line', () => {
    expect(symbolLines(ix.db)).toEqual([
      'function main cli/src/main.rs:11',
      'function build cli/src/main.rs:26',
      'enum Layout cli/src/report.rs:6',
      'method Layout.width cli/src/report.rs:12',
      'function render cli/src/report.rs:21',
      'function summary cli/src/report.rs:27',
      'function print_area cli/src/report.rs:31',
      'function area_of cli/src/report.rs:37',
      'function doubled cli/src/report.rs:44',
      'struct Named cli/src/report.rs:49',
      'method Named.area cli/src/report.rs:52',
      'function widest cli/src/report.rs:57',
      'function widest_width cli/src/report.rs:61',
      'function banner cli/src/text/plain.rs:2',
      'function before shapes/src/broken.rs:5',
      'function broken shapes/src/broken.rs:9',
      'function after shapes/src/broken.rs:14',
      'struct Circle shapes/src/geometry/circle.rs:8',
      'method Circle.new shapes/src/geometry/circle.rs:14',
      'method Circle.offset shapes/src/geometry/circle.rs:19',
      'method Circle.scaled shapes/src/geometry/circle.rs:23',
      'method Circle.area shapes/src/geometry/circle.rs:29',
      'method Point.translate shapes/src/geometry/circle.rs:38', // an impl in another file than the type
      'function unit_circle shapes/src/geometry/circle.rs:43',
      'method Circle.grown shapes/src/geometry/circle.rs:52',
      'struct Point shapes/src/geometry/mod.rs:9',
      'method Point.new shapes/src/geometry/mod.rs:16',
      'method Point.norm shapes/src/geometry/mod.rs:21',
      'method Point.dot shapes/src/geometry/mod.rs:25',
      'method Point.fmt shapes/src/geometry/mod.rs:31',
      'trait Shape shapes/src/geometry/mod.rs:37',
      'method Shape.area shapes/src/geometry/mod.rs:39',
      'method Shape.describe shapes/src/geometry/mod.rs:42',
      'trait Solid shapes/src/geometry/mod.rs:48',
      'constant VERSION shapes/src/lib.rs:14',
      'function origin shapes/src/lib.rs:17',
      'function point shapes/src/lib.rs:23', // macro_rules!
      'struct tests.Square shapes/src/lib.rs:33',
      'method tests.Square.area shapes/src/lib.rs:36',
      'function tests.unit shapes/src/lib.rs:41',
      'function tests.origin_is_zero shapes/src/lib.rs:46',
      'function tests.square_describes shapes/src/lib.rs:52',
      'function square shapes/src/util.rs:4',
      'function clamp shapes/src/util.rs:9',
      'constant CALLS shapes/src/util.rs:17',
      'function private_helper shapes/src/util.rs:19',
      'struct Bits shapes/src/util.rs:26', // a union
      'type Pair shapes/src/util.rs:31',
      'function cfg_fast shapes/src/util.rs:33',
      'function cube shapes/src/util.rs:40', // inside an item macro: parsed again on its own
      'endpoint GET /origin shapes/src/web.rs:6',
      'function origin_route shapes/src/web.rs:7',
      'function app shapes/src/web.rs:11',
      'endpoint GET /points shapes/src/web.rs:12',
      'function list_points shapes/src/web.rs:15',
      'function circle_area_is_pi shapes/tests/integration.rs:5',
      'function translated_origin shapes/tests/integration.rs:11',
      'function helper shapes/tests/integration.rs:17',
    ]);
    const tests = sym('tests');
    expect([tests.kind, tests.startLine, tests.file]).toEqual(['module', 30, 'shapes/src/lib.rs']);
    // Methods of an impl in the type's own file belong to the type; elsewhere, to their file.
    expect(sym('Point.norm').parentId).toBe(sym('Point').id);
    expect(sym('Point.translate').parentId).not.toBe(sym('Point').id);
    expect(sym('tests.Square.area').parentId).toBe(sym('tests.Square').id);
  });

  it('names file modules by their module path', () => {
    const modules = (path: string) => fileByPath(ix.db, path)!;
    expect(findSymbolsByRef(ix.db, 'shapes.geometry.circle')[0].file).toBe('shapes/src/geometry/circle.rs');
    expect(findSymbolsByRef(ix.db, 'shapes.geometry')[0].file).toBe('shapes/src/geometry/mod.rs');
    expect(findSymbolsByRef(ix.db, 'cli')[0].file).toBe('cli/src/main.rs');
    expect(modules('shapes/tests/integration.rs').isTest).toBe(true);
    expect(modules('shapes/src/lib.rs').isTest).toBe(false);
  });

  it('keeps the first sentence of /// and //! docs, across attributes, and not plain comments', () => {
    expect(findSymbolsByRef(ix.db, 'shapes')[0].doc).toBe('Shapes and the geometry around them.');
    expect(findSymbolsByRef(ix.db, 'shapes.geometry')[0].doc).toBe('Points and the shape trait.');
    expect(sym('Point').doc).toBe('A point in the plane.'); // above #[derive(...)]
    expect(sym('Point.new').doc).toBe('Makes a point.');
    expect(sym('Point.norm').doc).toBeNull(); // a `//` comment
    expect(sym('Point.translate').doc).toBeNull();
    expect(sym('Shape.area').doc).toBe('The area.');
    expect(sym('Shape.describe').doc).toBe('A one-line description.');
    expect(sym('Circle.offset').doc).toBe('Distance from the origin to the center.');
    expect(sym('point').doc).toBe('Makes a point from two coordinates.');
    expect(sym('VERSION').doc).toBe('The library version.');
    expect(sym('Bits').doc).toBe('Raw bits of a float.');
    expect(sym('cube').doc).toBe('Cubes a number, when the fast path is on.');
    expect(sym('render').doc).toBe('Renders one shape.');
    expect(sym('area_of').signature).toBe('pub fn area_of<S>(shape: &S) -> f64 where S: Shape');
    expect(sym('origin').doc).toBe('Builds a point at the origin.'); // not the crate's //! lines
  });

  it('records signatures, parameters, visibility, async, static and attributes', () => {
    expect(sym('Point.new').signature).toBe('pub const fn new(x: f64, y: f64) -> Self');
    expect(sym('Point.new').params).toEqual(['x: f64', 'y: f64']);
    expect(sym('Point.dot').params).toEqual(['&self', 'other: &Point']);
    expect(sym('Point.translate').params).toEqual(['self', 'dx: f64', 'dy: f64']);
    expect(sym('Shape.area').signature).toBe('fn area(&self) -> f64');
    expect(sym('Point').signature).toBe('pub struct Point');
    expect(sym('Solid').signature).toBe('pub trait Solid: Shape + Clone');
    expect(sym('tests.Square').signature).toBe('struct Square(f64)');
    expect(sym('Pair').signature).toBe('pub type Pair = (f64, f64)');
    expect(sym('VERSION').signature).toBe('pub const VERSION: &str = "0.1"');
    expect(sym('point').signature).toBe('macro_rules! point');

    const vis = (ref: string) => sym(ref).visibility;
    expect(vis('Point.new')).toBe('public');
    expect(vis('Point.dot')).toBe('private');
    expect(vis('Circle.offset')).toBe('internal'); // pub(crate)
    expect(vis('Circle.scaled')).toBe('internal'); // pub(super)
    expect(vis('square')).toBe('internal');
    expect(vis('private_helper')).toBe('private');
    expect(vis('Circle.area')).toBe('public'); // impl Shape for Circle
    expect(vis('Point.fmt')).toBe('public');
    expect(vis('Shape.area')).toBe('public');
    expect(vis('point')).toBe('public'); // #[macro_export]
    expect(vis('cfg_fast')).toBe('private');
    expect(vis('cube')).toBe('public');
    expect(vis('tests.unit')).toBe('private');
    expect(sym('origin').exported).toBe(true);
    expect(sym('square').exported).toBe(false);

    expect(sym('translated_origin').isAsync).toBe(true);
    expect(sym('circle_area_is_pi').isAsync).toBe(false);
    expect(sym('CALLS').isStatic).toBe(true);
    expect(sym('VERSION').isStatic).toBe(false);
    expect(sym('translated_origin').annotations).toEqual(['tokio::test']);
    expect(sym('Point').annotations).toEqual(['derive']);
    expect(sym('tests').annotations).toEqual(['cfg']);
  });

  it('marks #[test] functions, test-module helpers and the test module', () => {
    const isTest = (ref: string) => sym(ref).isTest;
    expect(isTest('tests.origin_is_zero')).toBe(true);
    expect(isTest('tests.square_describes')).toBe(true);
    expect(isTest('tests.unit')).toBe(true); // a helper inside #[cfg(test)] mod tests
    expect(isTest('tests')).toBe(true);
    expect(isTest('tests.Square')).toBe(false);
    expect(isTest('circle_area_is_pi')).toBe(true);
    expect(isTest('translated_origin')).toBe(true); // #[tokio::test]
    expect(isTest('helper')).toBe(false); // in tests/, but no test attribute
    expect(isTest('origin')).toBe(false);
  });

  it('parses use trees, extern crate and mod declarations into import specs', () => {
    const rows = (path: string) => importsOfFile(ix.db, fileByPath(ix.db, path)!.id)
      .map((i) => [i.module, i.alias, i.names, i.wildcard, i.reexport]);
    expect(rows('shapes/src/lib.rs')).toEqual([
      ['alloc', 'alloc', [], false, false],
      ['self::geometry', 'geometry', [], false, false],
      ['self::util', 'util', [], false, false],
      ['self::broken', 'broken', [], false, false],
      ['geometry', null, [{ name: 'Point' }, { name: 'Shape' }], false, true],
      ['util', null, [{ name: 'clamp', alias: 'clamp_value' }], false, true],
      // `use super::*` inside `mod tests` takes the file's own names: not an import of anything.
    ]);
    expect(rows('cli/src/main.rs')).toEqual([
      ['self::report', 'report', [], false, false],
      ['"text/plain.rs"', 'plain', [], false, false], // #[path = "text/plain.rs"] mod plain;
      ['shapes_core::geometry::circle', null, [{ name: 'Circle' }], false, false],
      ['shapes_core', null, [{ name: 'Point' }, { name: 'Shape', alias: 'Area' }], false, false],
      ['std::collections', null, [{ name: 'HashMap' }], false, false],
    ]);
  });

  it('resolves imports through the module tree, crate names and re-exports', () => {
    expect(edgeLines(ix.db, 'imports', { files: true })).toEqual([
      'cli/src/main.rs:cli -> cli/src/report.rs:cli.report',
      'cli/src/main.rs:cli -> cli/src/text/plain.rs:cli.text.plain',
      'cli/src/main.rs:cli -> external:std::collections',
      'cli/src/main.rs:cli -> shapes/src/geometry/circle.rs:Circle', // crate `shapes-core` as shapes_core
      'cli/src/main.rs:cli -> shapes/src/geometry/mod.rs:Point', // through lib.rs's `pub use`
      'cli/src/main.rs:cli -> shapes/src/geometry/mod.rs:Shape',
      'cli/src/report.rs:cli.report -> shapes/src/geometry/mod.rs:Shape',
      'shapes/src/broken.rs:shapes.broken -> shapes/src/util.rs:square',
      'shapes/src/geometry/circle.rs:shapes.geometry.circle -> shapes/src/geometry/mod.rs:Point', // super::
      'shapes/src/geometry/circle.rs:shapes.geometry.circle -> shapes/src/geometry/mod.rs:Shape',
      'shapes/src/geometry/circle.rs:shapes.geometry.circle -> shapes/src/util.rs:square', // crate::, aliased
      'shapes/src/geometry/mod.rs:shapes.geometry -> external:std',
      'shapes/src/geometry/mod.rs:shapes.geometry -> shapes/src/geometry/circle.rs:shapes.geometry.circle',
      'shapes/src/lib.rs:shapes -> external:alloc',
      'shapes/src/lib.rs:shapes -> shapes/src/broken.rs:shapes.broken',
      'shapes/src/lib.rs:shapes -> shapes/src/geometry/mod.rs:Point',
      'shapes/src/lib.rs:shapes -> shapes/src/geometry/mod.rs:Shape',
      'shapes/src/lib.rs:shapes -> shapes/src/geometry/mod.rs:shapes.geometry',
      'shapes/src/lib.rs:shapes -> shapes/src/util.rs:clamp',
      'shapes/src/lib.rs:shapes -> shapes/src/util.rs:shapes.util',
      'shapes/src/web.rs:shapes.web -> shapes/src/geometry/mod.rs:Point',
      'shapes/tests/integration.rs:shapes.tests.integration -> shapes/src/geometry/circle.rs:Circle',
      'shapes/tests/integration.rs:shapes.tests.integration -> shapes/src/geometry/circle.rs:unit_circle',
      'shapes/tests/integration.rs:shapes.tests.integration -> shapes/src/geometry/mod.rs:Point',
      'shapes/tests/integration.rs:shapes.tests.integration -> shapes/src/geometry/mod.rs:Shape',
      'shapes/tests/integration.rs:shapes.tests.integration -> shapes/src/lib.rs:origin',
    ]);
    expect(ix.summary.imports.rust).toEqual({ total: 20, internal: 17, external: 3, unresolved: 0 });
  });

  it('resolves calls: paths, Self, self, typed and constructed receivers, fields, traits, macro arguments', () => {
    expect(edgeLines(ix.db, 'calls', { confidence: true })).toEqual([
      'Circle.area -> square 0.9', // sq(), an aliased import
      'Circle.new -> Circle 0.95', // a struct literal constructs its type
      'Circle.offset -> Point.norm 0.9', // self.center: Point, a field
      'Circle.scaled -> Circle.new 0.9', // Self::new
      'GET /points -> Circle.new 0.25',
      'GET /points -> Point.new 0.25',
      'Named.area -> Circle.area 0.9', // self.0 of a tuple struct, a path type
      'Point.new -> Point 0.95',
      'Point.norm -> Point.dot 0.9', // self.dot()
      'Point.translate -> Point.new 0.9',
      'Shape.describe -> Shape.area 0.9', // self.area() inside format!
      'after -> before 0.95',
      'area_of -> Shape.area 0.9', // shape: &S where S: Shape
      'before -> square 0.9',
      'broken -> square 0.45', // inside a syntax-error region: lower confidence
      'build -> Circle.new 0.9', // shapes_core::geometry::circle::Circle::new
      'build -> origin 0.9', // shapes_core::origin()
      'build -> unit_circle 0.9', // shapes_core::geometry::circle::unit_circle()
      'circle_area_is_pi -> Circle.area 0.9', // c: Circle, inside assert!
      'circle_area_is_pi -> unit_circle 0.9',
      'cube -> square 0.95', // a call in a function defined inside cfg_fast! { .. }
      'doubled -> Shape.area 0.9', // t: T with T: Clone + Shape
      'helper -> Shape.describe 0.8', // c: &Circle; describe is the trait's default
      'main -> Circle.area 0.9', // let c = Circle::new(..)
      'main -> Circle.new 0.9',
      'main -> Point.new 0.9',
      'main -> Point.norm 0.9', // Point::new(..).norm()
      'main -> Point.translate 0.9', // an impl in another file of the crate
      'main -> banner 0.9', // plain::banner() through a #[path] module
      'main -> build 0.95',
      'main -> print_area 0.9', // crate::report::print_area
      'main -> render 0.9', // report::render through `mod report;`
      'main -> summary 0.9', // inside println!
      'origin -> Point.new 0.9',
      'origin_route -> Point.new 0.9',
      'print_area -> summary 0.9', // super::report::summary
      'private_helper -> clamp 0.95', // self::clamp
      'private_helper -> square 0.95',
      'render -> Layout.width 0.9', // let layout = Layout::Long { .. }: a Layout
      'render -> Shape.describe 0.9', // shape: &dyn Shape
      'tests.origin_is_zero -> Point.norm 0.5', // origin().norm(): receiver type unknown
      'tests.origin_is_zero -> origin 0.95',
      'tests.origin_is_zero -> tests.unit 0.95',
      'tests.square_describes -> Shape.describe 0.5',
      'tests.square_describes -> tests.Square 0.95',
      'tests.unit -> Point.new 0.9',
      'translated_origin -> Point.new 0.9',
      'translated_origin -> Point.norm 0.9', // p: Point
      'translated_origin -> Point.translate 0.5', // origin().translate(): receiver type unknown
      'translated_origin -> origin 0.9',
      'unit_circle -> Circle.new 0.9',
      'unit_circle -> Circle.scaled 0.9', // let c = Circle::new(..)
      'unit_circle -> Point.new 0.9',
      'unit_circle -> Shape.describe 0.8', // bigger: Circle, which implements Shape
      'widest_width -> Layout.width 0.9', // let layout = widest()?; widest returns Option<Layout>
      'widest_width -> widest 0.95',
    ]);
  });

  it('counts std, prelude and dependency calls as external, and guesses no std method by name', () => {
    const calls = ix.summary.calls.rust;
    // HashMap::new, seen.insert, seen.len, Vec::new (x2), v.push (x2), v.extend, v.min (v: f64), drop,
    // std::cmp::max, self.1.is_empty() on a String, Some(..) (x2).
    expect(calls.external).toBe(14);
    // .sqrt() and .abs() on values of unknown type: std's methods, but not provably, so left unresolved
    // rather than matched to a repository method of that name; shapes_core::geometry::circle::missing():
    // the module is ours, the function is not in it. (`#[inline(always)]` in cfg_fast! { .. } is an
    // attribute once the macro body is parsed again, not a call.) src/web.rs, outside the module tree,
    // adds four: .route(..) on Router::new(), get(..), sqlx::query and its .count().
    expect(calls.unresolved).toBe(7);
    expect(calls.total).toBe(calls.resolved + calls.external + calls.unresolved);
  });

  it('links impls, supertraits and tests to what they exercise', () => {
    expect(edgeLines(ix.db, 'extends')).toEqual(['Solid -> Shape']);
    expect(edgeLines(ix.db, 'implements')).toEqual([
      'Circle -> Shape',
      'Circle -> Solid', // impl super::Solid for Circle
      'tests.Square -> Shape', // an impl inside `mod tests`
    ]);
    expect(edgeLines(ix.db, 'tests')).toEqual([
      'circle_area_is_pi -> Circle.area',
      'circle_area_is_pi -> unit_circle',
      'shapes.tests.integration -> Shape.describe', // from a helper: the test file's module
      'shapes.tests.integration -> shapes',
      'shapes.tests.integration -> shapes.geometry',
      'shapes.tests.integration -> shapes.geometry.circle',
      'tests.origin_is_zero -> Point.norm', // unit tests beside the code count too
      'tests.origin_is_zero -> origin',
      'tests.square_describes -> Shape.describe',
      'tests.unit -> Point.new',
      'translated_origin -> Point.new',
      'translated_origin -> Point.norm',
      'translated_origin -> Point.translate',
      'translated_origin -> origin',
    ]);
  });

  it('indexes a file with syntax errors partially', () => {
    const broken = fileByPath(ix.db, 'shapes/src/broken.rs')!;
    expect(broken.partial).toBe(true);
    expect(ix.summary.partial).toBe(1);
    expect(sym('after').inError).toBe(false);
    expect(sym('broken').inError).toBe(false);
  });
});

describe('rust: overrides', () => {
  it("links each method to the one it overrides: methods of `impl Trait for T` implement the trait's, also inside `mod tests`", () => {
    expect(edgeLines(ix.db, 'overrides', { confidence: true })).toEqual([
      'Circle.area -> Shape.area 0.855',
      'tests.Square.area -> Shape.area 0.855',
    ]);
  });
});

describe('rust: registrations and data access', () => {
  it('links endpoints and registering code to their callbacks (registers), keeping the literal name as the target', () => {
    expect(edgeLines(ix.db, 'registers', { confidence: true })).toEqual([
      'GET /origin -> origin_route [route:GET /origin] 0.95',
      'GET /points -> list_points [route:GET /points] 0.95',
    ]);
  });
  it('records the hooks and events fired by name (fires), to be joined with their registrations', () => {
    expect(edgeLines(ix.db, 'fires', { confidence: true })).toEqual([]);
  });
  it('links functions to the fields, constants and tables they read', () => {
    expect(edgeLines(ix.db, 'reads', { confidence: true })).toEqual([
      'Circle.area -> Circle [radius] 0.9',
      'Circle.grown -> Circle [radius] 0.9', // the local `radius` it then writes is not the field
      'Circle.offset -> Circle [center] 0.9',
      'Circle.scaled -> Circle [center] 0.9',
      'Circle.scaled -> Circle [radius] 0.9',
      'Point.dot -> Point [x] 0.9',
      'Point.dot -> Point [x] 0.95',
      'Point.dot -> Point [y] 0.9',
      'Point.dot -> Point [y] 0.95',
      'Point.translate -> Point [x] 0.9',
      'Point.translate -> Point [y] 0.9',
      'list_points -> Point [table:points] 0.6',
    ]);
  });
  it('links functions to the fields, globals and tables they write', () => {
    expect(edgeLines(ix.db, 'writes', { confidence: true })).toEqual([]);
  });
});
