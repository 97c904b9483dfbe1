import type { Node, Range } from 'web-tree-sitter';
import { cargoVendorPackage } from '../deps/lookups.js';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView, Visibility, VisibilityInput } from './types.js';
import { baseName, dirOf, joinPath, stripExt } from './paths.js';

/** `#[test]`, `#[tokio::test]`, `#[async_std::test]` and the common test-case attribute crates. */
const TEST_ATTRIBUTE = /^(test|rstest|test_case|quickcheck|wasm_bindgen_test|([\w]+::)+test)$/;
const TEST_MODULE = /^tests?$/;
/** Integration tests live in a package's `tests/`; `foo/tests.rs` is the usual home of a unit-test module. */
const TEST_PATH = /(^|\/)tests\/|(^|\/)tests\.rs$/;

const PRIMITIVES = new Set('bool char str u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64'.split(' '));
/** Types and traits every file sees through the prelude: `Vec::new()`, `String::from(..)`, `Default::default()`. */
const PRELUDE_TYPES = new Set((
  'Box String Vec Option Result Default Clone Copy Send Sync Sized Unpin Drop Fn FnMut FnOnce From Into TryFrom '
  + 'TryInto AsRef AsMut Iterator IntoIterator DoubleEndedIterator ExactSizeIterator Extend FromIterator ToString '
  + 'ToOwned PartialEq Eq PartialOrd Ord').split(' '));
/**
 * What every file sees without a `use`: the prelude's functions and variant constructors (bare calls),
 * its types and traits and the primitive types (receivers: `Vec::new()`, `u32::from(..)`, `x: String`).
 */
const BUILTINS = new Set([
  ...'Some Ok Err drop size_of size_of_val align_of align_of_val'.split(' '), ...PRIMITIVES, ...PRELUDE_TYPES,
]);
/**
 * Methods of Option, Result, iterators, slices, strings, collections and the common traits: through a
 * receiver of unknown type these are most likely std's, not a repository method that shares the name.
 */
const BUILTIN_METHODS = new Set((
  'unwrap expect unwrap_or unwrap_or_else unwrap_or_default unwrap_err expect_err unwrap_unchecked map map_err '
  + 'map_or map_or_else and_then or_else ok err ok_or ok_or_else is_some is_none is_ok is_err is_some_and as_ref '
  + 'as_mut as_deref as_deref_mut take replace get_or_insert_with filter flatten copied cloned clone clone_from '
  + 'to_string to_owned into try_into iter iter_mut into_iter next next_back collect filter_map flat_map enumerate '
  + 'zip rev chain fold try_fold any all count sum product max min max_by_key min_by_key max_by min_by last nth skip '
  + 'step_by take_while skip_while peekable position rposition find_map for_each inspect partition unzip len '
  + 'is_empty push push_str pop insert remove get get_mut get_unchecked contains contains_key extend '
  + 'extend_from_slice clear sort sort_by sort_by_key sort_unstable sort_unstable_by dedup retain truncate drain '
  + 'split_off split_at split_at_mut split_whitespace trim trim_start trim_end starts_with ends_with strip_prefix '
  + 'strip_suffix to_vec as_slice as_mut_slice as_ptr as_mut_ptr chars char_indices bytes lines parse '
  + 'to_lowercase to_uppercase to_ascii_lowercase to_ascii_uppercase eq_ignore_ascii_case is_ascii '
  + 'is_alphabetic is_alphanumeric is_numeric is_whitespace is_ascii_digit to_digit from_u32 eq ne cmp '
  + 'partial_cmp lt le gt ge hash borrow borrow_mut lock try_lock read write entry or_insert or_insert_with '
  + 'or_default and_modify keys values values_mut capacity with_capacity reserve shrink_to_fit resize swap '
  + 'windows chunks first first_mut last_mut iter_rev abs pow powi sqrt floor ceil round checked_add checked_sub '
  + 'checked_mul checked_div wrapping_add wrapping_sub wrapping_mul saturating_add saturating_sub overflowing_add '
  + 'leading_zeros trailing_zeros count_ones to_le_bytes to_be_bytes from_le_bytes from_be_bytes as_bytes '
  + 'as_str into_boxed_slice into_bytes into_inner get_ref downcast_ref fmt write_str write_fmt write_all flush '
  + 'join spawn send recv load store fetch_add fetch_sub compare_exchange unwrap_or_abort').split(' '));
/** Crates that are never part of a repository. */
const SYSTEM_CRATES = new Set(['std', 'core', 'alloc', 'proc_macro', 'test']);

const PATH = /^(::)?[A-Za-z_]\w*(::[A-Za-z_]\w*)*$/;

// ---- imports -----------------------------------------------------------------------------------

/** A `use` declaration, `extern crate` or `mod name;` as import specs, one per module path. */
function parseImport(node: Node): ImportSpec[] {
  const line = node.startPosition.row + 1;
  if (node.type === 'extern_crate_declaration') {
    const name = node.childForFieldName('name')?.text;
    if (!name) return [];
    return [{ module: name, alias: node.childForFieldName('alias')?.text ?? name, names: [], line }];
  }
  if (node.type === 'mod_item') {
    const name = node.childForFieldName('name')?.text;
    if (!name) return [];
    // `#[path = "unix/mod.rs"] mod imp;` names its file, relative to the declaring file's directory.
    const path = pathAttribute(node);
    return [{ module: path ? JSON.stringify(path) : `self::${name}`, alias: name, names: [], line }];
  }
  const arg = node.childForFieldName('argument');
  if (!arg) return [];
  const chain = inlineModules(node);
  const specs: ImportSpec[] = [];
  for (const u of useTree(arg, [])) {
    const module = fromInlineModule(u.module, chain).join('::');
    // `use super::*` in `mod tests` takes the file's own names, which the module sees anyway.
    if (!module || (chain.length && module === 'self' && !u.alias)) continue;
    const spec: ImportSpec = { module, names: u.name ? [{ name: u.name, alias: u.alias }] : [], line };
    if (!u.name && u.alias) spec.alias = u.alias;
    if (u.wildcard) spec.wildcard = true;
    specs.push(spec);
  }
  const reexport = node.namedChildren.some((c) => c?.type === 'visibility_modifier');
  return mergeNames(specs).map((s) => (reexport ? { ...s, reexport: true } : s));
}

function pathAttribute(node: Node): string | null {
  for (let s = node.previousNamedSibling; s; s = s.previousNamedSibling) {
    if (s.type === 'line_comment' || s.type === 'block_comment') continue;
    if (s.type !== 'attribute_item') break;
    const m = /^#\[\s*path\s*=\s*"([^"]+)"\s*\]$/.exec(s.text);
    if (m) return m[1];
  }
  return null;
}

interface UsePath {
  module: string[];
  /** The item taken from the module; absent when the module itself is bound (`alias`) or globbed. */
  name?: string;
  alias?: string;
  wildcard?: boolean;
}

/** Flattens a use tree: `a::{b::C as D, self, e::*}` -> `a::b` C as D, `a` as a, `a::e` *. */
function useTree(node: Node, prefix: string[]): UsePath[] {
  switch (node.type) {
    case 'use_list':
      return node.namedChildren.flatMap((c) => (c && c.type !== 'line_comment' && c.type !== 'block_comment' ? useTree(c, prefix) : []));
    case 'scoped_use_list': {
      const path = node.childForFieldName('path');
      const list = node.childForFieldName('list');
      return list ? useTree(list, [...prefix, ...(path ? segments(path.text) : [])]) : [];
    }
    case 'use_wildcard': {
      const path = node.namedChildren[0];
      return [{ module: [...prefix, ...(path ? segments(path.text) : [])], wildcard: true }];
    }
    case 'use_as_clause': {
      const path = node.childForFieldName('path');
      const alias = node.childForFieldName('alias')?.text;
      return path ? [usePath([...prefix, ...segments(path.text)], alias)] : [];
    }
    default:
      return [usePath([...prefix, ...segments(node.text)])];
  }
}

function usePath(full: string[], alias?: string): UsePath {
  const last = full[full.length - 1];
  const module = full.slice(0, -1);
  if (last === 'self') return { module, alias: alias ?? module[module.length - 1] };
  // `use foo;` / `use foo as bar;`: a crate or module bound by its own name.
  if (!module.length) return { module: full, alias: alias ?? last };
  return { module, name: last, alias };
}

function segments(path: string): string[] {
  return path.replace(/\s+/g, '').replace(/^::/, '').split('::').filter(Boolean);
}

/** Names of the inline `mod x { }` blocks around a node, outermost first. */
function inlineModules(node: Node): string[] {
  const out: string[] = [];
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === 'mod_item') {
      const name = p.childForFieldName('name')?.text;
      if (name) out.unshift(name);
    }
  }
  return out;
}

/**
 * Paths relative to an inline module, rewritten relative to the file's own module: inside `mod tests`,
 * `super::x` is the file's `self::x` and `self::x` is `self::tests::x`.
 */
function fromInlineModule(path: string[], chain: string[]): string[] {
  if (!chain.length) return path;
  if (path[0] === 'self') return ['self', ...chain, ...path.slice(1)];
  let ups = 0;
  while (path[ups] === 'super') ups++;
  if (!ups) return path;
  const rest = path.slice(ups);
  if (ups <= chain.length) return ['self', ...chain.slice(0, chain.length - ups), ...rest];
  return [...Array<string>(ups - chain.length).fill('super'), ...rest];
}

/** `use a::{B, C}` reads as one import of two names. */
function mergeNames(specs: ImportSpec[]): ImportSpec[] {
  const out: ImportSpec[] = [];
  for (const s of specs) {
    const prev = out.find((o) => o.module === s.module && o.names.length && s.names.length && !o.alias && !o.wildcard);
    if (prev && !s.alias && !s.wildcard) prev.names.push(...s.names);
    else out.push(s);
  }
  return out;
}

// ---- the module tree ----------------------------------------------------------------------------

/**
 * Rust's module tree, read from the file layout: a crate root (`src/lib.rs`, `src/main.rs`, `src/bin/x.rs`,
 * `tests/x.rs`…) and `mod.rs` keep their child modules beside them, any other `x.rs` in `x/`; a child
 * `foo` is `foo.rs` or `foo/mod.rs` there. Crate names come from each package's Cargo.toml (the root
 * package and `[workspace] members`), with `-` read as `_`.
 */
class ModuleTree {
  private readonly files = new Set<string>();
  private readonly roots = new Set<string>();
  private readonly crates = new Map<string, string>(); // crate name -> its library root

  constructor(private readonly repo: RepoView) {
    for (const f of repo.files) if (f.endsWith('.rs')) this.files.add(f);
    for (const f of this.files) if (isConventionalRoot(f)) this.roots.add(f);
    for (const dir of this.packageDirs()) this.readPackage(dir);
  }

  /** Directories holding a Cargo.toml: the root, workspace members, and the packages of library roots. */
  private packageDirs(): Set<string> {
    const dirs = new Set<string>(['']);
    const root = this.repo.readText('Cargo.toml');
    if (root) {
      const dirsOfFiles = new Set<string>();
      for (const f of this.files) for (let d = dirOf(f); d; d = dirOf(d)) dirsOfFiles.add(d);
      for (const pattern of tomlArray(root, 'workspace', 'members')) {
        const re = new RegExp(`^${pattern.replace(/\/+$/, '').split('*').map(escapeRegExp).join('[^/]*')}$`);
        for (const d of dirsOfFiles) if (re.test(d)) dirs.add(d);
      }
    }
    for (const f of this.roots) {
      if (baseName(f) !== 'lib.rs') continue;
      const dir = dirOf(f);
      dirs.add(baseName(dir) === 'src' ? dirOf(dir) : dir);
    }
    return dirs;
  }

  private readPackage(dir: string): void {
    const toml = this.repo.readText(dir ? `${dir}/Cargo.toml` : 'Cargo.toml');
    const at = (rel: string) => (dir ? `${dir}/${rel}` : rel);
    let lib = at('src/lib.rs');
    let name: string | null = null;
    if (toml) {
      const libPath = tomlString(toml, 'lib', 'path');
      if (libPath) {
        const p = joinPath(dir, libPath);
        if (p) {
          lib = p;
          this.roots.add(p);
        }
      }
      for (const p of tomlTablePaths(toml, 'bin')) {
        const binPath = joinPath(dir, p);
        if (binPath) this.roots.add(binPath);
      }
      name = tomlString(toml, 'lib', 'name') ?? tomlString(toml, 'package', 'name');
    }
    if (!this.files.has(lib)) return;
    name ??= dir ? baseName(dir) : null;
    if (name) this.crates.set(name.replace(/-/g, '_'), lib);
  }

  /** The child module `name` of the module in `file`. */
  child(file: string, name: string): string | null {
    const dir = this.holdsChildrenBeside(file) ? dirOf(file) : stripExt(file);
    for (const cand of [`${dir}/${name}.rs`, `${dir}/${name}/mod.rs`]) {
      const p = cand.replace(/^\//, '');
      if (this.files.has(p)) return p;
    }
    return null;
  }

  /** The module `file` is a child of; null for a crate root. */
  parent(file: string): string | null {
    if (this.roots.has(file)) return null;
    // The directory the module's own entry (`x.rs` or `x/mod.rs`) sits in; its parent keeps children there.
    return this.ownerOfDir(baseName(file) === 'mod.rs' ? dirOf(dirOf(file)) : dirOf(file), file);
  }

  /**
   * The module file that keeps its children in `dir`: `dir/mod.rs`, `dir.rs` or a crate root there;
   * else `dir` is an inline module (`pub mod bsd { mod poll_aio; }`) of the file owning the one above.
   */
  private ownerOfDir(dir: string, file: string): string | null {
    for (let d = dir, depth = 0; depth < 8; d = dirOf(d), depth++) {
      const inDir = (name: string) => (d ? `${d}/${name}` : name);
      for (const cand of [inDir('mod.rs'), ...(d ? [`${d}.rs`] : []), inDir('lib.rs'), inDir('main.rs')]) {
        if (cand !== file && this.files.has(cand)) return cand;
      }
      for (const r of this.roots) if (r !== file && dirOf(r) === d) return r;
      if (!d) break;
    }
    return null;
  }

  crateRoot(file: string): string {
    let cur = file;
    for (let i = 0; i < 64; i++) {
      const up = this.parent(cur);
      if (!up) break;
      cur = up;
    }
    return cur;
  }

  crateNamed(name: string): string | null {
    return this.crates.get(name) ?? null;
  }

  private holdsChildrenBeside(file: string): boolean {
    const base = baseName(file);
    return base === 'mod.rs' || base === 'lib.rs' || base === 'main.rs' || this.roots.has(file);
  }

  /**
   * Where a path written in `from` starts: the module file and how many segments that used up;
   * null when the path leaves the repository.
   */
  start(segs: string[], from: string, bound?: (name: string) => string[] | 'external' | null):
    { file: string; used: number } | null {
    const head = segs[0];
    if (head === 'crate') return { file: this.crateRoot(from), used: 1 };
    if (head === 'self') return { file: from, used: 1 };
    if (head === 'super') {
      let file: string | null = from;
      let used = 0;
      while (segs[used] === 'super' && file) {
        file = this.parent(file);
        used++;
      }
      return file ? { file, used } : null;
    }
    if (SYSTEM_CRATES.has(head)) return null;
    const b = bound?.(head);
    if (b === 'external') return null;
    if (b && b.length) return { file: b[0], used: 1 };
    if (this.child(from, head)) return { file: from, used: 0 };
    const crate = this.crateNamed(head);
    if (crate) return { file: crate, used: 1 };
    // Rust 2015: `use util::x` is relative to the crate root.
    const root = this.crateRoot(from);
    if (this.child(root, head)) return { file: root, used: 0 };
    return null;
  }

  /** Follows child modules from `file` along `segs`; stops at the first segment that is not a module file. */
  walk(file: string, segs: string[]): { file: string; rest: string[] } {
    let cur = file;
    let i = 0;
    for (; i < segs.length; i++) {
      const next = this.child(cur, segs[i]);
      if (!next) break;
      cur = next;
    }
    return { file: cur, rest: segs.slice(i) };
  }
}

function isConventionalRoot(f: string): boolean {
  const base = baseName(f);
  if (base === 'lib.rs' || base === 'main.rs' || base === 'build.rs') return true;
  // src/bin/x.rs, tests/x.rs, benches/x.rs, examples/x.rs are crates of their own.
  return /(^|\/)(src\/bin|tests|benches|examples)\/[^/]+\.rs$/.test(f);
}

function createImportResolver(repo: RepoView): ImportResolver {
  const tree = new ModuleTree(repo);
  /** The file a module path names; a path into a type (`self::Kind::*`) stops at the type's file. */
  const moduleFile = (module: string, from: string, allowType: boolean): string | null => {
    const segs = segments(module);
    const start = tree.start(segs, from);
    if (!start) return null;
    const { file, rest } = tree.walk(start.file, segs.slice(start.used));
    if (!rest.length) return file;
    return allowType && /^[A-Z]/.test(rest[0]) ? file : null;
  };
  return {
    resolveModule(spec, fromPath) {
      if (spec.module.startsWith('"')) {
        const file = joinPath(dirOf(fromPath), JSON.parse(spec.module) as string);
        return file && repo.files.has(file) ? [file] : null;
      }
      const file = moduleFile(spec.module, fromPath, true);
      return file ? [file] : null;
    },
    resolveMember(spec, name, fromPath) {
      const file = moduleFile(spec.module, fromPath, false);
      const child = file && tree.child(file, name);
      return child ? [child] : null;
    },
    resolveQualified(name, fromPath) {
      // `super::Solid`, `crate::shapes::Circle`: the type's module, [] outside the repository.
      const clean = name.replace(/\s+/g, '');
      if (!PATH.test(clean) || !clean.includes('::')) return null;
      const segs = segments(clean);
      const start = tree.start(segs.slice(0, -1), fromPath);
      if (!start) return /^[A-Z]/.test(segs[0]) ? null : [];
      const { file, rest } = tree.walk(start.file, segs.slice(start.used, -1));
      return rest.length ? null : [file];
    },
    resolveReceiver(receiver, fromPath, bound) {
      const clean = receiver.replace(/\s+/g, '').replace(/::<[^>]*>/g, '');
      if (!PATH.test(clean)) return null;
      const segs = segments(clean);
      if (segs.length === 1) {
        // A single name is a value or an imported name unless it is a primitive or prelude type.
        if (segs[0] === 'super' || segs[0] === 'crate') {
          const file = segs[0] === 'super' ? tree.parent(fromPath) : tree.crateRoot(fromPath);
          return file ? { files: [file], rest: [] } : null;
        }
        const crate = tree.crateNamed(segs[0]);
        return crate ? { files: [crate], rest: [] } : null;
      }
      if (bound(segs[0]) === 'external') return 'external';
      const start = tree.start(segs, fromPath, bound);
      if (!start) return /^[A-Z]/.test(segs[0]) ? null : 'external';
      const { file, rest } = tree.walk(start.file, segs.slice(start.used));
      return { files: [file], rest };
    },
  };
}

// ---- Cargo.toml, just enough of it ---------------------------------------------------------------

/** The body of `[table]` (up to the next header), or null. */
function tomlTable(text: string, table: string): string | null {
  const re = new RegExp(`^\\s*\\[${escapeRegExp(table)}\\]\\s*$`, 'm');
  const m = re.exec(text);
  if (!m) return null;
  const rest = text.slice(m.index + m[0].length);
  const next = /^\s*\[/m.exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}

function tomlString(text: string, table: string, key: string): string | null {
  const body = tomlTable(text, table);
  if (!body) return null;
  const m = new RegExp(`^\\s*${escapeRegExp(key)}\\s*=\\s*["']([^"']*)["']`, 'm').exec(body);
  return m ? m[1] : null;
}

function tomlArray(text: string, table: string, key: string): string[] {
  const body = tomlTable(text, table);
  if (!body) return [];
  const m = new RegExp(`^\\s*${escapeRegExp(key)}\\s*=\\s*\\[([^\\]]*)\\]`, 'm').exec(body);
  if (!m) return [];
  return [...m[1].replace(/#.*$/gm, '').matchAll(/["']([^"']+)["']/g)].map((x) => x[1]);
}

/** `path = ...` of every `[[table]]` (Cargo's `[[bin]]`). */
function tomlTablePaths(text: string, table: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`^\\s*\\[\\[${escapeRegExp(table)}\\]\\]\\s*$`, 'gm');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const rest = text.slice(m.index + m[0].length);
    const next = /^\s*\[/m.exec(rest);
    const body = next ? rest.slice(0, next.index) : rest;
    const p = /^\s*path\s*=\s*["']([^"']*)["']/m.exec(body);
    if (p) out.push(p[1]);
  }
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---- symbols -------------------------------------------------------------------------------------

/**
 * `src/geometry/mod.rs` -> `crate.geometry`, `shapes/src/lib.rs` -> `shapes`: the module path, dotted,
 * under the package directory's name (`crate` for the repository's root package).
 */
function moduleName(path: string): string {
  const segs = stripExt(path).split('/');
  const src = segs.indexOf('src');
  let parts: string[];
  if (src >= 0) {
    const rest = segs.slice(src + 1);
    if (rest.length === 1 && (rest[0] === 'lib' || rest[0] === 'main')) rest.pop();
    parts = [src > 0 ? segs[src - 1].replace(/-/g, '_') : 'crate', ...rest];
  } else {
    parts = segs;
  }
  if (parts.length > 1 && parts[parts.length - 1] === 'mod') parts.pop();
  return parts.join('.') || stripExt(path);
}

/** `pub` is public; `pub(crate)`, `pub(super)`, `pub(in path)` are internal; nothing is private. */
function visibility({ kind, modifiers, parentKind, node }: VisibilityInput): Visibility {
  if (modifiers.has('pub')) {
    if (!modifiers.has('(')) return 'public';
    return modifiers.has('self') && !modifiers.has('in') ? 'private' : 'internal';
  }
  // Trait items, and the items of `impl Trait for T`, are as visible as the trait.
  if (parentKind === 'trait' || inTraitImpl(node)) return 'public';
  if (kind === 'function' && node.type === 'macro_definition' && hasAttribute(node, /^macro_export\b/)) return 'public';
  return 'private';
}

function inTraitImpl(node: Node): boolean {
  const impl = node.parent?.parent;
  return node.parent?.type === 'declaration_list' && impl?.type === 'impl_item' && !!impl.childForFieldName('trait');
}

function hasAttribute(node: Node, re: RegExp): boolean {
  for (let s = node.previousNamedSibling; s; s = s.previousNamedSibling) {
    if (s.type === 'attribute_item') {
      if (re.test(s.text.replace(/^#\[\s*/, ''))) return true;
    } else if (s.type !== 'line_comment' && s.type !== 'block_comment') {
      break;
    }
  }
  return false;
}

/**
 * Bodies of macros invoked where items go (`cfg_rt! { pub mod runtime; fn f() {} }`, in a file, a
 * module, an impl or a trait): the grammar keeps them as tokens, but they are almost always items.
 */
function itemMacroBodies(root: Node): Range[] {
  const out: Range[] = [];
  const visit = (container: Node) => {
    for (const c of container.namedChildren) {
      if (!c) continue;
      if (c.type === 'macro_invocation') {
        const body = c.namedChildren.find((n) => n?.type === 'token_tree');
        const open = body?.child(0);
        const close = body?.child(body.childCount - 1);
        if (body && open?.type === '{' && close?.type === '}' && close.startIndex > open.endIndex) {
          out.push({ startIndex: open.endIndex, endIndex: close.startIndex, startPosition: open.endPosition, endPosition: close.startPosition });
        }
      } else if (c.type === 'mod_item' || c.type === 'impl_item' || c.type === 'trait_item' || c.type === 'foreign_mod_item') {
        const body = c.childForFieldName('body');
        if (body) visit(body);
      }
    }
  };
  visit(root);
  return out;
}

/** `///` and `/** */` document the item below; `//`, `////`, `//!` and `/*! */` do not. */
function isDocComment(text: string): boolean {
  return /^\/\/\/(?!\/)/.test(text) || /^\/\*\*(?![*/])/.test(text);
}

/**
 * `fn rt() -> Runtime` returns a Runtime; `-> Result<Client, Error>`, `-> Option<T>`, `-> Box<T>` are
 * read as what they hold, the value a caller goes on with (`let c = connect()?; c.send()`).
 */
function returnType(signature: string): string | null {
  const m = /\)\s*->\s*(.+?)(\s+where\s.*)?$/.exec(signature);
  if (!m) return null;
  let type = m[1].trim();
  for (let i = 0; i < 3; i++) {
    const wrapped = /^(?:\w+::)*(Result|Option|Box|Rc|Arc)\s*<(.+)>$/.exec(type);
    if (!wrapped) break;
    type = firstTypeArgument(wrapped[2]);
  }
  return type === 'Self' || type === '()' ? null : type;
}

/** `Client, Error` -> `Client`; `HashMap<K, V>, E` -> `HashMap<K, V>`. */
function firstTypeArgument(args: string): string {
  let depth = 0;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '<' || args[i] === '(' || args[i] === '[') depth++;
    else if (args[i] === '>' || args[i] === ')' || args[i] === ']') depth--;
    else if (args[i] === ',' && depth === 0) return args.slice(0, i).trim();
  }
  return args.trim();
}

/** The directory of the package a file belongs to: impls anywhere in it can extend its types. */
function implScopeKey(path: string): string {
  const segs = path.split('/');
  const i = segs.findIndex((s) => s === 'src' || s === 'tests' || s === 'benches' || s === 'examples');
  return i >= 0 ? segs.slice(0, i).join('/') : dirOf(path);
}

export const rust: LanguageSpec = {
  id: 'rust',
  // Parameters belong to their function or closure, `let` to its block (queries/rust/locals.scm).
  localScopes: new Set(['function_item', 'closure_expression', 'block']),
  displayName: 'Rust',
  extensions: ['.rs'],
  grammar: 'tree-sitter-rust.wasm',
  queryDir: 'rust',
  commentTypes: ['line_comment', 'block_comment'],
  wrapperTypes: [],
  annotationTypes: ['attribute_item'],
  selfNames: ['self', 'Self'],
  builtins: BUILTINS,
  builtinMethods: BUILTIN_METHODS,
  returnType,
  // `super::f()` names the parent module, never a supertype's method.
  superReceiver: /(?!)/,
  isDocComment,
  embeddedRanges: itemMacroBodies,
  visibility,
  parseImport,
  moduleName,
  implScopeKey,
  isTestFile: (path) => TEST_PATH.test(path),
  isTestSymbol: ({ name, kind, annotations, parentName, inTestFile }) => {
    if (kind === 'module') return TEST_MODULE.test(name) && (inTestFile || annotations.includes('cfg'));
    if (kind !== 'function' && kind !== 'method') return false;
    if (annotations.some((a) => TEST_ATTRIBUTE.test(a))) return true;
    // Helpers inside `#[cfg(test)] mod tests` are test code too.
    return parentName !== null && TEST_MODULE.test(parentName);
  },
  createImportResolver,
  installedPackage: cargoVendorPackage,
};
