/**
 * Reads tool output line by line and recognises the formats of the runtimes and test runners of cg's
 * languages. Consecutive frames of one trace form a block, put innermost first whatever order the
 * tool printed them in; a location reported on its own (a failed test, a compiler error, a log line)
 * is a block of one. Paths stay as written here: resolving them needs the whole text (see PathResolver).
 *
 * Every pattern is anchored or guarded by a cheap substring test and has at most one unbounded part
 * that can backtrack, so a line costs time linear in its length whatever it contains.
 */

import type { RawRef, SignalKind } from './types.js';
import { openingParen, splitLocation, toLine } from './text.js';
import {
  goSymbol, javaSymbol, phpSymbol, pytestSymbol, pythonSymbol, rustSymbol, swiftSymbol, v8Symbol, xctestSymbol,
} from './symbols.js';

/** A trace longer than this keeps its innermost frames only. */
const MAX_BLOCK_REFS = 1000;
/** Unresolved references collected before the rest of the text is skipped. */
export const MAX_RAW_REFS = 5000;
const MAX_GENERIC_PER_LINE = 20;

type Order = 'innermost-first' | 'outermost-first';

interface OpenBlock {
  format: string;
  order: Order;
  refs: RawRef[];
  /** Whether a line no matcher took still belongs to the block (a traceback's source lines, a panic message). */
  continues: (line: string) => boolean;
  /** Last touches once the whole block is known (PHP names a frame's function one frame later). */
  finish?: (refs: RawRef[]) => RawRef[];
}

interface PhpTrace {
  /** The function each `#N` frame calls, by N. */
  callees: string[];
  /** The frame number of each frame reference; the error site has none. */
  frameOf: Map<RawRef, number>;
}

// Python
const PY_FRAME = /^[\s|+]*File "([^"]*)", line (\d+)(?:, in (.+))?$/;
// pytest
const PYTEST_SECTION = /^_{3,} (.+) _{3,}$/;
const PYTEST_RULE = /^={5,}(?: |$)/;
const PYTEST_ENTRY = /^(\S+\.pyi?):(\d+):(?: (.*))?$/;
const PYTEST_RESULT = /^(?:FAILED|ERROR) (\S+?\.pyi?)(?:::(\S+))?(?: - |$)/;
const PYTEST_VERBOSE_RESULT = /^(\S+?\.pyi?)::(\S+) (?:FAILED|ERROR)\b/;
const PYTHON_DEF = /^[>\s]\s*(?:async\s+)?def (\w+)\s*\(/;
// Rust
const RUST_PANIC = /^thread '([^']*)'(?: \(\d+\))? panicked at (.+)$/;
const RUST_LEGACY_PANIC_END = /', (\S+:\d+:\d+)$/;
const RUST_BACKTRACE_FRAME = /^\s*\d+:\s+(?:0x[0-9a-fA-F]+ - )?(.+)$/;
const RUST_BACKTRACE_AT = /^\s+at (.+)$/;
// A numbered frame naming a Rust path starts a backtrace even when the paste left out `stack backtrace:`.
const RUST_BACKTRACE_START = /^\s*\d+:\s+(?:0x[0-9a-fA-F]+ - )?<?[\w]+::/;
const RUSTC_HEADER = /^(error|warning)(?:\[E\d+\])?: /;
const RUSTC_SPAN = /^\s*--> (.+)$/;
const CARGO_TEST_OUTPUT = /^---- (\S+) stdout ----$/;
const CARGO_RUNNING = /^running \d+ tests?$/;
// Go
const GOROUTINE = /^goroutine \d+\b.*\]:$/;
const GO_FRAME_LOCATION = /^\s+(\S.*?):(\d+)(?: \+0x[0-9a-fA-F]+)?$/;
const GO_TEST_EVENT = /^\s*(?:=== (RUN|CONT|NAME|PAUSE)|--- (FAIL|PASS|SKIP):)\s+(\S+)/;
const GO_TEST_LOG = /^\s+([\w.\-/\\]+\.go):(\d+): /;
const GO_PACKAGE_RESULT = /^(?:FAIL|ok)\s+(\S+)\s+(?:[\d.]+m?s\b|\(cached\)|\[)/;
const GO_BUILD_ERROR = /^(\S+\.go):(\d+):(\d+): /;
// Java, JUnit, Maven, Gradle
const JAVA_FRAME = /^\s*at ([^\s(]+)\(([^()]*)\)/;
const JAVA_SOURCE = /^([^:]+\.(?:java|kt|kts|scala|groovy))(?::(\d+))?$/;
const JAVA_OMITTED = /^\s*\.\.\. \d+ (?:more|common frames omitted)/;
const SUREFIRE_CASE = /^\[(?:ERROR|INFO|WARNING)\]\s+([\w$.]+)\.([\w$]+)(?:\([^)]*\))?(?:\[[^\]]*\])?\s+--\s+Time elapsed.*<<<\s*(?:FAILURE|ERROR)!/;
const SUREFIRE_LEGACY_CASE = /^(?:\[ERROR\]\s+)?([\w$]+)(?:\[[^\]]*\])?\(([\w$.]+)\)\s+Time elapsed.*<<<\s*(?:FAILURE|ERROR)!/;
const SUREFIRE_SUMMARY = /^\[ERROR\]\s+(?:Run \d+: )?([\w$.]+)\.([\w$]+)(?:\[[^\]]*\])?:(\d+)\b/;
const JUNIT4_FAILURE = /^\d+\) (\w+)\(([\w$.]+)\)$/;
const MAVEN_COMPILER = /^\[(ERROR|WARNING)\]\s+(\S.*?\.(?:java|kt)):\[(\d+),(\d+)\]/;
const GRADLE_CASE = /^([\w$.]+) > ([\w$]+)\(.*\)(?:\[\d+\])? FAILED$/;
const GRADLE_LOCATION = /^\s+\S+ at ([\w$-]+\.(?:java|kt|groovy|scala)):(\d+)$/;
// JavaScript, TypeScript
const RUNNER_FAIL = /^\s*FAIL\s+(?:\|[^|]*\|\s+)?(\S+)(.*)$/;
const VITEST_SUITE = /^(\S+)\s+\((\d+) tests?(?: \| (\d+) failed)?/;
const JS_FILE = /\.[cm]?[jt]sx?$/;
const TSC_PAREN = /^\s*(\S.*?)\((\d+),(\d+)\): (error|warning) TS\d+/;
const TSC_PRETTY = /^\s*(\S.*?):(\d+):(\d+) - (error|warning) TS\d+/;
// PHP
const PHP_MESSAGE = /^(?:PHP )?(Fatal error|Parse error|Recoverable fatal error|Catchable fatal error|Warning|Notice|Deprecated|Strict Standards):\s+(.*)$/;
const PHP_NEXT = /^Next \S/;
const PHP_FRAME = /^#(\d+) (.*)$/;
const PHP_FRAME_LOCATION = /^(.*?)\((\d+)\): (.*)$/;
const PHP_THROWN = /^\s+thrown in (.+) on line (\d+)$/;
const PHP_LOCATION_END = /(?: on line (\d+)|:(\d+))$/;
const PHPUNIT_TEST = /^\d+\) ([\w\\]+)::(\w+)/;
const PHPUNIT_LOCATION = /^(\S.*\.(?:php|phtml|inc)):(\d+)$/;
const PHPUNIT_END = /^(?:FAILURES!|ERRORS!|--$|Tests: )/;
// Swift
const XCTEST_FAILURE = /^(.+?\.swift):(\d+): error: (.*)$/;
const SWIFT_FATAL = /^(.+?\.swift):(\d+): (?:Fatal error|Precondition failed|Assertion failed)\b/;
const SWIFT_FATAL_PREFIX = /(?:Fatal error|Precondition failed|Assertion failed): /;
const SWIFT_LEGACY_FATAL_TAIL = /^(.+\.swift), line (\d+)$/;
const CRASH_FRAME = /^\s*\d+\s+(?:\[\w+\]\s+)*(?:[\w.+-]+\s+)?0x[0-9a-fA-F]+\s+(.+)$/;
const LLDB_FRAME = /^[\s*]*frame #\d+: 0x[0-9a-fA-F]+ (.+)$/;
const SWIFT_TESTING_ISSUE = / recorded an issue at (\S+?):(\d+):(\d+)/;
// Compilers that print `path:line:col: error: message` (swiftc, clang and others)
const DIAGNOSTIC = /^(\S.*?):(\d+):(\d+): (error|warning|fatal error): /;
/**
 * The extensions of src/lang/registry.ts (a test keeps them equal; importing the registry would load
 * every language module into a text parser).
 */
export const GENERIC_EXTENSIONS = ['.py', '.pyi', '.ts', '.mts', '.cts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.go', '.java',
  '.php', '.phtml', '.rs', '.swift', '.c', '.h', '.cpp', '.cc', '.cxx', '.c++', '.hpp', '.hh', '.hxx', '.h++', '.ipp', '.tpp',
  '.cs', '.rb', '.rake', '.gemspec', '.dart', '.kt', '.kts', '.scala', '.sc', '.lua', '.ex', '.exs', '.sh', '.bash', '.hs'];
// The fallback: a supported extension, then a line as tools write one. Longer extensions first (`.tsx` before `.ts`).
const GENERIC_LOCATION = new RegExp(`\\.(${[...GENERIC_EXTENSIONS].sort((a, b) => b.length - a.length)
  .map((e) => e.slice(1).replace(/[+]/g, '\\+')).join('|')})`
  + '(?::(\\d+)(?::(\\d+))?|\\((\\d+)(?:, ?(\\d+))?\\)|"?,? line (\\d+)| on line (\\d+)|#L(\\d+))', 'g');

const isIndented = (line: string): boolean => /^[\s|+]/.test(line);
const isCodeFrame = (line: string): boolean => line.trim() === '' || /^\s*>?\s*\d*\s*[|│]/.test(line);
const isJavaOmitted = (line: string): boolean => JAVA_OMITTED.test(line);
const isGoElision = (line: string): boolean => line.startsWith('...');
const never = (): boolean => false;
const always = (): boolean => true;

function ref(written: string, line: number | null, column: number | null, symbol: string | null, kind: SignalKind,
  source: string): RawRef {
  return { written, line, column, symbol, kind, source };
}

export class SignalScanner {
  readonly blocks: RawRef[][] = [];
  truncated = false;
  private rawCount = 0;
  private open: OpenBlock | null = null;
  /** Generic matches inside an open block: they follow it, so the trace stays whole. */
  private loose: RawRef[] = [];
  private readonly seenBlocks = new Set<string>();

  private testRunner: 'jest' | 'vitest' | null = null;
  private pytestSection = false;
  private pytestFunction: string | null = null;
  private rustBacktrace = false;
  private rustFrame: string | null = null;
  private rustPanicPending = false;
  private rustcKind: SignalKind = 'failure';
  private cargoTest = false;
  private goFunction: string | null = null;
  private goTestName: string | null = null;
  private goTestPassed = false;
  private readonly goTestRefs = new Map<string, RawRef[]>();
  private goTestAwaitingPackage: RawRef[] = [];
  /** Simple class name -> package, so `CartTest.total:25` in a summary finds `com/acme/CartTest.java`. */
  private readonly javaPackages = new Map<string, string>();
  private gradleTest: { className: string; method: string } | null = null;
  private php: PhpTrace | null = null;
  private phpunitTest: { className: string; method: string } | null = null;

  /** Enough has been collected; the caller may stop feeding lines. */
  get full(): boolean {
    return this.rawCount >= MAX_RAW_REFS;
  }

  line(line: string): void {
    if (this.full) return;
    if (this.matchFormat(line)) return;
    if (this.open && !this.open.continues(line)) this.close();
    this.matchGeneric(line);
  }

  /** A line that cannot belong to a trace (a one-line string of a JSON log record). */
  looseLine(line: string): void {
    if (!this.full) this.matchGeneric(line);
  }

  end(): void {
    this.close();
  }

  private matchFormat(line: string): boolean {
    return this.python(line) || this.pytest(line) || this.rust(line) || this.goroutine(line) || this.goTest(line)
      || this.java(line) || this.junit(line) || this.v8(line) || this.testRunnerHeader(line) || this.vitest(line)
      || this.typescript(line) || this.phpError(line) || this.phpunit(line) || this.swift(line) || this.diagnostic(line);
  }

  // ---- blocks

  private openBlock(format: string, order: Order, continues: (line: string) => boolean,
    finish?: (refs: RawRef[]) => RawRef[]): void {
    this.close();
    this.open = { format, order, refs: [], continues, finish };
  }

  private ensureBlock(format: string, order: Order, continues: (line: string) => boolean): void {
    if (this.open?.format !== format) this.openBlock(format, order, continues);
  }

  private add(r: RawRef): void {
    const block = this.open!;
    if (block.refs.length >= MAX_BLOCK_REFS) {
      this.truncated = true;
      if (block.order === 'innermost-first') return;
      // Printed outermost first: the frames worth keeping are the last ones.
      block.refs.splice(0, MAX_BLOCK_REFS / 2);
    }
    block.refs.push(r);
  }

  /** A reference that stands alone: a failed test, a compiler error. */
  private single(r: RawRef): void {
    this.close();
    this.push([r]);
  }

  private close(): void {
    const block = this.open;
    this.open = null;
    this.rustBacktrace = false;
    this.rustFrame = null;
    this.rustPanicPending = false;
    this.goFunction = null;
    if (block && block.refs.length > 0) {
      let refs = block.order === 'outermost-first' ? block.refs.reverse() : block.refs;
      if (block.finish) refs = block.finish(refs);
      this.push(refs);
    }
    if (this.loose.length > 0) {
      for (const r of this.loose) this.push([r]);
      this.loose = [];
    }
  }

  private push(refs: RawRef[]): void {
    if (this.full) {
      this.truncated = true;
      return;
    }
    // Logs repeat the same trace (retries, every request): once is enough.
    if (refs.length > 1) {
      const signature = refs.map((r) => `${r.written}:${r.line}:${r.column}:${r.symbol}:${r.kind}`).join('\n');
      if (this.seenBlocks.has(signature)) return;
      this.seenBlocks.add(signature);
    }
    this.blocks.push(refs);
    this.rawCount += refs.length;
  }

  // ---- Python

  private python(line: string): boolean {
    if (line.endsWith('(most recent call last):') && line.includes('Traceback (')) {
      this.openBlock('python', 'outermost-first', isIndented);
      return true;
    }
    if (!line.includes('File "')) return false;
    const m = PY_FRAME.exec(line);
    if (!m) return false;
    this.ensureBlock('python', 'outermost-first', isIndented);
    this.add(ref(m[1], toLine(m[2]), null, pythonSymbol(m[3]), 'frame', 'python-traceback'));
    return true;
  }

  /**
   * pytest prints each failure's traceback outermost first, each entry's source (from its `def`) and
   * then its location: `tests/test_cart.py:8: ` (long), `...: in test_total` (short), and for the
   * innermost `shop/cart.py:14: ZeroDivisionError`. The summary adds `FAILED tests/x.py::test_y`.
   */
  private pytest(line: string): boolean {
    const first = line[0];
    if (first === '_' && PYTEST_SECTION.test(line)) {
      this.close();
      this.pytestSection = true;
      this.pytestFunction = null;
      return true;
    }
    if (first === '=' && PYTEST_RULE.test(line)) {
      this.close();
      this.pytestSection = false;
      this.pytestFunction = null;
      return true;
    }
    if (this.pytestSection && line.includes('def ')) {
      const def = PYTHON_DEF.exec(line);
      if (def) this.pytestFunction = def[1];
    }
    if (!line.includes('.py')) return false;
    if (first === 'F' || first === 'E') {
      const result = PYTEST_RESULT.exec(line);
      if (result) {
        this.single(ref(result[1], null, null, pytestSymbol(result[2]), 'failure', 'pytest'));
        return true;
      }
    }
    const verbose = PYTEST_VERBOSE_RESULT.exec(line);
    if (verbose) {
      this.single(ref(verbose[1], null, null, pytestSymbol(verbose[2]), 'failure', 'pytest'));
      return true;
    }
    return this.pytestEntry(line);
  }

  private pytestEntry(line: string): boolean {
    const m = PYTEST_ENTRY.exec(line);
    if (!m) return false;
    const rest = m[3] ?? '';
    const called = /^in (\S+)$/.exec(rest);
    const raised = !called && /^[A-Za-z_][\w.]*$/.test(rest);
    if (!called && !raised && rest !== '') return false;
    const symbol = called ? pythonSymbol(called[1]) : this.pytestFunction;
    this.ensureBlock('pytest', 'outermost-first', always);
    this.add(ref(m[1], toLine(m[2]), null, symbol, raised ? 'failure' : 'frame', 'pytest'));
    this.pytestFunction = null;
    return true;
  }

  // ---- Rust

  private rust(line: string): boolean {
    if (line.startsWith("thread '")) return this.rustPanic(line);
    if (this.rustPanicPending) return this.rustLegacyPanicEnd(line);
    if (line === 'stack backtrace:') {
      this.ensureBlock('rust', 'innermost-first', (l) => this.rustContinues(l));
      this.rustBacktrace = true;
      return true;
    }
    if (!this.rustBacktrace && line.includes('::') && RUST_BACKTRACE_START.test(line)) {
      this.ensureBlock('rust', 'innermost-first', (l) => this.rustContinues(l));
      this.rustBacktrace = true;
    }
    if (this.rustBacktrace && this.open?.format === 'rust') return this.rustBacktraceLine(line);
    if (line.startsWith('error') || line.startsWith('warning')) {
      const header = RUSTC_HEADER.exec(line);
      if (header) this.rustcKind = header[1] === 'error' ? 'failure' : 'log';
      return false;
    }
    if (line.includes('--> ')) {
      const span = RUSTC_SPAN.exec(line);
      const loc = span && splitLocation(span[1]);
      if (loc) {
        this.single(ref(loc.path, loc.line, loc.column, null, this.rustcKind, 'rustc'));
        return true;
      }
    }
    if (line.startsWith('---- ') && CARGO_TEST_OUTPUT.test(line)) {
      this.close();
      this.cargoTest = true;
      return true;
    }
    if (line.startsWith('running ') && CARGO_RUNNING.test(line)) this.cargoTest = true;
    return false;
  }

  /** `thread 'main' panicked at src/main.rs:12:5:`; before Rust 1.73 `... panicked at 'message', src/main.rs:12:5`. */
  private rustPanic(line: string): boolean {
    const m = RUST_PANIC.exec(line);
    if (!m) return false;
    this.openBlock('rust', 'innermost-first', (l) => this.rustContinues(l));
    let location = m[2].replace(/:$/, '');
    if (location.startsWith("'")) {
      const end = RUST_LEGACY_PANIC_END.exec(location);
      if (!end) {
        // The quoted message goes on over more lines; the location ends the last of them.
        this.rustPanicPending = true;
        return true;
      }
      location = end[1];
    }
    this.addRustPanic(location);
    return true;
  }

  private rustLegacyPanicEnd(line: string): boolean {
    const end = RUST_LEGACY_PANIC_END.exec(line);
    if (!end) {
      if (line === '') this.rustPanicPending = false;
      return false;
    }
    this.rustPanicPending = false;
    this.addRustPanic(end[1]);
    return true;
  }

  private addRustPanic(location: string): void {
    const loc = splitLocation(location);
    if (loc) this.add(ref(loc.path, loc.line, loc.column, null, 'failure', this.cargoTest ? 'cargo-test' : 'rust-panic'));
  }

  private rustBacktraceLine(line: string): boolean {
    const at = RUST_BACKTRACE_AT.exec(line);
    if (at) {
      const loc = splitLocation(at[1]);
      if (loc) this.add(ref(loc.path, loc.line, loc.column, this.rustFrame, 'frame', this.cargoTest ? 'cargo-test' : 'rust-panic'));
      return true;
    }
    const frame = RUST_BACKTRACE_FRAME.exec(line);
    if (!frame) return false;
    this.rustFrame = rustSymbol(frame[1]);
    return true;
  }

  /** The panic message runs until a blank line; a backtrace, until a line that is not one of its frames. */
  private rustContinues(line: string): boolean {
    return !this.rustBacktrace && line.trim() !== '';
  }

  // ---- Go

  /** `goroutine 1 [running]:`, then pairs of lines: the call (`main.parse(...)`), then `\t/path/x.go:42 +0x1d`. */
  private goroutine(line: string): boolean {
    if (line.startsWith('goroutine ') && GOROUTINE.test(line)) {
      this.openBlock('go', 'innermost-first', isGoElision);
      return true;
    }
    if (this.open?.format !== 'go' || line === '') return false;
    if (line[0] === ' ' || line[0] === '\t') {
      const m = GO_FRAME_LOCATION.exec(line);
      if (!m) return false;
      this.add(ref(m[1], toLine(m[2]), null, goSymbol(this.goFunction), 'frame', 'go-panic'));
      return true;
    }
    if (line.startsWith('created by ')) {
      this.goFunction = line.slice('created by '.length).replace(/ in goroutine \d+$/, '');
      return true;
    }
    if (!line.endsWith(')')) return false;
    this.goFunction = line;
    return true;
  }

  /**
   * `go test` prints `    cart_test.go:12: got 2, want 3` under the running test, the same for
   * t.Log as for t.Error: the test's `--- PASS` makes its lines logs. The file name is bare; the
   * package result line (`FAIL github.com/acme/shop/cart 0.01s`) says which directory it is in.
   */
  private goTest(line: string): boolean {
    if (line.includes('=== ') || line.includes('--- ')) {
      const event = GO_TEST_EVENT.exec(line);
      if (event) {
        this.goTestEvent(event[1] ?? event[2], event[3]);
        return true;
      }
    }
    if (line.startsWith('FAIL') || line.startsWith('ok')) {
      const result = GO_PACKAGE_RESULT.exec(line);
      if (result) {
        for (const r of this.goTestAwaitingPackage) r.dirHint = result[1];
        this.goTestAwaitingPackage = [];
        this.goTestRefs.clear();
        this.close();
        return true;
      }
    }
    if (!line.includes('.go:')) return false;
    const log = GO_TEST_LOG.exec(line);
    if (log) {
      this.goTestLog(log[1], toLine(log[2]));
      return true;
    }
    const build = GO_BUILD_ERROR.exec(line);
    if (!build) return false;
    this.single(ref(build[1], toLine(build[2]), toLine(build[3]), null, 'failure', 'go-build'));
    return true;
  }

  private goTestEvent(verb: string, name: string): void {
    this.close();
    if (verb === 'PAUSE') return;
    this.goTestName = name;
    this.goTestPassed = verb === 'PASS' || verb === 'SKIP';
    if (this.goTestPassed) for (const r of this.goTestRefs.get(name) ?? []) r.kind = 'log';
  }

  private goTestLog(file: string, line: number | null): void {
    const test = this.goTestName;
    const symbol = test && file.endsWith('_test.go') ? test.split('/')[0] : null;
    const r = ref(file, line, null, symbol, this.goTestPassed ? 'log' : 'failure', 'go-test');
    if (!/[/\\]/.test(file)) this.goTestAwaitingPackage.push(r);
    if (test) {
      const list = this.goTestRefs.get(test);
      if (list) list.push(r);
      else this.goTestRefs.set(test, [r]);
    }
    this.single(r);
  }

  // ---- Java

  /** `at com.acme.shop.Cart.total(Cart.java:42)`: the package and the file name make the path. */
  private java(line: string): boolean {
    if (!line.trimStart().startsWith('at ')) return false;
    const m = JAVA_FRAME.exec(line);
    if (!m) return false;
    // Module and class-loader prefixes: java.base/java.util.ArrayList, app//com.acme.Foo
    const qualified = m[1].slice(m[1].lastIndexOf('/') + 1);
    const dot = qualified.lastIndexOf('.');
    if (dot <= 0) return false;
    const className = qualified.slice(0, dot);
    this.ensureBlock('java', 'innermost-first', isJavaOmitted);
    const source = JAVA_SOURCE.exec(m[2]);
    if (source) {
      this.rememberJavaClass(className);
      this.add(ref(javaPath(className, source[1]), toLine(source[2]), null, javaSymbol(className, qualified.slice(dot + 1)),
        'frame', 'java-stack'));
    }
    return true;
  }

  private junit(line: string): boolean {
    if (line.startsWith('[')) {
      const compiler = MAVEN_COMPILER.exec(line);
      if (compiler) {
        this.single(ref(compiler[2], toLine(compiler[3]), toLine(compiler[4]), null,
          compiler[1] === 'ERROR' ? 'failure' : 'log', 'javac'));
        return true;
      }
      const testCase = SUREFIRE_CASE.exec(line);
      if (testCase) return this.failedJavaTest(testCase[1], testCase[2], null);
      const summary = SUREFIRE_SUMMARY.exec(line);
      if (summary) return this.failedJavaTest(summary[1], summary[2], toLine(summary[3]));
    }
    if (line.includes('Time elapsed')) {
      const legacy = SUREFIRE_LEGACY_CASE.exec(line);
      if (legacy) return this.failedJavaTest(legacy[2], legacy[1], null);
    }
    if (line.endsWith(')')) {
      const junit4 = JUNIT4_FAILURE.exec(line);
      if (junit4) return this.failedJavaTest(junit4[2], junit4[1], null);
    }
    return this.gradle(line);
  }

  /** Gradle: `CartTest > totalSumsPrices() FAILED`, then `    AssertionFailedError at CartTest.java:25`. */
  private gradle(line: string): boolean {
    if (line.endsWith(' FAILED')) {
      const m = GRADLE_CASE.exec(line);
      if (!m) return false;
      this.gradleTest = { className: m[1], method: m[2] };
      return this.failedJavaTest(m[1], m[2], null);
    }
    const test = this.gradleTest;
    if (!test || !line.includes(' at ')) return false;
    const m = GRADLE_LOCATION.exec(line);
    if (!m) return false;
    const inTest = m[1].slice(0, m[1].lastIndexOf('.')) === outerClassName(test.className);
    const path = inTest ? javaPath(this.qualifiedJavaClass(test.className), m[1]) : m[1];
    this.single(ref(path, toLine(m[2]), null, inTest ? javaSymbol(test.className, test.method) : null, 'failure', 'junit'));
    return true;
  }

  private failedJavaTest(className: string, method: string, line: number | null): boolean {
    this.rememberJavaClass(className);
    const qualified = this.qualifiedJavaClass(className);
    this.single(ref(javaPath(qualified, `${outerClassName(qualified)}.java`), line, null, javaSymbol(qualified, method),
      'failure', 'junit'));
    return true;
  }

  private rememberJavaClass(className: string): void {
    const dot = className.lastIndexOf('.');
    if (dot > 0) this.javaPackages.set(outerClassName(className), className.slice(0, dot));
  }

  private qualifiedJavaClass(className: string): string {
    if (className.includes('.')) return className;
    const pkg = this.javaPackages.get(outerClassName(className));
    return pkg ? `${pkg}.${className}` : className;
  }

  // ---- JavaScript and TypeScript

  /** V8: `at fn (path:line:col)`, `at path:line:col`, `at async fn (file:///...)`; Jest and Vitest print the same. */
  private v8(line: string): boolean {
    const t = line.trimStart();
    if (!t.startsWith('at ')) return false;
    this.ensureBlock('v8', 'innermost-first', never);
    const frame = parseV8Frame(t.slice(3));
    if (frame) this.add(ref(frame.path, frame.line, frame.column, v8Symbol(frame.fn), 'frame', this.testRunner ?? 'node-stack'));
    return true;
  }

  /** ` FAIL  src/cart.test.ts` (Jest), ` FAIL  src/cart.test.ts > Cart > sums` (Vitest). */
  private testRunnerHeader(line: string): boolean {
    if (line.includes('●')) {
      if (this.testRunner !== 'vitest') this.testRunner = 'jest';
      return false;
    }
    if (!line.includes('FAIL')) return false;
    const m = RUNNER_FAIL.exec(line);
    if (!m || !JS_FILE.test(m[1])) return false;
    this.testRunner = /^\s+>/.test(m[2]) || this.testRunner === 'vitest' ? 'vitest' : 'jest';
    this.single(ref(m[1], null, null, null, 'failure', this.testRunner));
    return true;
  }

  /** Vitest: ` ❯ fn src/cart.ts:5:11`, ` ❯ src/cart.test.ts:11:26`, and ` ❯ src/cart.test.ts (3 tests | 1 failed)`. */
  private vitest(line: string): boolean {
    const t = line.trimStart();
    if (!t.startsWith('❯ ')) return false;
    this.testRunner = 'vitest';
    const rest = t.slice(2).trim();
    const suite = VITEST_SUITE.exec(rest);
    if (suite) {
      if (suite[3] && suite[3] !== '0' && JS_FILE.test(suite[1])) this.single(ref(suite[1], null, null, null, 'failure', 'vitest'));
      return true;
    }
    const space = rest.lastIndexOf(' ');
    const where = splitLocation(space >= 0 ? rest.slice(space + 1) : rest);
    if (!where) return true;
    this.ensureBlock('vitest', 'innermost-first', isCodeFrame);
    this.add(ref(where.path, where.line, where.column, v8Symbol(space >= 0 ? rest.slice(0, space) : null), 'frame', 'vitest'));
    return true;
  }

  /** `src/x.ts(12,5): error TS2322: ...` and, with --pretty, `src/x.ts:12:5 - error TS2322: ...`. */
  private typescript(line: string): boolean {
    if (!line.includes(' TS')) return false;
    const m = TSC_PAREN.exec(line) ?? TSC_PRETTY.exec(line);
    if (!m) return false;
    this.single(ref(m[1], toLine(m[2]), toLine(m[3]), null, m[4] === 'error' ? 'failure' : 'log', 'tsc'));
    return true;
  }

  // ---- PHP

  /**
   * `PHP Fatal error:  Uncaught RuntimeException: x in /app/src/Cart.php:42`, `Stack trace:`,
   * `#0 /app/src/Checkout.php(18): App\Cart->total()`, ..., `  thrown in /app/src/Cart.php on line 42`.
   * Frame #N's line is inside the function frame #N+1 calls, so names shift by one (see finishPhpTrace).
   */
  private phpError(line: string): boolean {
    const first = line[0];
    if (first === '#') return this.phpFrame(line);
    if (line === 'Stack trace:') {
      if (this.open?.format !== 'php') this.openPhpTrace();
      return true;
    }
    if (line.includes('thrown in')) {
      const thrown = PHP_THROWN.exec(line);
      if (thrown) {
        if (this.open?.format !== 'php') this.openPhpTrace();
        this.add(ref(thrown[1], toLine(thrown[2]), null, null, 'failure', 'php-error'));
        return true;
      }
    }
    if (!'PFWNDRCS'.includes(first ?? ' ')) return false;
    const next = PHP_NEXT.test(line);
    const message = next ? null : PHP_MESSAGE.exec(line);
    if (!next && !message) return false;
    const site = phpMessageLocation(next ? line : message![2]);
    if (!site) return false;
    const severity = next ? 'Fatal error' : message![1];
    if (/Fatal/.test(severity)) {
      this.openPhpTrace();
      this.add(ref(site.path, site.line, null, null, 'failure', 'php-error'));
    } else {
      this.single(ref(site.path, site.line, null, null, severity === 'Parse error' ? 'failure' : 'log', 'php-error'));
    }
    return true;
  }

  private openPhpTrace(): void {
    const trace: PhpTrace = { callees: [], frameOf: new Map() };
    this.php = trace;
    this.openBlock('php', 'innermost-first', never, (refs) => finishPhpTrace(refs, trace));
  }

  private phpFrame(line: string): boolean {
    const m = PHP_FRAME.exec(line);
    if (!m) return false;
    const index = Number(m[1]);
    const location = PHP_FRAME_LOCATION.exec(m[2]);
    if (!location && !/^(?:\[internal function\]|\{main\})/.test(m[2])) return false;
    if (this.open?.format !== 'php') this.openPhpTrace();
    const trace = this.php!;
    if (!location) {
      trace.callees[index] = m[2].startsWith('{main}') ? '{main}' : m[2].slice(m[2].indexOf(': ') + 2);
      return true;
    }
    trace.callees[index] = location[3];
    const r = ref(location[1], toLine(location[2]), null, null, 'frame', 'php-error');
    trace.frameOf.set(r, index);
    this.add(r);
    return true;
  }

  /** PHPUnit: `1) Tests\CartTest::testTotal`, the message, then the trace as bare `/path/CartTest.php:34` lines. */
  private phpunit(line: string): boolean {
    const first = line.charCodeAt(0);
    if (first >= 48 && first <= 57) {
      const m = PHPUNIT_TEST.exec(line);
      if (m) {
        this.openBlock('phpunit', 'innermost-first', (l) => !PHPUNIT_END.test(l));
        this.phpunitTest = { className: m[1].slice(m[1].lastIndexOf('\\') + 1), method: m[2] };
        return true;
      }
    }
    if (this.open?.format !== 'phpunit' || !this.phpunitTest) return false;
    const m = PHPUNIT_LOCATION.exec(line);
    if (!m) return false;
    const { className, method } = this.phpunitTest;
    const inTest = m[1].endsWith(`/${className}.php`) || m[1] === `${className}.php`;
    const kind = this.open.refs.length === 0 ? 'failure' : 'frame';
    this.add(ref(m[1], toLine(m[2]), null, inTest ? `${className}.${method}` : null, kind, 'phpunit'));
    return true;
  }

  // ---- Swift

  private swift(line: string): boolean {
    if (line.includes('.swift:')) {
      const failure = XCTEST_FAILURE.exec(line);
      if (failure) {
        this.single(ref(failure[1], toLine(failure[2]), null, xctestSymbol(failure[3]), 'failure', 'swift-xctest'));
        return true;
      }
      const fatal = SWIFT_FATAL.exec(line);
      if (fatal) {
        this.single(ref(fatal[1], toLine(fatal[2]), null, null, 'failure', 'swift-crash'));
        return true;
      }
    }
    if (line.includes(', line ')) {
      const legacy = swiftLegacyFatal(line);
      if (legacy) {
        this.single(ref(legacy.path, legacy.line, null, null, 'failure', 'swift-crash'));
        return true;
      }
    }
    if (line.includes('0x')) return this.crashFrame(line);
    if (line.includes(' recorded an issue at ')) {
      const issue = SWIFT_TESTING_ISSUE.exec(line);
      if (!issue) return false;
      const test = /Test (\w+)\(/.exec(line);
      this.single(ref(issue[1], toLine(issue[2]), toLine(issue[3]), test ? test[1] : null, 'failure', 'swift-testing'));
      return true;
    }
    return false;
  }

  /**
   * A crashed thread's frames: Swift's backtracer (`0  0x000055d9 Cart.total() + 93 in shop at /src/Cart.swift:42:18`),
   * a symbolicated crash report (`0  shop  0x0000000100003f2c Cart.total() + 44 (Cart.swift:42)`), lldb's `bt`.
   */
  private crashFrame(line: string): boolean {
    const lldb = LLDB_FRAME.exec(line);
    const m = lldb ?? CRASH_FRAME.exec(line);
    if (!m) return false;
    this.ensureBlock('swift-crash', 'innermost-first', isCodeFrame);
    const frame = parseCrashFrame(lldb ? m[1].slice(m[1].indexOf('`') + 1) : m[1]);
    if (frame) this.add(ref(frame.path, frame.line, frame.column, swiftSymbol(frame.fn), 'frame', 'swift-crash'));
    return true;
  }

  /** `path:12:5: error: message` from swiftc, clang and the like. */
  private diagnostic(line: string): boolean {
    if (!line.includes(': error: ') && !line.includes(': warning: ') && !line.includes(': fatal error: ')) return false;
    const m = DIAGNOSTIC.exec(line);
    if (!m) return false;
    const source = m[1].endsWith('.swift') ? 'swiftc' : 'compiler';
    this.single(ref(m[1], toLine(m[2]), toLine(m[3]), null, m[4] === 'warning' ? 'log' : 'failure', source));
    return true;
  }

  // ---- anything else

  /** `path.ext:12[:5]`, `path.ext(12,5)`, `path.ext", line 12`, `path.ext on line 12`, `path.ext#L12` anywhere in a line. */
  private matchGeneric(line: string): void {
    if (line.length < 5) return;
    GENERIC_LOCATION.lastIndex = 0;
    let found = 0;
    for (let m = GENERIC_LOCATION.exec(line); m && found < MAX_GENERIC_PER_LINE; m = GENERIC_LOCATION.exec(line)) {
      const end = m.index + 1 + m[1].length;
      const start = pathStart(line, m.index);
      if (start === m.index) continue;
      const lineNo = toLine(m[2] ?? m[4] ?? m[6] ?? m[7] ?? m[8]);
      if (lineNo === null) continue;
      const r = ref(line.slice(start, end), lineNo, toLine(m[3] ?? m[5]), null, 'log', 'generic');
      r.onlyIfResolved = true;
      if (this.open) this.loose.push(r);
      else this.push([r]);
      found++;
    }
  }
}

/** Where the path ending just before `end` starts: back over path characters, a drive letter, a URL scheme. */
function pathStart(line: string, end: number): number {
  let i = end;
  while (i > 0 && isPathChar(line.charCodeAt(i - 1))) i--;
  if (i >= 2 && line[i - 1] === ':') {
    const drive = /[A-Za-z]/.test(line[i - 2]) && (i < 3 || !isPathChar(line.charCodeAt(i - 3))) && /[\\/]/.test(line[i] ?? '');
    if (drive) return i - 2;
    if (line.startsWith('//', i)) {
      let s = i - 1;
      while (s > 0 && /[A-Za-z+.-]/.test(line[s - 1])) s--;
      if (s < i - 1) return s;
    }
  }
  return i;
}

// Not whitespace, quotes, brackets or the separators tools put around a path.
const NOT_PATH = new Set([...'"\'`()[]{}<>,;|*?=:#&']);

function isPathChar(code: number): boolean {
  return code > 32 && code !== 127 && !NOT_PATH.has(String.fromCharCode(code));
}

function parseV8Frame(text: string): { fn: string | null; path: string; line: number; column: number | null } | null {
  const s = text.trim();
  let fn: string | null = null;
  let location = s;
  if (s.endsWith(')')) {
    const open = openingParen(s);
    if (open < 0) return null;
    fn = s.slice(0, open).trim() || null;
    location = s.slice(open + 1, -1);
  }
  // `eval at fn (file.js:1:1), <anonymous>:1:1` names no file of its own
  if (location.includes('(') || location.startsWith('eval at ')) return null;
  const where = splitLocation(location);
  return where && { fn, ...where };
}

function parseCrashFrame(text: string): { fn: string; path: string; line: number; column: number | null } | null {
  if (text.endsWith(')')) {
    const open = openingParen(text);
    const where = open > 0 ? splitLocation(text.slice(open + 1, -1)) : null;
    if (where) return { fn: text.slice(0, open), ...where };
  }
  const at = text.lastIndexOf(' at ');
  const where = at >= 0 ? splitLocation(text.slice(at + 4)) : null;
  return where && { fn: text.slice(0, at), ...where };
}

/**
 * Swift before 5.3: `Fatal error: <message>: file Shop/Cart.swift, line 42`. Split by hand at the last
 * `: file `, because a pattern would try every `: file ` in the message against the rest of the line.
 */
function swiftLegacyFatal(line: string): { path: string; line: number | null } | null {
  const fileAt = line.lastIndexOf(': file ');
  if (fileAt < 0 || !SWIFT_FATAL_PREFIX.test(line.slice(0, fileAt + 2))) return null;
  const tail = SWIFT_LEGACY_FATAL_TAIL.exec(line.slice(fileAt + ': file '.length));
  return tail && { path: tail[1], line: toLine(tail[2]) };
}

/** `... in /app/src/Cart.php:42` or `... in /app/src/Cart.php on line 42`. */
function phpMessageLocation(message: string): { path: string; line: number | null } | null {
  const end = PHP_LOCATION_END.exec(message);
  if (!end) return null;
  const inAt = message.lastIndexOf(' in ', end.index);
  if (inAt < 0) return null;
  return { path: message.slice(inAt + 4, end.index), line: toLine(end[1] ?? end[2]) };
}

/**
 * PHP prints at frame #N the line that calls the function named there, so that line is inside the
 * function frame #N+1 calls (the error site is inside #0's). The site goes first: `thrown in` repeats it last.
 */
function finishPhpTrace(refs: RawRef[], trace: PhpTrace): RawRef[] {
  for (const r of refs) r.symbol = phpSymbol(trace.callees[(trace.frameOf.get(r) ?? -1) + 1]);
  return [...refs.filter((r) => !trace.frameOf.has(r)), ...refs.filter((r) => trace.frameOf.has(r))];
}

/** `com/acme/shop/Cart.java` for class `com.acme.shop.Cart$Line` printed in file `Cart.java`. */
function javaPath(className: string, fileName: string): string {
  const outer = className.split('$')[0];
  const dot = outer.lastIndexOf('.');
  return dot > 0 ? `${outer.slice(0, dot).replace(/\./g, '/')}/${fileName}` : fileName;
}

function outerClassName(className: string): string {
  const outer = className.split('$')[0];
  return outer.slice(outer.lastIndexOf('.') + 1);
}
