import type Database from 'better-sqlite3';
import { loadConfig } from '../config/config.js';
import { walkRepo } from '../repo/walk.js';
import { isManifest, readManifests, type Ecosystem } from './manifests.js';
import { InstalledTree } from './installed.js';

/**
 * `cg deps` (spec 004, US2-AS4): the external packages a repository depends on, which versions its
 * lockfiles pin and which are installed, which of its files import each, and the conflicts: one
 * package pinned at several versions, an installed version that is not the pinned one, manifests of
 * one repository asking for different ranges.
 */
export interface DepPackage {
  ecosystem: Ecosystem;
  name: string;
  declared: { manifest: string; range: string | null; dev: boolean }[];
  locked: { version: string; lockfile: string; at?: string }[];
  /** The version whose declarations are indexed (installed inside the repository), if any. */
  installed: string | null;
  /** Repository files that import it. */
  usedBy: string[];
  conflicts: string[];
}

export interface DepsReport {
  manifests: string[];
  packages: DepPackage[];
  /** Packages with at least one conflict. */
  conflicts: number;
}

/** Which language's imports can name a package of each ecosystem. */
const LANGUAGES: Record<Ecosystem, string[]> = {
  npm: ['typescript', 'tsx', 'javascript'], pypi: ['python'], go: ['go'], cargo: ['rust'], composer: ['php'], maven: ['java'],
  swiftpm: ['swift'],
};

export function depsReport(db: Database.Database, root: string): DepsReport {
  const config = loadConfig(root);
  const walk = walkRepo(root, { maxFileBytes: 20_000_000, vendorDirs: config.vendorDirs, exclude: config.exclude,
    languageOf: (name) => (isManifest(name) ? 'manifest' : null) });
  const m = readManifests(root, walk.files.map((f) => f.path));
  const byKey = new Map<string, DepPackage>();
  const pkg = (ecosystem: Ecosystem, name: string) => {
    const key = `${ecosystem}\0${normalize(ecosystem, name)}`;
    let p = byKey.get(key);
    if (!p) byKey.set(key, (p = { ecosystem, name, declared: [], locked: [], installed: null, usedBy: [], conflicts: [] }));
    return p;
  };
  for (const d of m.declared) pkg(d.ecosystem, d.name).declared.push({ manifest: d.manifest, range: d.range, dev: d.dev });
  for (const l of m.locked) pkg(l.ecosystem, l.name).locked.push({ version: l.version, lockfile: l.lockfile, ...(l.at ? { at: l.at } : {}) });
  installedVersions(db, byKey);
  usage(db, root, byKey);
  const packages = [...byKey.values()].filter((p) => p.declared.length || p.locked.length || p.usedBy.length);
  for (const p of packages) p.conflicts = conflictsOf(p);
  packages.sort((a, b) => (a.ecosystem < b.ecosystem ? -1 : a.ecosystem > b.ecosystem ? 1 : a.name.localeCompare(b.name)));
  return { manifests: m.files, packages, conflicts: packages.filter((p) => p.conflicts.length).length };
}

/** Names compare as the ecosystem does: PyPI ignores case and `-_.`, Cargo treats `-` and `_` alike. */
function normalize(ecosystem: Ecosystem, name: string): string {
  if (ecosystem === 'pypi') return name.toLowerCase().replace(/[-_.]+/g, '-');
  if (ecosystem === 'cargo') return name.replace(/_/g, '-');
  if (ecosystem === 'swiftpm' || ecosystem === 'composer') return name.toLowerCase();
  return name;
}

function conflictsOf(p: DepPackage): string[] {
  const out: string[] = [];
  const versions = [...new Set(p.locked.map((l) => l.version))];
  if (versions.length > 1) {
    out.push(`locked at ${versions.length} versions: ${versions.map((v) => `${v} (${p.locked.filter((l) => l.version === v)
      .map((l) => l.at ? `${l.lockfile} ${l.at}` : l.lockfile).join(', ')})`).join('; ')}`);
  }
  if (p.installed && versions.length && !versions.includes(p.installed)) {
    out.push(`installed ${p.installed}, but the lockfile pins ${versions.join(' / ')}: reinstall the dependencies`);
  }
  const ranges = [...new Set(p.declared.filter((d) => d.range).map((d) => d.range!))];
  if (ranges.length > 1) {
    out.push(`declared differently: ${ranges.map((r) => `${r} (${p.declared.filter((d) => d.range === r).map((d) => d.manifest).join(', ')})`).join('; ')}`);
  }
  return out;
}

/** The versions whose declarations the index holds (src/indexer/external.ts labels them `name@version`). */
function installedVersions(db: Database.Database, byKey: Map<string, DepPackage>): void {
  const rows = db.prepare(`SELECT DISTINCT f.package, em.language FROM files f JOIN external_modules em ON em.file_id = f.id
    WHERE f.external = 1 AND f.package IS NOT NULL`).raw().all() as [string, string][];
  for (const [label, language] of rows) {
    const at = label.lastIndexOf('@');
    if (at <= 0) continue;
    for (const [eco, langs] of Object.entries(LANGUAGES) as [Ecosystem, string[]][]) {
      if (!langs.includes(language)) continue;
      const p = byKey.get(`${eco}\0${normalize(eco, label.slice(0, at))}`);
      if (p) p.installed = label.slice(at + 1);
    }
  }
}

/** Which repository files import each package: its external imports, matched by the ecosystem's naming. */
function usage(db: Database.Database, root: string, byKey: Map<string, DepPackage>): void {
  const rows = db.prepare(`SELECT DISTINCT f.language, f.path, i.module FROM imports i JOIN files f ON f.id = i.file_id
    WHERE f.external = 0 AND i.module != '' AND i.resolution = 'external'`).raw().all() as [string, string, string][];
  const goModules = [...byKey.values()].filter((p) => p.ecosystem === 'go').map((p) => p.name).sort((a, b) => b.length - a.length);
  const maven = [...byKey.values()].filter((p) => p.ecosystem === 'maven');
  const psr4 = composerPrefixes(root);
  const add = (eco: Ecosystem, name: string, file: string) => {
    const p = byKey.get(`${eco}\0${normalize(eco, name)}`);
    if (p && !p.usedBy.includes(file)) p.usedBy.push(file);
  };
  for (const [language, file, module] of rows) {
    if (LANGUAGES.npm.includes(language)) {
      if (/^[a-z]+:/.test(module)) continue;
      const parts = module.split('/');
      add('npm', module.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0], file);
    } else if (language === 'python') {
      add('pypi', module.split('.')[0], file);
      for (const dist of pythonDistributions(db, module.split('.')[0])) add('pypi', dist, file);
    } else if (language === 'go') {
      const mod = goModules.find((g) => module === g || module.startsWith(`${g}/`));
      if (mod) add('go', mod, file);
    } else if (language === 'rust') {
      add('cargo', module.split('::')[0], file);
    } else if (language === 'php') {
      const cls = module.replace(/^\\/, '');
      const hit = psr4.filter(([prefix]) => cls.startsWith(prefix)).sort((a, b) => b[0].length - a[0].length)[0];
      if (hit) add('composer', hit[1], file);
    } else if (language === 'java') {
      for (const p of maven) {
        const [group, artifact] = p.name.split(':');
        if (module.startsWith(`${group}.`) || module.split('.').includes(artifact)) add('maven', p.name, file);
      }
    } else if (language === 'swift') {
      add('swiftpm', module, file);
    }
  }
  for (const p of byKey.values()) p.usedBy.sort();
}

/** The distribution an installed top-level module belongs to, when the index holds its declarations. */
function pythonDistributions(db: Database.Database, top: string): string[] {
  const rows = db.prepare(`SELECT DISTINCT f.package FROM external_modules em JOIN files f ON f.id = em.file_id
    WHERE em.language = 'python' AND (em.module = ? OR em.module LIKE ?)`).pluck().all(top, `${top}.%`) as string[];
  return rows.map((label) => label.slice(0, label.lastIndexOf('@') > 0 ? label.lastIndexOf('@') : label.length));
}

/** composer.lock's PSR-4 prefixes (`Monolog\\` -> monolog/monolog), or vendor/composer/installed.json's. */
function composerPrefixes(root: string): [string, string][] {
  const tree = new InstalledTree(root);
  const out: [string, string][] = [];
  const lock = tree.readJson<Record<string, { name?: string; autoload?: { 'psr-4'?: Record<string, unknown> } }[]>>('composer.lock');
  const installed = tree.readJson<{ packages?: { name?: string; autoload?: { 'psr-4'?: Record<string, unknown> } }[] }>('vendor/composer/installed.json');
  for (const p of [...(lock?.packages ?? []), ...(lock?.['packages-dev'] ?? []), ...(installed?.packages ?? [])]) {
    for (const prefix of Object.keys(p.autoload?.['psr-4'] ?? {})) if (p.name) out.push([prefix, p.name]);
  }
  return out;
}

