import path from 'node:path';
import { firstFile, withRelativeImports, type InstalledPackage, type InstalledTree } from './installed.js';

/**
 * Where each ecosystem installs a dependency inside a repository, and which of its files declare what
 * an import of it names. Each function is a language's `installedPackage` hook (src/lang/*.ts).
 */

const posix = path.posix;

// ---- npm: node_modules, nearest first, types before JavaScript

const TS_RELATIVE = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|<reference\s+path=)['"](\.{1,2}\/[^'"]+)['"]/g;

function tsRelativeImports(text: string): string[] {
  return [...text.matchAll(TS_RELATIVE)].map((m) => m[1]);
}

function tsCandidates(base: string): string[] {
  const noJs = base.replace(/\.(c|m)?js$/, '');
  return [base, `${noJs}.d.ts`, `${noJs}.d.mts`, `${noJs}.d.cts`, `${base}/index.d.ts`, `${noJs}.ts`, `${base}.js`, `${base}/index.js`];
}

interface PackageJson {
  name?: string;
  version?: string;
  types?: string;
  typings?: string;
  main?: string;
  module?: string;
  exports?: unknown;
}

/** `import x from 'zod'`, `require('lodash/fp')`: the nearest node_modules that has the package. */
export function npmPackage(module: string, fromPath: string, tree: InstalledTree): InstalledPackage | null {
  if (/^[./]|^[a-z]+:/i.test(module)) return null;
  const parts = module.split('/');
  const name = module.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const sub = parts.slice(name.split('/').length).join('/');
  for (let dir = posix.dirname(fromPath); ; dir = posix.dirname(dir)) {
    const base = dir === '.' || dir === '/' ? '' : `${dir}/`;
    const found = npmEntry(tree, `${base}node_modules/${name}`, sub)
      ?? npmEntry(tree, `${base}node_modules/@types/${name.replace(/^@([^/]+)\//, '$1__')}`, sub);
    if (found) {
      const files = withRelativeImports(tree, [found.entry], tsRelativeImports,
        (from, spec) => firstFile(tree, tsCandidates(posix.join(posix.dirname(from), spec))));
      return { name, version: found.version, entry: [found.entry], files };
    }
    if (dir === '.' || dir === '/' || dir === '') return null;
  }
}

function npmEntry(tree: InstalledTree, dir: string, sub: string): { entry: string; version: string | null } | null {
  const pj = tree.readJson<PackageJson>(`${dir}/package.json`);
  if (!pj) return null;
  const version = typeof pj.version === 'string' ? pj.version : null;
  const entry = sub ? firstFile(tree, tsCandidates(`${dir}/${sub}`))
    : firstFile(tree, [pj.types, pj.typings, exportsTypes(pj.exports), 'index.d.ts', pj.module, pj.main, 'index.js']
      .map((p) => (typeof p === 'string' ? posix.join(dir, p) : null)).flatMap((p) => (p ? tsCandidates(p) : [])));
  return entry ? { entry, version } : null;
}

/** `"exports": {".": {"types": "./index.d.ts"}}` and its nested condition forms. */
function exportsTypes(exp: unknown): string | null {
  if (!exp || typeof exp !== 'object') return null;
  const root = (exp as Record<string, unknown>)['.'] ?? exp;
  const find = (v: unknown): string | null => {
    if (typeof v === 'string') return v.endsWith('.d.ts') ? v : null;
    if (!v || typeof v !== 'object') return null;
    const o = v as Record<string, unknown>;
    if (typeof o.types === 'string') return o.types;
    for (const key of ['import', 'require', 'default', 'node']) {
      const t = find(o[key]);
      if (t) return t;
    }
    return null;
  };
  return find(root);
}

// ---- PyPI: a virtual environment inside the repository

const PY_RELATIVE = /^\s*from\s+(\.+)([\w.]*)\s+import\b/gm;

/** `import requests.adapters`: the module in `.venv`'s (or `venv`'s, `env`'s) site-packages; stubs first. */
export function pythonPackage(module: string, _fromPath: string, tree: InstalledTree): InstalledPackage | null {
  if (module.startsWith('.')) return null;
  const parts = module.split('.');
  for (const site of sitePackages(tree)) {
    for (const top of [`${parts[0]}-stubs`, parts[0]]) {
      const base = [site, top, ...parts.slice(1)].join('/');
      const entry = firstFile(tree, [`${base}.pyi`, `${base}/__init__.pyi`, `${base}.py`, `${base}/__init__.py`]);
      if (!entry) continue;
      const files = withRelativeImports(tree, [entry], (text) => [...text.matchAll(PY_RELATIVE)].map((m) => `${m[1]}${m[2]}`),
        (from, spec) => {
          const dots = /^\.+/.exec(spec)![0].length;
          let dir = posix.dirname(from);
          for (let i = 1; i < dots; i++) dir = posix.dirname(dir);
          const rest = spec.slice(dots).split('.').filter(Boolean);
          const b = [dir, ...rest].join('/');
          return rest.length ? firstFile(tree, [`${b}.pyi`, `${b}.py`, `${b}/__init__.pyi`, `${b}/__init__.py`]) : null;
        });
      const dist = distInfo(tree, site, parts[0]);
      return { name: dist?.name ?? parts[0], version: dist?.version ?? null, entry: [entry], files };
    }
  }
  return null;
}

function sitePackages(tree: InstalledTree): string[] {
  const out: string[] = [];
  for (const venv of ['.venv', 'venv', 'env', '.env']) {
    for (const lib of ['lib', 'lib64']) {
      for (const py of tree.list(`${venv}/${lib}`) ?? []) if (/^python\d/.test(py) && tree.isDir(`${venv}/${lib}/${py}/site-packages`)) out.push(`${venv}/${lib}/${py}/site-packages`);
    }
    if (tree.isDir(`${venv}/Lib/site-packages`)) out.push(`${venv}/Lib/site-packages`);
  }
  return out;
}

/** The distribution that installed a top-level module: `*.dist-info` whose top_level.txt or RECORD names it. */
function distInfo(tree: InstalledTree, site: string, top: string): { name: string; version: string } | null {
  const norm = (s: string) => s.toLowerCase().replace(/[-_.]+/g, '_');
  for (const d of tree.list(site) ?? []) {
    const m = /^(.+)-([^-]+)\.dist-info$/.exec(d);
    if (!m) continue;
    const tops = tree.readText(`${site}/${d}/top_level.txt`)?.split(/\s+/).filter(Boolean)
      ?? [...new Set((tree.readText(`${site}/${d}/RECORD`) ?? '').split('\n').map((l) => l.split('/')[0].replace(/\.py,.*$/, '').replace(/,.*$/, '')))];
    if (tops.includes(top) || norm(m[1]) === norm(top)) return { name: m[1], version: m[2] };
  }
  return null;
}

// ---- Go: vendor/ (go mod vendor)

/** `import "github.com/go-chi/chi/v5/middleware"`: the package's files under vendor/, its module from vendor/modules.txt. */
export function goVendorPackage(module: string, _fromPath: string, tree: InstalledTree): InstalledPackage | null {
  const dir = `vendor/${module}`;
  const files = (tree.list(dir) ?? []).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go')).map((f) => `${dir}/${f}`);
  if (!files.length) return null;
  let name = module;
  let version: string | null = null;
  for (const line of (tree.readText('vendor/modules.txt') ?? '').split('\n')) {
    const m = /^# (\S+) (v\S+)/.exec(line);
    if (m && (module === m[1] || module.startsWith(`${m[1]}/`)) && (version === null || m[1].length > name.length || name === module)) {
      name = m[1];
      version = m[2];
    }
  }
  return { name, version, entry: files.slice(0, 40), files: files.slice(0, 40) };
}

// ---- Composer: vendor/, by PSR-4 prefix

interface ComposerInstalled {
  name?: string;
  version?: string;
  'install-path'?: string;
  autoload?: { 'psr-4'?: Record<string, string | string[]> };
}

/** `use Monolog\Handler\StreamHandler`: the class's file in the package whose PSR-4 prefix is longest. */
export function composerPackage(module: string, _fromPath: string, tree: InstalledTree): InstalledPackage | null {
  const raw = tree.readJson<{ packages?: ComposerInstalled[] } | ComposerInstalled[]>('vendor/composer/installed.json');
  const packages = Array.isArray(raw) ? raw : raw?.packages ?? [];
  const cls = module.replace(/^\\/, '');
  let best: { pkg: ComposerInstalled; prefix: string; dirs: string[] } | null = null;
  for (const pkg of packages) {
    for (const [prefix, dirs] of Object.entries(pkg.autoload?.['psr-4'] ?? {})) {
      if (cls.startsWith(prefix) && (!best || prefix.length > best.prefix.length)) best = { pkg, prefix, dirs: ([] as string[]).concat(dirs) };
    }
  }
  if (!best?.pkg.name) return null;
  const home = best.pkg['install-path'] ? posix.normalize(`vendor/composer/${best.pkg['install-path']}`) : `vendor/${best.pkg.name}`;
  const rel = `${cls.slice(best.prefix.length).replace(/\\/g, '/')}.php`;
  const entry = firstFile(tree, best.dirs.map((d) => posix.join(home, d, rel)));
  return entry ? { name: best.pkg.name, version: best.pkg.version ?? null, entry: [entry], files: [entry] } : null;
}

// ---- Cargo: vendor/ (cargo vendor)

const RUST_MOD = /^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/gm;

/** `use serde::de::Deserialize`: the crate's lib.rs under vendor/ and the modules it declares. */
export function cargoVendorPackage(module: string, _fromPath: string, tree: InstalledTree): InstalledPackage | null {
  const crate = module.split('::')[0];
  if (!crate || ['crate', 'self', 'super', 'std', 'core', 'alloc'].includes(crate)) return null;
  for (const dir of [`vendor/${crate}`, `vendor/${crate.replace(/_/g, '-')}`]) {
    const entry = firstFile(tree, [`${dir}/src/lib.rs`]);
    if (!entry) continue;
    const files = withRelativeImports(tree, [entry], (text) => [...text.matchAll(RUST_MOD)].map((m) => m[1]), (from, name) => {
      const base = posix.basename(from) === 'lib.rs' || posix.basename(from) === 'mod.rs' ? posix.dirname(from) : from.replace(/\.rs$/, '');
      return firstFile(tree, [`${base}/${name}.rs`, `${base}/${name}/mod.rs`]);
    });
    const version = /^version\s*=\s*"([^"]+)"/m.exec(tree.readText(`${dir}/Cargo.toml`) ?? '')?.[1] ?? null;
    return { name: posix.basename(dir), version, entry: [entry], files };
  }
  return null;
}

// ---- SwiftPM: .build/checkouts

/** `import Alamofire`: Sources/Alamofire of a checked-out package. */
export function swiftCheckoutPackage(module: string, _fromPath: string, tree: InstalledTree): InstalledPackage | null {
  for (const pkg of tree.list('.build/checkouts') ?? []) {
    const dir = `.build/checkouts/${pkg}/Sources/${module}`;
    if (!tree.isDir(dir)) continue;
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of tree.list(d) ?? []) {
        if (files.length >= 40) return;
        if (f.endsWith('.swift')) files.push(`${d}/${f}`);
        else if (tree.isDir(`${d}/${f}`)) walk(`${d}/${f}`);
      }
    };
    walk(dir);
    if (!files.length) continue;
    const resolved = tree.readJson<{ pins?: { identity?: string; state?: { version?: string } }[] }>('Package.resolved');
    const version = resolved?.pins?.find((p) => p.identity === pkg.toLowerCase())?.state?.version ?? null;
    return { name: pkg, version, entry: files, files };
  }
  return null;
}
