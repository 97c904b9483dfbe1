import type { Node } from 'web-tree-sitter';
import { swiftCheckoutPackage } from '../deps/lookups.js';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView, Visibility, VisibilityInput } from './types.js';
import { baseName, sharedPrefix, stripExt } from './paths.js';
import { normalizeForGrammar } from './swift-source.js';

/**
 * SwiftPM puts a target's sources in `Sources/<Target>/` and its tests in `Tests/<Target>/`; every file
 * of a target is one Swift module. The prefix through the target folder names the module.
 */
const SWIFTPM_TARGET = /^((?:[^/]+\/)*?(?:Sources|Tests)\/[^/]+)\//;
const SOURCES_TARGET = /^((?:[^/]+\/)*?Sources\/([^/]+))\//;
/** XCTest bundles live in `Tests/` or in folders named like `MyAppTests/`, `MyAppUITests/`. */
const TEST_DIR = /(^|\/)[^/]*Tests\//;
const TEST_FILE = /Tests?\.swift$/;
/** `import struct Foo.Bar` imports one declaration of module Foo. */
const IMPORT_KINDS = new Set(['typealias', 'struct', 'class', 'enum', 'protocol', 'let', 'var', 'func']);

function parseImport(node: Node): ImportSpec[] {
  const path = node.namedChildren.find((c) => c?.type === 'identifier');
  if (!path) return [];
  const parts = path.namedChildren.filter((c): c is Node => c?.type === 'simple_identifier').map((c) => c.text);
  if (!parts.length) return [];
  const line = node.startPosition.row + 1;
  const declarationKind = node.children.some((c) => c && !c.isNamed && IMPORT_KINDS.has(c.type));
  if (declarationKind && parts.length > 1) {
    return [{ module: parts.slice(0, -1).join('.'), names: [{ name: parts[parts.length - 1] }], line }];
  }
  // A module import makes every public name of the module visible unqualified, and `Module.name` too.
  return [{ module: parts.join('.'), alias: parts[0], names: [], wildcard: true, line }];
}

/**
 * `private(set)` and `fileprivate(set)` restrict only the setter: the modifier scan sees `private` and
 * `set`, so a lone private/fileprivate next to `set` is the setter's, and the getter stays internal.
 */
function visibility({ modifiers }: VisibilityInput): Visibility {
  if (modifiers.has('public') || modifiers.has('open')) return 'public';
  const setterOnly = modifiers.has('set');
  const priv = modifiers.has('private');
  const filePriv = modifiers.has('fileprivate');
  if (setterOnly) {
    if (priv && filePriv) return 'fileprivate';
    return 'internal';
  }
  if (filePriv) return 'fileprivate';
  if (priv) return 'private';
  return 'internal';
}

/**
 * `async` follows the parameter list, and `class func` / `class var` declare type members: neither is a
 * keyword before the name with its usual spelling, so the generic modifier scan misses them.
 */
function definitionModifiers(def: Node): string[] {
  const out: string[] = [];
  const member = def.type === 'function_declaration' || def.type === 'property_declaration'
    || def.type === 'protocol_function_declaration' || def.type === 'subscript_declaration';
  for (const c of def.children) {
    if (!c) continue;
    if (!c.isNamed && c.type === 'async') out.push('async');
    if (member && !c.isNamed && c.type === 'class') out.push('static');
    if (member && c.type === 'modifiers' && c.namedChildren.some((m) => m?.type === 'property_modifier' && m.text === 'class')) {
      out.push('static');
    }
  }
  return out;
}

/** `///` and `/** */` document the next declaration; `//` comments (`// MARK: -`) do not. */
function isDocComment(text: string): boolean {
  return text.startsWith('///') || (text.startsWith('/**') && !text.startsWith('/**/'));
}

/** The module a file belongs to: its SwiftPM target, else its top-level directory (an Xcode target). */
function sharedScopeKey(path: string): string {
  const target = SWIFTPM_TARGET.exec(path);
  if (target) return target[1];
  const slash = path.indexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * `import Name` resolves to every file of the local SwiftPM target `Sources/Name/`; any other module
 * (Foundation, a dependency) is external. With several packages in one repository, the target nearest
 * the importing file wins.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  const targets = new Map<string, Map<string, string[]>>(); // name -> target folder -> files
  for (const file of repo.files) {
    if (!file.endsWith('.swift')) continue;
    const m = SOURCES_TARGET.exec(file);
    if (!m) continue;
    let folders = targets.get(m[2]);
    if (!folders) targets.set(m[2], (folders = new Map()));
    const files = folders.get(m[1]);
    if (files) files.push(file);
    else folders.set(m[1], [file]);
  }
  return {
    resolveModule(spec, fromPath) {
      const folders = targets.get(spec.module.split('.')[0]);
      if (!folders) return null;
      let best: string[] | null = null;
      let bestShared = -1;
      for (const [folder, files] of folders) {
        const shared = sharedPrefix(folder, fromPath);
        if (shared > bestShared) {
          best = files;
          bestShared = shared;
        }
      }
      return best;
    },
  };
}

export const swift: LanguageSpec = {
  id: 'swift',
  // Parameters, closure parameters and local `let`/`var` belong to their function or closure (queries/swift/locals.scm).
  localScopes: new Set(['function_declaration', 'init_declaration', 'lambda_literal']),
  displayName: 'Swift',
  extensions: ['.swift'],
  grammar: 'tree-sitter-swift.wasm',
  queryDir: 'swift',
  commentTypes: ['comment', 'multiline_comment'],
  // Attributes sit inside the declaration's `modifiers`, so doc comments are right above the declaration.
  wrapperTypes: [],
  annotationTypes: ['attribute'],
  selfNames: ['self', 'Self'],
  bareCallsReachMembers: true,
  argumentLabels: true,
  visibility,
  definitionModifiers,
  // `#if` lines, macros, raw strings and syntax newer than the grammar, rewritten in place (swift-source.ts).
  preprocess: normalizeForGrammar,
  isDocComment,
  parseImport,
  moduleName: (path) => stripExt(path),
  sharedScopeKey,
  isTestFile: (path) => TEST_DIR.test(path) || TEST_FILE.test(baseName(path)),
  isTestSymbol: ({ name, kind, annotations, inTestFile }) => {
    // swift-testing: `@Test` functions and `@Suite` types, wherever they are.
    if (annotations.includes('Test')) return kind === 'function' || kind === 'method';
    if (annotations.includes('Suite')) return true;
    if (!inTestFile) return false;
    // XCTest runs the `test…` methods of XCTestCase subclasses (conventionally named `…Tests`).
    if (kind === 'method') return /^test/.test(name);
    if (kind === 'class') return /Tests?$/.test(name);
    return false;
  },
  createImportResolver,
  installedPackage: swiftCheckoutPackage,
};
