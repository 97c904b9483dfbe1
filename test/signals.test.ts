import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../src/lang/registry.js';
import { MAX_SIGNAL_REFS, parseSignals, parseSignalsDetailed, type SignalRef } from '../src/retrieve/signals.js';
import { GENERIC_EXTENSIONS } from '../src/retrieve/signals/scan.js';

// Execution signals -> file:line references. Every sample below is written to look like the tool's own
// output; the expectations were read off the sample, innermost frame first.

const FILES = new Set([
  'setup.py', 'shop/__init__.py', 'shop/cart.py', 'shop/cli.py', 'shop/core.py', 'tests/test_cart.py',
  'pkg/a/util.py', 'pkg/b/util.py', 'services/api/app/handlers.py',
  'src/cart.ts', 'src/cart.test.ts', 'src/index.js', 'src/users.js', 'web/app.mjs',
  'cart/cart.go', 'cart/cart_test.go', 'cmd/shop/main.go', 'internal/parse/parse.go', 'internal/parse/parse_test.go',
  'tools/parse/parse_test.go',
  'src/main/java/com/acme/shop/Cart.java', 'src/main/java/com/acme/shop/Main.java',
  'src/test/java/com/acme/shop/CartTest.java',
  'src/Cart.php', 'src/Checkout.php', 'public/index.php', 'tests/CartTest.php', 'vendor/acme/money/src/Money.php',
  'src/cart.rs', 'src/main.rs',
  'Sources/Shop/Cart.swift', 'Sources/shop/main.swift', 'Tests/ShopTests/CartTests.swift',
]);
const repo = { root: '/home/dev/shop', files: FILES };

/** One line per ref: `path:line[:col] symbol kind source repo|missing dN`. */
function brief(refs: SignalRef[]): string[] {
  return refs.map((r) => `${r.path}:${r.line ?? '-'}${r.column === null ? '' : `:${r.column}`} ${r.symbol ?? '-'} ${r.kind} `
    + `${r.source} ${r.exists ? 'repo' : 'missing'} d${r.depth}`);
}

function refsOf(text: string): string[] {
  return brief(parseSignals(text, repo));
}

/** Tool output is indented here for readability; the tools print it from column 0. */
function out(text: string): string {
  const lines = text.replace(/^\n/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

describe('Python', () => {
  it('reads a traceback innermost first, with CI paths, the standard library and frozen modules', () => {
    const text = out(`
      Traceback (most recent call last):
        File "<frozen runpy>", line 198, in _run_module_as_main
        File "<frozen runpy>", line 88, in _run_code
        File "/home/runner/work/shop/shop/shop/cli.py", line 42, in <module>
          main()
        File "/home/runner/work/shop/shop/shop/cli.py", line 37, in main
          cart = Cart.load(args.path)
                 ^^^^^^^^^^^^^^^^^^^^
        File "/home/runner/work/shop/shop/shop/cart.py", line 27, in load
          data = json.loads(raw)
                 ^^^^^^^^^^^^^^^
        File "/opt/hostedtoolcache/Python/3.12.3/x64/lib/python3.12/json/__init__.py", line 346, in loads
          return _default_decoder.decode(s)
                 ^^^^^^^^^^^^^^^^^^^^^^^^^^
        File "/opt/hostedtoolcache/Python/3.12.3/x64/lib/python3.12/json/decoder.py", line 355, in raw_decode
          raise JSONDecodeError("Expecting value", s, err.value) from None
      json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
    `);
    expect(refsOf(text)).toEqual([
      '/opt/hostedtoolcache/Python/3.12.3/x64/lib/python3.12/json/decoder.py:355 raw_decode frame python-traceback missing d0',
      '/opt/hostedtoolcache/Python/3.12.3/x64/lib/python3.12/json/__init__.py:346 loads frame python-traceback missing d0',
      'shop/cart.py:27 load frame python-traceback repo d0',
      'shop/cli.py:37 main frame python-traceback repo d1',
      'shop/cli.py:42 - frame python-traceback repo d2',
    ]);
  });

  it('keeps chained tracebacks apart, each innermost first; Windows paths resolve', () => {
    const text = out(`
      Traceback (most recent call last):
        File "C:\\Users\\dev\\shop\\shop\\cart.py", line 14, in total
          return sum(prices) / count
      ZeroDivisionError: division by zero

      During handling of the above exception, another exception occurred:

      Traceback (most recent call last):
        File "C:\\Users\\dev\\shop\\shop\\cli.py", line 37, in main
          cart.total()
        File "C:\\Users\\dev\\shop\\shop\\cart.py", line 16, in total
          raise CartError("empty cart") from None
      shop.cart.CartError: empty cart
    `);
    expect(refsOf(text)).toEqual([
      'shop/cart.py:14 total frame python-traceback repo d0',
      'shop/cart.py:16 total frame python-traceback repo d0',
      'shop/cli.py:37 main frame python-traceback repo d1',
    ]);
  });

  it('reads pytest long output: each failure innermost first, then the summary', () => {
    const text = out(`
      ============================= test session starts ==============================
      platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
      rootdir: /home/runner/work/shop/shop
      collected 4 items

      tests/test_cart.py .F.F                                                  [100%]

      =================================== FAILURES ===================================
      __________________________________ test_total __________________________________

          def test_total():
              cart = Cart([Item("pen", 2)])
      >       assert cart.total() == 3
      E       assert 2 == 3
      E        +  where 2 = <bound method Cart.total of <shop.cart.Cart object at 0x7f3a2c1d0e50>>()

      tests/test_cart.py:8: AssertionError
      _________________________________ test_average _________________________________

          def test_average():
              cart = Cart([])
      >       assert cart.average() == 0

      tests/test_cart.py:13: 
      _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

      self = <shop.cart.Cart object at 0x7f3a2c1d1f10>

          def average(self):
      >       return self.total() / len(self.items)
      E       ZeroDivisionError: division by zero

      shop/cart.py:21: ZeroDivisionError
      =========================== short test summary info ============================
      FAILED tests/test_cart.py::test_total - assert 2 == 3
      FAILED tests/test_cart.py::test_average - ZeroDivisionError: division by zero
      ========================= 2 failed, 2 passed in 0.05s ==========================
    `);
    expect(refsOf(text)).toEqual([
      'tests/test_cart.py:8 test_total failure pytest repo d0',
      'shop/cart.py:21 average failure pytest repo d0',
      'tests/test_cart.py:13 test_average frame pytest repo d1',
      'tests/test_cart.py:- test_total failure pytest repo d0',
      'tests/test_cart.py:- test_average failure pytest repo d0',
    ]);
  });

  it('reads pytest --tb=short, classes and parametrized ids, and verbose results', () => {
    const text = out(`
      tests/test_cart.py::TestCart::test_discount[pen-0.5] FAILED              [ 50%]

      =================================== FAILURES ===================================
      ______________________ TestCart.test_discount[pen-0.5] _______________________
      tests/test_cart.py:30: in test_discount
          assert cart.discounted(rate) == expected
      shop/cart.py:33: in discounted
          return round(self.total() * (1 - rate), 2)
      E   TypeError: unsupported operand type(s) for -: 'int' and 'str'
      =========================== short test summary info ============================
      FAILED tests/test_cart.py::TestCart::test_discount[pen-0.5] - TypeError: unsupported operand type(s) for -: 'int' and 'str'
    `);
    expect(refsOf(text)).toEqual([
      'tests/test_cart.py:- TestCart.test_discount failure pytest repo d0',
      'shop/cart.py:33 discounted frame pytest repo d0',
      'tests/test_cart.py:30 test_discount frame pytest repo d1',
    ]);
  });
});

describe('JavaScript and TypeScript', () => {
  it('reads a Node stack: CI paths, anonymous frames, node internals skipped', () => {
    const text = out(`
      /home/runner/work/shop/shop/src/users.js:12
        return user.profile.id;
                            ^

      TypeError: Cannot read properties of undefined (reading 'id')
          at getUserId (/home/runner/work/shop/shop/src/users.js:12:23)
          at Array.map (<anonymous>)
          at listIds (/home/runner/work/shop/shop/src/users.js:20:16)
          at Router.handle [as handle_request] (/home/runner/work/shop/shop/src/index.js:9:3)
          at Object.<anonymous> (/home/runner/work/shop/shop/src/index.js:5:13)
          at Module._compile (node:internal/modules/cjs/loader:1554:14)
          at Object..js (node:internal/modules/cjs/loader:1706:10)
          at Module.load (node:internal/modules/cjs/loader:1289:32)
          at TracingChannel.traceSync (node:diagnostics_channel:322:14)

      Node.js v22.14.0
    `);
    expect(refsOf(text)).toEqual([
      'src/users.js:12 - log generic repo d0',
      'src/users.js:12:23 getUserId frame node-stack repo d0',
      'src/users.js:20:16 listIds frame node-stack repo d1',
      'src/index.js:9:3 Router.handle frame node-stack repo d2',
      'src/index.js:5:13 - frame node-stack repo d3',
    ]);
  });

  it('reads ESM file:// URLs and async frames', () => {
    const text = out(`
      file:///home/dev/shop/web/app.mjs:8
          throw new Error(\`unknown route \${name}\`);
                ^

      Error: unknown route /cart
          at route (file:///home/dev/shop/web/app.mjs:8:11)
          at async Server.<anonymous> (file:///home/dev/shop/web/app.mjs:21:5)
          at async Promise.all (index 0)
    `);
    expect(refsOf(text)).toEqual([
      'web/app.mjs:8 - log generic repo d0',
      'web/app.mjs:8:11 route frame node-stack repo d0',
      'web/app.mjs:21:5 - frame node-stack repo d1',
    ]);
  });

  it('reads Jest failures: the failing file, then each test\'s stack', () => {
    const text = out(`
       FAIL  src/cart.test.ts
        ● Cart › total › sums item prices

          expect(received).toBe(expected) // Object.is equality

          Expected: 3
          Received: 2

            10 |     cart.add({ name: "pen", price: 2 });
            11 |     cart.add({ name: "ink", price: 1 });
          > 12 |     expect(cart.total()).toBe(3);
               |                          ^
            13 |   });

            at Object.<anonymous> (src/cart.test.ts:12:26)

        ● Cart › checkout › rejects an empty cart

          TypeError: Cannot read properties of undefined (reading 'price')

            18 |   total(): number {
          > 19 |     return this.items.reduce((sum, item) => sum + item.price, 0);
               |                                                         ^
            20 |   }

            at src/cart.ts:19:57
                at Array.reduce (<anonymous>)
            at Cart.total (src/cart.ts:19:23)
            at Object.<anonymous> (src/cart.test.ts:25:10)
            at Promise.then.completed (node_modules/jest-circus/build/utils.js:298:28)

      Test Suites: 1 failed, 1 total
      Tests:       2 failed, 3 passed, 5 total
    `);
    expect(refsOf(text)).toEqual([
      'src/cart.test.ts:- - failure jest repo d0',
      'src/cart.test.ts:12:26 - frame jest repo d0',
      'src/cart.ts:19:57 - frame jest repo d0',
      'src/cart.ts:19:23 Cart.total frame jest repo d1',
      'src/cart.test.ts:25:10 - frame jest repo d2',
      'node_modules/jest-circus/build/utils.js:298:28 Promise.then.completed frame jest missing d3',
    ]);
  });

  it('reads Vitest failures, with ANSI colours, and drops the repeated file header', () => {
    const red = (s: string) => `\x1b[31m${s}\x1b[39m`;
    const text = out(`
       ❯ src/cart.test.ts (3 tests | 1 failed) 6ms
         × Cart > total > sums item prices 4ms
           → expected 2 to be 3 // Object.is equality

      ⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

       ${red('FAIL')}  src/cart.test.ts > Cart > total > sums item prices
      AssertionError: expected 2 to be 3 // Object.is equality

      - Expected
      + Received

      - 3
      + 2

       ${red('❯')} src/cart.test.ts:12:26
           10|     cart.add({ name: "pen", price: 2 });
           11|     cart.add({ name: "ink", price: 1 });
           12|     expect(cart.total()).toBe(3);
             |                          ^
           13|   });

      ⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯

       FAIL  src/cart.test.ts > Cart > checkout > rejects an empty cart
      TypeError: Cannot read properties of undefined (reading 'price')
       ❯ src/cart.ts:19:57
       ❯ Cart.total src/cart.ts:19:23
           17|
           18|   total(): number {
           19|     return this.items.reduce((sum, item) => sum + item.price, 0);
             |                       ^
           20|   }
       ❯ src/cart.test.ts:25:10

      ⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/2]⎯

       Test Files  1 failed (1)
            Tests  2 failed | 1 passed (3)
    `);
    expect(refsOf(text)).toEqual([
      'src/cart.test.ts:- - failure vitest repo d0',
      'src/cart.test.ts:12:26 - frame vitest repo d0',
      'src/cart.ts:19:57 - frame vitest repo d0',
      'src/cart.ts:19:23 Cart.total frame vitest repo d1',
      'src/cart.test.ts:25:10 - frame vitest repo d2',
    ]);
  });

  it('reads TypeScript compiler errors in both styles; a file that is gone is stale', () => {
    const plain = out(`
      src/cart.ts(19,57): error TS2339: Property 'price' does not exist on type 'Item'.
      src/legacy.ts(3,10): error TS2305: Module '"./cart"' has no exported member 'Kart'.
    `);
    expect(refsOf(plain)).toEqual([
      'src/cart.ts:19:57 - failure tsc repo d0',
      'src/legacy.ts:3:10 - failure tsc missing d0',
    ]);
    const pretty = out(`
      src/cart.ts:19:57 - error TS2339: Property 'price' does not exist on type 'Item'.

      19     return this.items.reduce((sum, item) => sum + item.price, 0);
                                                             ~~~~~


      Found 1 error in src/cart.ts:19
    `);
    expect(refsOf(pretty)).toEqual([
      'src/cart.ts:19:57 - failure tsc repo d0',
      'src/cart.ts:19 - log generic repo d0',
    ]);
  });
});

describe('Go', () => {
  it('reads a panic\'s goroutine: function lines name the frames, receivers become Type.Method', () => {
    const text = out(`
      panic: runtime error: index out of range [3] with length 3

      goroutine 1 [running]:
      github.com/acme/shop/cart.(*Cart).Item(...)
      	/home/runner/work/shop/shop/cart/cart.go:31
      github.com/acme/shop/cart.(*Cart).Total(0xc000012180)
      	/home/runner/work/shop/shop/cart/cart.go:40 +0x8c
      main.main()
      	/home/runner/work/shop/shop/cmd/shop/main.go:14 +0x65
      exit status 2
    `);
    expect(refsOf(text)).toEqual([
      'cart/cart.go:31 Cart.Item frame go-panic repo d0',
      'cart/cart.go:40 Cart.Total frame go-panic repo d1',
      'cmd/shop/main.go:14 main frame go-panic repo d2',
    ]);
  });

  it('reads a panic inside go test: toolchain frames are not the repository\'s', () => {
    const text = out(`
      === RUN   TestTotal
      --- FAIL: TestTotal (0.00s)
      panic: runtime error: invalid memory address or nil pointer dereference [recovered]
      	panic: runtime error: invalid memory address or nil pointer dereference
      [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4f6b2e]

      goroutine 7 [running]:
      testing.tRunner.func1.2({0x5147a0, 0x6a1f90})
      	/opt/hostedtoolcache/go/1.22.2/x64/src/testing/testing.go:1631 +0x24a
      panic({0x5147a0?, 0x6a1f90?})
      	/opt/hostedtoolcache/go/1.22.2/x64/src/runtime/panic.go:770 +0x132
      github.com/acme/shop/cart.(*Cart).Total(0x0)
      	/home/runner/work/shop/shop/cart/cart.go:40 +0x2e
      github.com/acme/shop/cart.TestTotal(0xc0000a6b60)
      	/home/runner/work/shop/shop/cart/cart_test.go:12 +0x45
      testing.tRunner(0xc0000a6b60, 0x5a4f68)
      	/opt/hostedtoolcache/go/1.22.2/x64/src/testing/testing.go:1689 +0xfb
      created by testing.(*T).Run in goroutine 1
      	/opt/hostedtoolcache/go/1.22.2/x64/src/testing/testing.go:1742 +0x390
      FAIL	github.com/acme/shop/cart	0.005s
    `);
    expect(refsOf(text)).toEqual([
      '/opt/hostedtoolcache/go/1.22.2/x64/src/testing/testing.go:1631 tRunner frame go-panic missing d0',
      '/opt/hostedtoolcache/go/1.22.2/x64/src/runtime/panic.go:770 panic frame go-panic missing d0',
      'cart/cart.go:40 Cart.Total frame go-panic repo d0',
      'cart/cart_test.go:12 TestTotal frame go-panic repo d1',
      '/opt/hostedtoolcache/go/1.22.2/x64/src/testing/testing.go:1689 tRunner frame go-panic missing d2',
      '/opt/hostedtoolcache/go/1.22.2/x64/src/testing/testing.go:1742 T.Run frame go-panic missing d2',
    ]);
  });

  it('reads go test failures: the package line places bare file names; passing subtests only log', () => {
    const text = out(`
      === RUN   TestTotal
          cart_test.go:12: Total() = 2, want 3
      --- FAIL: TestTotal (0.00s)
      FAIL
      FAIL	github.com/acme/shop/cart	0.004s
      === RUN   TestParse
      === RUN   TestParse/empty
          parse_test.go:30: unexpected error: EOF
      === RUN   TestParse/valid
          parse_test.go:25: parsed 3 items
      --- FAIL: TestParse (0.00s)
          --- FAIL: TestParse/empty (0.00s)
          --- PASS: TestParse/valid (0.00s)
      FAIL
      FAIL	github.com/acme/shop/internal/parse	0.003s
      FAIL
    `);
    expect(refsOf(text)).toEqual([
      'cart/cart_test.go:12 TestTotal failure go-test repo d0',
      'internal/parse/parse_test.go:30 TestParse failure go-test repo d0',
      'internal/parse/parse_test.go:25 TestParse log go-test repo d0',
    ]);
  });

  it('reads go build errors and go test -json records', () => {
    expect(refsOf('# github.com/acme/shop/cart\ncart/cart.go:40:9: undefined: discount\n')).toEqual([
      'cart/cart.go:40:9 - failure go-build repo d0',
    ]);
    const json = [
      { Action: 'run', Package: 'github.com/acme/shop/cart', Test: 'TestTotal' },
      { Action: 'output', Package: 'github.com/acme/shop/cart', Test: 'TestTotal', Output: '=== RUN   TestTotal\n' },
      { Action: 'output', Package: 'github.com/acme/shop/cart', Test: 'TestTotal', Output: '    cart_test.go:12: Total() = 2, want 3\n' },
      { Action: 'output', Package: 'github.com/acme/shop/cart', Test: 'TestTotal', Output: '--- FAIL: TestTotal (0.00s)\n' },
      { Action: 'fail', Package: 'github.com/acme/shop/cart', Test: 'TestTotal', Elapsed: 0 },
    ].map((r) => JSON.stringify({ Time: '2024-05-02T10:11:12.345678Z', ...r })).join('\n');
    expect(refsOf(json)).toEqual(['cart/cart_test.go:12 TestTotal failure go-test repo d0']);
  });
});

describe('Java', () => {
  it('reads a stack trace: package + file name find the file; Caused by starts a new trace', () => {
    const text = out(`
      Exception in thread "main" java.lang.IllegalStateException: cart is empty
      	at com.acme.shop.Cart$Line.price(Cart.java:88)
      	at com.acme.shop.Cart.total(Cart.java:42)
      	at java.base/java.util.stream.ReferencePipeline$3$1.accept(ReferencePipeline.java:197)
      	at com.acme.shop.Main.lambda$main$0(Main.java:15)
      	at java.base/java.util.ArrayList.forEach(ArrayList.java:1596)
      	at com.acme.shop.Main.main(Main.java:12)
      Caused by: java.io.UncheckedIOException: price list unreadable
      	at com.acme.shop.Prices.load(Prices.java:20)
      	at com.acme.shop.Cart.<init>(Cart.java:18)
      	... 2 more
    `);
    expect(refsOf(text)).toEqual([
      'src/main/java/com/acme/shop/Cart.java:88 Cart.Line.price frame java-stack repo d0',
      'src/main/java/com/acme/shop/Cart.java:42 Cart.total frame java-stack repo d1',
      'java/util/stream/ReferencePipeline.java:197 ReferencePipeline.accept frame java-stack missing d2',
      'src/main/java/com/acme/shop/Main.java:15 Main.main frame java-stack repo d2',
      'java/util/ArrayList.java:1596 ArrayList.forEach frame java-stack missing d3',
      'src/main/java/com/acme/shop/Main.java:12 Main.main frame java-stack repo d3',
      'com/acme/shop/Prices.java:20 Prices.load frame java-stack missing d0',
      'src/main/java/com/acme/shop/Cart.java:18 Cart.Cart frame java-stack repo d0',
    ]);
  });

  it('reads Maven Surefire: the failed tests, their stacks, and the summary by simple class name', () => {
    const text = out(`
      [INFO] Running com.acme.shop.CartTest
      [ERROR] Tests run: 3, Failures: 1, Errors: 1, Skipped: 0, Time elapsed: 0.048 s <<< FAILURE! -- in com.acme.shop.CartTest
      [ERROR] com.acme.shop.CartTest.totalSumsPrices -- Time elapsed: 0.012 s <<< FAILURE!
      org.opentest4j.AssertionFailedError: expected: <3> but was: <2>
      	at org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)
      	at org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:150)
      	at com.acme.shop.CartTest.totalSumsPrices(CartTest.java:25)
      	at java.base/java.lang.reflect.Method.invoke(Method.java:580)

      [ERROR] com.acme.shop.CartTest.loadsPrices -- Time elapsed: 0.003 s <<< ERROR!
      java.lang.IllegalStateException: cart is empty
      	at com.acme.shop.Cart.total(Cart.java:42)
      	at com.acme.shop.CartTest.loadsPrices(CartTest.java:40)

      [INFO] 
      [INFO] Results:
      [INFO] 
      [ERROR] Failures: 
      [ERROR]   CartTest.totalSumsPrices:25 expected: <3> but was: <2>
      [ERROR] Errors: 
      [ERROR]   CartTest.loadsPrices:40 » IllegalState cart is empty
      [INFO] 
      [ERROR] Tests run: 3, Failures: 1, Errors: 1, Skipped: 0
    `);
    const test = 'src/test/java/com/acme/shop/CartTest.java';
    expect(refsOf(text)).toEqual([
      `${test}:- CartTest.totalSumsPrices failure junit repo d0`,
      'org/junit/jupiter/api/AssertionFailureBuilder.java:151 AssertionFailureBuilder.build frame java-stack missing d0',
      'org/junit/jupiter/api/AssertEquals.java:150 AssertEquals.assertEquals frame java-stack missing d0',
      `${test}:25 CartTest.totalSumsPrices frame java-stack repo d0`,
      'java/lang/reflect/Method.java:580 Method.invoke frame java-stack missing d1',
      `${test}:- CartTest.loadsPrices failure junit repo d0`,
      'src/main/java/com/acme/shop/Cart.java:42 Cart.total frame java-stack repo d0',
      `${test}:40 CartTest.loadsPrices frame java-stack repo d1`,
      `${test}:25 CartTest.totalSumsPrices failure junit repo d0`,
      `${test}:40 CartTest.loadsPrices failure junit repo d0`,
    ]);
  });

  it('reads Gradle test failures and Maven compiler errors', () => {
    const gradle = out(`
      > Task :test FAILED

      CartTest > totalSumsPrices() FAILED
          org.opentest4j.AssertionFailedError at CartTest.java:25

      CartTest > loadsPrices() FAILED
          java.lang.IllegalStateException at Cart.java:42

      3 tests completed, 2 failed
    `);
    const test = 'src/test/java/com/acme/shop/CartTest.java';
    expect(refsOf(gradle)).toEqual([
      `${test}:- CartTest.totalSumsPrices failure junit repo d0`,
      `${test}:25 CartTest.totalSumsPrices failure junit repo d0`,
      `${test}:- CartTest.loadsPrices failure junit repo d0`,
      'src/main/java/com/acme/shop/Cart.java:42 - failure junit repo d0',
    ]);
    const javac = '[ERROR] /home/runner/work/shop/shop/src/main/java/com/acme/shop/Cart.java:[42,17] cannot find symbol\n'
      + '[WARNING] /home/runner/work/shop/shop/src/main/java/com/acme/shop/Main.java:[3,1] unused import';
    expect(refsOf(javac)).toEqual([
      'src/main/java/com/acme/shop/Cart.java:42:17 - failure javac repo d0',
      'src/main/java/com/acme/shop/Main.java:3:1 - log javac repo d0',
    ]);
  });
});

describe('PHP', () => {
  it('reads an uncaught exception: the site first, each frame named by the function it is in', () => {
    const text = out(`
      PHP Fatal error:  Uncaught RuntimeException: cart is empty in /var/www/shop/src/Cart.php:42
      Stack trace:
      #0 /var/www/shop/src/Checkout.php(18): App\\Cart->total()
      #1 /var/www/shop/public/index.php(7): App\\Checkout->run(Array)
      #2 {main}
        thrown in /var/www/shop/src/Cart.php on line 42
    `);
    expect(refsOf(text)).toEqual([
      'src/Cart.php:42 Cart.total failure php-error repo d0',
      'src/Checkout.php:18 Checkout.run frame php-error repo d1',
      'public/index.php:7 - frame php-error repo d2',
    ]);
  });

  it('reads warnings as logs and parse errors as failures', () => {
    const text = out(`
      PHP Warning:  Undefined array key "qty" in /var/www/shop/src/Cart.php on line 30
      PHP Parse error:  syntax error, unexpected token "}" in /var/www/shop/src/Checkout.php on line 25
    `);
    expect(refsOf(text)).toEqual([
      'src/Cart.php:30 - log php-error repo d0',
      'src/Checkout.php:25 - failure php-error repo d0',
    ]);
  });

  it('reads PHPUnit: the first location is the failure, then the trace; test files get the test\'s name', () => {
    const text = out(`
      PHPUnit 10.5.20 by Sebastian Bergmann and contributors.

      Runtime:       PHP 8.3.6

      ..F.E                                                               5 / 5 (100%)

      Time: 00:00.021, Memory: 8.00 MB

      There was 1 error:

      1) Tests\\CartTest::testCheckoutEmptyCart
      RuntimeException: cart is empty

      /home/runner/work/shop/shop/src/Cart.php:42
      /home/runner/work/shop/shop/src/Checkout.php:18
      /home/runner/work/shop/shop/tests/CartTest.php:51

      --

      There was 1 failure:

      1) Tests\\CartTest::testTotal
      Failed asserting that 2 matches expected 3.

      /home/runner/work/shop/shop/tests/CartTest.php:34

      FAILURES!
      Tests: 5, Assertions: 6, Errors: 1, Failures: 1.
    `);
    expect(refsOf(text)).toEqual([
      'src/Cart.php:42 - failure phpunit repo d0',
      'src/Checkout.php:18 - frame phpunit repo d1',
      'tests/CartTest.php:51 CartTest.testCheckoutEmptyCart frame phpunit repo d2',
      'tests/CartTest.php:34 CartTest.testTotal failure phpunit repo d0',
    ]);
  });
});

describe('Rust', () => {
  it('reads a panic and its backtrace: the panic site, then frames, the toolchain\'s not counted', () => {
    const text = out(`
      thread 'main' panicked at src/cart.rs:30:9:
      index out of bounds: the len is 3 but the index is 3
      stack backtrace:
         0: rust_begin_unwind
                   at /rustc/129f3b9964af4d4a709d1383930ade12dfe7c081/library/std/src/panicking.rs:652:5
         1: core::panicking::panic_fmt
                   at /rustc/129f3b9964af4d4a709d1383930ade12dfe7c081/library/core/src/panicking.rs:72:14
         2: core::panicking::panic_bounds_check
                   at /rustc/129f3b9964af4d4a709d1383930ade12dfe7c081/library/core/src/panicking.rs:274:5
         3: shop::cart::Cart::total
                   at ./src/cart.rs:30:9
         4: shop::main
                   at ./src/main.rs:8:5
         5: core::ops::function::FnOnce::call_once
                   at /rustc/129f3b9964af4d4a709d1383930ade12dfe7c081/library/core/src/ops/function.rs:250:5
      note: Some details are omitted, run with \`RUST_BACKTRACE=full\` for a verbose backtrace.
    `);
    const rustc = '/rustc/129f3b9964af4d4a709d1383930ade12dfe7c081/library';
    expect(refsOf(text)).toEqual([
      'src/cart.rs:30:9 - failure rust-panic repo d0',
      `${rustc}/std/src/panicking.rs:652:5 rust_begin_unwind frame rust-panic missing d1`,
      `${rustc}/core/src/panicking.rs:72:14 panic_fmt frame rust-panic missing d1`,
      `${rustc}/core/src/panicking.rs:274:5 panic_bounds_check frame rust-panic missing d1`,
      'src/cart.rs:30:9 Cart.total frame rust-panic repo d1',
      'src/main.rs:8:5 main frame rust-panic repo d2',
      `${rustc}/core/src/ops/function.rs:250:5 FnOnce.call_once frame rust-panic missing d3`,
    ]);
  });

  it('reads a backtrace pasted without its header, in the RUST_BACKTRACE=full format', () => {
    const text = out(`
         3:     0x55d4c8a1b2c3 - <shop::cart::Cart as core::fmt::Display>::fmt::h5c1e2f3a4b5c6d7e
                                     at /home/runner/work/shop/shop/src/cart.rs:30:9
         4:     0x55d4c8a1b4d5 - shop::cart::tests::sums::{{closure}}::h0a1b2c3d4e5f6a7b
                                     at /home/runner/work/shop/shop/src/cart.rs:50:5
    `);
    expect(refsOf(text)).toEqual([
      'src/cart.rs:30:9 Cart.fmt frame rust-panic repo d0',
      'src/cart.rs:50:5 tests.sums frame rust-panic repo d1',
    ]);
  });

  it('reads the panic format of Rust before 1.73', () => {
    const text = "thread 'main' panicked at 'called `Option::unwrap()` on a `None` value', src/main.rs:4:37\n"
      + 'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n';
    expect(refsOf(text)).toEqual(['src/main.rs:4:37 - failure rust-panic repo d0']);
  });

  it('reads cargo test failures, old and new panic formats', () => {
    const text = out(`
      running 3 tests
      test cart::tests::empty_cart_total_is_zero ... ok
      test cart::tests::sums_prices ... FAILED
      test cart::tests::applies_discount ... FAILED

      failures:

      ---- cart::tests::sums_prices stdout ----
      thread 'cart::tests::sums_prices' panicked at src/cart.rs:52:9:
      assertion \`left == right\` failed
        left: 2
       right: 3
      note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace

      ---- cart::tests::applies_discount stdout ----
      thread 'cart::tests::applies_discount' panicked at 'assertion failed: \`(left == right)\`
        left: \`1.5\`,
       right: \`1.0\`', src/cart.rs:60:9


      failures:
          cart::tests::applies_discount
          cart::tests::sums_prices

      test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

      error: test failed, to rerun pass \`--lib\`
    `);
    expect(refsOf(text)).toEqual([
      'src/cart.rs:52:9 - failure cargo-test repo d0',
      'src/cart.rs:60:9 - failure cargo-test repo d0',
    ]);
  });

  it('reads rustc errors as failures and warnings as logs', () => {
    const text = out(`
      error[E0308]: mismatched types
        --> src/cart.rs:30:20
         |
      30 |         let total: u32 = self.items.iter().sum::<f64>();
         |                    ---   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ expected \`u32\`, found \`f64\`

      warning: unused variable: \`qty\`
       --> src/main.rs:6:9
        |
      6 |     let qty = 3;
        |         ^^^ help: if this is intentional, prefix it with an underscore: \`_qty\`
    `);
    expect(refsOf(text)).toEqual([
      'src/cart.rs:30:20 - failure rustc repo d0',
      'src/main.rs:6:9 - log rustc repo d0',
    ]);
  });
});

describe('Swift', () => {
  it('reads XCTest failures on Linux and on macOS', () => {
    const linux = out(`
      Test Suite 'All tests' started at 2024-05-02 10:11:12.345
      Test Case 'CartTests.testEmpty' started at 2024-05-02 10:11:12.346
      Test Case 'CartTests.testEmpty' passed (0.001 seconds)
      Test Case 'CartTests.testTotal' started at 2024-05-02 10:11:12.347
      /home/runner/work/shop/shop/Tests/ShopTests/CartTests.swift:12: error: CartTests.testTotal : XCTAssertEqual failed: ("2") is not equal to ("3") - 
      Test Case 'CartTests.testTotal' failed (0.002 seconds)
    `);
    expect(refsOf(linux)).toEqual(['Tests/ShopTests/CartTests.swift:12 CartTests.testTotal failure swift-xctest repo d0']);
    const darwin = out(`
      Test Case '-[ShopTests.CartTests testTotal]' started.
      /Users/dev/shop/Tests/ShopTests/CartTests.swift:14: error: -[ShopTests.CartTests testTotal] : XCTAssertEqual failed: ("2") is not equal to ("3")
      Test Case '-[ShopTests.CartTests testTotal]' failed (0.003 seconds).
    `);
    expect(refsOf(darwin)).toEqual(['Tests/ShopTests/CartTests.swift:14 CartTests.testTotal failure swift-xctest repo d0']);
  });

  it('reads a crash from Swift\'s backtracer: the fatal error, then the crashed thread', () => {
    const text = out(`
      Swift/ContiguousArrayBuffer.swift:600: Fatal error: Index out of range

      💣 Program crashed: System trap at 0x00007f1c2d3e4f50

      Thread 0 crashed:

      0 0x00007f1c2d3e4f50 _assertionFailure(_:_:file:line:flags:) + 264 in libswiftCore.so
      1 [ra] 0x000055d9e1a1b2c3 Cart.total() + 121 in shop at /home/runner/work/shop/shop/Sources/Shop/Cart.swift:42:18

          40│   func total() -> Int {
          41│     var sum = 0
          42│     for i in 0...items.count { sum += items[i].price }
            │                                  ▲
          43│     return sum

      2 [ra] 0x000055d9e1a1b4d5 main + 64 in shop at /home/runner/work/shop/shop/Sources/shop/main.swift:5:1
      3 [ra] [system] 0x00007f1c2c829d8f __libc_start_call_main + 127 in libc.so.6
    `);
    expect(refsOf(text)).toEqual([
      'Swift/ContiguousArrayBuffer.swift:600 - failure swift-crash missing d0',
      'Sources/Shop/Cart.swift:42:18 Cart.total frame swift-crash repo d0',
      'Sources/shop/main.swift:5:1 main frame swift-crash repo d1',
    ]);
  });

  it('reads crash reports and lldb backtraces, which print file names only', () => {
    const report = out(`
      Thread 0 Crashed::  Dispatch queue: com.apple.main-thread
      0   libswiftCore.dylib            	0x000000019a8b1234 _assertionFailure(_:_:file:line:flags:) + 244
      1   shop                          	0x0000000100003f2c closure #1 in Cart.total() + 44 (Cart.swift:42)
      2   shop                          	0x0000000100003e10 main + 64 (main.swift:5)
      3   dyld                          	0x000000018f2c60e0 start + 2360
    `);
    expect(refsOf(report)).toEqual([
      'Sources/Shop/Cart.swift:42 Cart.total frame swift-crash repo d0',
      'Sources/shop/main.swift:5 main frame swift-crash repo d1',
    ]);
    const lldb = out(`
      * thread #1, queue = 'com.apple.main-thread', stop reason = Fatal error: Index out of range
          frame #0: 0x000000019a8b1234 libswiftCore.dylib\`_assertionFailure(_:_:file:line:flags:) + 244
        * frame #1: 0x0000000100003f2c shop\`Cart.total(self=0x0000600000c04000) at Cart.swift:42:18
          frame #2: 0x0000000100003e10 shop\`main at main.swift:5:1
    `);
    expect(refsOf(lldb)).toEqual([
      'Sources/Shop/Cart.swift:42:18 Cart.total frame swift-crash repo d0',
      'Sources/shop/main.swift:5:1 main frame swift-crash repo d1',
    ]);
  });

  it('reads swift-testing issues, swiftc errors and runtime fatal errors', () => {
    const text = out(`
      ◇ Test totalSums() started.
      ✘ Test totalSums() recorded an issue at CartTests.swift:18:5: Expectation failed: (cart.total() → 2) == 3
      ✘ Test totalSums() failed after 0.001 seconds with 1 issue.
      /home/runner/work/shop/shop/Sources/Shop/Cart.swift:42:18: error: cannot convert value of type 'String' to expected argument type 'Int'
      Sources/Shop/Cart.swift:47: Fatal error: Unexpectedly found nil while unwrapping an Optional value
      Fatal error: Division by zero: file Sources/Shop/Cart.swift, line 51
    `);
    expect(refsOf(text)).toEqual([
      'Tests/ShopTests/CartTests.swift:18:5 totalSums failure swift-testing repo d0',
      'Sources/Shop/Cart.swift:42:18 - failure swiftc repo d0',
      'Sources/Shop/Cart.swift:47 - failure swift-crash repo d0',
      'Sources/Shop/Cart.swift:51 - failure swift-crash repo d0',
    ]);
  });
});

describe('the generic fallback', () => {
  it('finds repository files in log lines, and only those', () => {
    const text = out(`
      2024-05-02 10:11:12,345 ERROR [shop.cart:cart.py:14] total failed for cart 42
      2024/05/02 10:11:12 main.go:14: listening on :8080
      see https://github.com/acme/shop/blob/main/src/cart.ts#L19 for the rounding rule
      WARN deprecated call at /usr/lib/node_modules/npm/lib/cli.js:12:3
      note: src/removed.py:10 was referenced by the old build
      helper util.py:5 is shared
      version 1.2.3:4 of example.com:80
    `);
    expect(refsOf(text)).toEqual([
      'shop/cart.py:14 - log generic repo d0',
      'cmd/shop/main.go:14 - log generic repo d0',
      'src/cart.ts:19 - log generic repo d0',
    ]);
  });
});

describe('path resolution', () => {
  const frame = (path: string) => `Traceback (most recent call last):\n  File "${path}", line 5, in helper\nValueError: x\n`;
  const only = (text: string) => parseSignals(text, repo).map((r) => `${r.path} ${r.exists}`);

  it('prefers the longest matching suffix, and guesses nothing when the longest is shared', () => {
    expect(only(frame('/ci/build/pkg/a/util.py'))).toEqual(['pkg/a/util.py true']);
    expect(only(frame('/somewhere/else/util.py'))).toEqual(['/somewhere/else/util.py false']);
    expect(only(frame('util.py'))).toEqual(['util.py false']);
  });

  it('matches a checkout elsewhere (a container) by directory and name', () => {
    expect(only(frame('/srv/app/handlers.py'))).toEqual(['services/api/app/handlers.py true']);
  });

  it('resolves ./-relative, ../-relative and backslashed paths', () => {
    expect(only(frame('./shop/cart.py'))).toEqual(['shop/cart.py true']);
    expect(only(frame('../shop/shop/cart.py'))).toEqual(['shop/cart.py true']);
    expect(only(frame('shop\\cart.py'))).toEqual(['shop/cart.py true']);
  });

  it('reports a file gone from a known checkout root as stale, not as a namesake elsewhere', () => {
    // Alone, /.../old/setup.py would end in the repository's setup.py; the other frame shows where the root was.
    expect(only(frame('/home/runner/work/shop/shop/old/setup.py'))).toEqual(['setup.py true']);
    const both = frame('/home/runner/work/shop/shop/shop/cart.py') + frame('/home/runner/work/shop/shop/old/setup.py');
    expect(only(both)).toEqual(['shop/cart.py true', '/home/runner/work/shop/shop/old/setup.py false']);
    expect(only(frame('/home/dev/shop/shop/removed.py'))).toEqual(['/home/dev/shop/shop/removed.py false']);
  });

  it('keeps installed libraries apart unless the package path is the repository\'s own', () => {
    expect(only(frame('/usr/lib/python3/dist-packages/shop/cart.py'))).toEqual(['shop/cart.py true']);
    expect(only(frame('/venv/lib/python3.12/site-packages/click/core.py')))
      .toEqual(['/venv/lib/python3.12/site-packages/click/core.py false']);
    expect(only(frame('/home/dev/shop/node_modules/express/lib/router/index.js')))
      .toEqual(['/home/dev/shop/node_modules/express/lib/router/index.js false']);
    expect(only('#0 /var/www/shop/vendor/acme/money/src/Money.php(10): Acme\\Money->add()\n'
      + '#1 /var/www/shop/src/Cart.php(42): Acme\\Money->sum()\n#2 {main}\n'))
      .toEqual(['vendor/acme/money/src/Money.php true', 'src/Cart.php true']);
  });

  it('resolves against an empty repository without failing', () => {
    expect(brief(parseSignals(frame('/x/shop/cart.py'), { root: '', files: new Set() })))
      .toEqual(['/x/shop/cart.py:5 helper frame python-traceback missing d0']);
  });
});

describe('the result', () => {
  it('has the documented shape', () => {
    const [first] = parseSignals('  File "/home/dev/shop/shop/cart.py", line 14, in total\n', repo);
    expect(first).toEqual({ path: 'shop/cart.py', line: 14, column: null, symbol: 'total', kind: 'frame',
      source: 'python-traceback', exists: true, depth: 0 });
  });

  it('drops exact duplicates, and a trace logged again', () => {
    const trace = 'Error: boom\n    at total (/home/dev/shop/src/cart.ts:19:23)\n    at main (/home/dev/shop/src/index.js:5:13)\n';
    expect(refsOf(`${trace}retrying\n${trace}`)).toEqual([
      'src/cart.ts:19:23 total frame node-stack repo d0',
      'src/index.js:5:13 main frame node-stack repo d1',
    ]);
  });

  it('reads stacks inside JSON log records and behind CI timestamps', () => {
    const record = JSON.stringify({ level: 50, time: 1714644672000, msg: 'request failed', err: { type: 'TypeError',
      stack: 'TypeError: boom\n    at getUserId (/app/src/users.js:12:23)\n    at listIds (/app/src/users.js:20:16)' } });
    expect(refsOf(record)).toEqual([
      'src/users.js:12:23 getUserId frame node-stack repo d0',
      'src/users.js:20:16 listIds frame node-stack repo d1',
    ]);
    const stamped = '2024-05-02T10:11:12.3456789Z Traceback (most recent call last):\n'
      + '2024-05-02T10:11:12.3456790Z   File "/home/runner/work/shop/shop/shop/cart.py", line 14, in total\n'
      + '2024-05-02T10:11:12.3456791Z ZeroDivisionError: division by zero\n';
    expect(refsOf(stamped)).toEqual(['shop/cart.py:14 total frame python-traceback repo d0']);
  });

  it('caps the number of refs and says so', () => {
    const lines = Array.from({ length: 300 }, (_, i) => `    at f${i} (/home/dev/shop/src/cart.ts:${i + 1}:1)`);
    const all = parseSignalsDetailed(`Error: deep\n${lines.join('\n')}`, repo);
    expect(all.refs).toHaveLength(MAX_SIGNAL_REFS);
    expect(all.truncated).toBe(true);
    expect(all.refs[0].symbol).toBe('f0');
    const few = parseSignalsDetailed(`Error: deep\n${lines.join('\n')}`, repo, { maxRefs: 3 });
    expect(few.refs.map((r) => r.line)).toEqual([1, 2, 3]);
    expect(parseSignalsDetailed(lines[0], repo).truncated).toBe(false);
  });

  it('keeps the innermost frames of a Python recursion too deep to keep whole', () => {
    const frames = Array.from({ length: 3000 }, (_, i) => `  File "/home/dev/shop/shop/cart.py", line ${i + 1}, in f\n    f()`);
    const res = parseSignalsDetailed(`Traceback (most recent call last):\n${frames.join('\n')}\nRecursionError: too deep\n`, repo);
    expect(res.truncated).toBe(true);
    expect(res.refs[0].line).toBe(3000);
  });
});

describe('robustness', () => {
  it('finds nothing in text without locations', () => {
    expect(parseSignals('', repo)).toEqual([]);
    expect(parseSignals('the build was green yesterday; today the cart total is wrong\n\n\n', repo)).toEqual([]);
    expect(parseSignals('at least one test failed\nFAIL\nok\n#1 priority\n', repo)).toEqual([]);
  });

  it('never throws on garbage, odd types or binary data', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const bytes = Buffer.from(Array.from({ length: 200_000 }, () => Math.floor(random() * 256)));
    for (const input of [bytes.toString('latin1'), bytes.toString('utf8'), '\0'.repeat(1000), '\u2028\u2029'.repeat(100),
      '{"unterminated": "json', '{'.repeat(10_000) + '}'.repeat(10_000), 'File "', '#0 (', "thread '", '❯ :', '   at ()']) {
      expect(() => parseSignals(input, repo)).not.toThrow();
    }
    expect(parseSignals(undefined as unknown as string, repo)).toEqual([]);
    expect(parseSignals(42 as unknown as string, repo)).toEqual([]);
    expect(parseSignals('  File "/x/shop/cart.py", line 1, in f', undefined as never)).toEqual([
      expect.objectContaining({ path: '/x/shop/cart.py', exists: false }),
    ]);
  });

  it('reads a 10 MB log in linear time and still finds the failure at its end', () => {
    const noise = '2024-05-02 10:11:12,345 INFO  shop.worker processed batch 1234 of 9999 in 12ms (queue=ok, retries=0)\n';
    const log = noise.repeat(Math.ceil(10_000_000 / noise.length))
      + 'Traceback (most recent call last):\n  File "/srv/shop/shop/cart.py", line 14, in total\nZeroDivisionError\n';
    const started = performance.now();
    const refs = parseSignals(log, repo);
    expect(performance.now() - started).toBeLessThan(8000);
    expect(brief(refs)).toEqual(['shop/cart.py:14 total frame python-traceback repo d0']);
  });

  it('stays fast on lines built to make patterns backtrack', () => {
    const evil = [
      `    at ${'a ('.repeat(3000)}`,
      `  File "${'x'.repeat(8000)}`,
      `thread '${"'".repeat(4000)}' panicked at ${"', ".repeat(2000)}`,
      `#0 ${'(1'.repeat(4000)}`,
      `PHP Fatal error:  ${' in x'.repeat(2000)}`,
      `${'a.py:1'.repeat(1500)}`,
      `${'.py:'.repeat(2000)}`,
      `FAILED ${'a.py::'.repeat(1500)}`,
      `${'_'.repeat(4000)} x ${'_ '.repeat(2000)}`,
      `src/x.ts${'(1,'.repeat(2000)}`,
      `${'x:1:2'.repeat(1500)} - error`,
      `[ERROR] ${'a.'.repeat(4000)}`,
      `${'0x1 '.repeat(2000)}`,
      `goroutine 1 ${']:'.repeat(3000)}x`,
      `Fatal error: ${': file '.repeat(1100)}, line x`,
      `frame #0: 0x1 ${' at '.repeat(2000)}`,
      `[ERROR] a.b -- Time elapsed ${'<<< '.repeat(2000)}`,
    ];
    // Each kind alone: 400 lines of ~8 KB take tens of milliseconds when linear, seconds when quadratic.
    const slow: string[] = [];
    for (const line of evil) {
      const text = Array.from({ length: 400 }, () => line).join('\n');
      const started = performance.now();
      expect(() => parseSignals(text, repo)).not.toThrow();
      const ms = performance.now() - started;
      if (ms > 1000) slow.push(`${line.slice(0, 30)}... ${Math.round(ms)} ms`);
    }
    expect(slow).toEqual([]);
  });

  it('reads the tail of an input too large to read whole', () => {
    const head = 'x'.repeat(17 * 1024 * 1024);
    const res = parseSignalsDetailed(`${head}\n  File "/home/dev/shop/shop/cart.py", line 3, in total\n`, repo);
    expect(res.truncated).toBe(true);
    expect(brief(res.refs)).toEqual(['shop/cart.py:3 total frame python-traceback repo d0']);
  });
});

describe('the generic fallback\'s extensions', () => {
  it('are the registry\'s', () => {
    expect([...GENERIC_EXTENSIONS].sort()).toEqual([...new Set(LANGUAGES.flatMap((l) => l.extensions))].sort());
  });

  it('find locations in the languages added later, `+` in an extension included', () => {
    const files = new Set(['src/shop.c++', 'lib/shop/cart.rb', 'lib/Cart.kt']);
    const text = 'crash at src/shop.c++:12\nfrom lib/shop/cart.rb:7:in `total\'\nsee lib/Cart.kt:3 for more';
    expect(brief(parseSignals(text, { root: '/home/dev/shop', files }))).toEqual([
      'src/shop.c++:12 - log generic repo d0',
      'lib/shop/cart.rb:7 - log generic repo d0',
      'lib/Cart.kt:3 - log generic repo d0',
    ]);
  });
});
