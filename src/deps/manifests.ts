import { readScrubbed } from '../secrets/read.js';
import path from 'node:path';

/** Manifests and lockfiles larger than this are not read (a lockfile of a large monorepo is a few MB). */
const MAX_MANIFEST_BYTES = 16_000_000;

/**
 * The dependencies a repository declares (manifests) and pins (lockfiles), per ecosystem, read from
 * the files themselves. The parsers are small and line-based on purpose: each reads only the few
 * shapes a lockfile or manifest uses for names and versions (no TOML or YAML library is a dependency
 * of cg), and a file it cannot read is skipped, never an error.
 */
export type Ecosystem = 'npm' | 'pypi' | 'go' | 'cargo' | 'composer' | 'maven' | 'swiftpm';

export interface Declared {
  ecosystem: Ecosystem;
  name: string;
  /** The version range as written (`^3.22.0`, `>=2,<3`, `v1.9.0`); null when none is. */
  range: string | null;
  manifest: string;
  dev: boolean;
}

export interface Locked {
  ecosystem: Ecosystem;
  name: string;
  version: string;
  lockfile: string;
  /** Where in the lockfile's tree, when a package can sit at several places (npm's nested node_modules). */
  at?: string;
}

export interface Manifests {
  declared: Declared[];
  locked: Locked[];
  /** Manifests and lockfiles read, repo-relative. */
  files: string[];
}

/** File names of manifests and lockfiles, by what reads them. */
const READERS: Record<string, (text: string, file: string, out: Manifests) => void> = {
  'package.json': packageJson,
  'package-lock.json': packageLock,
  'npm-shrinkwrap.json': packageLock,
  'yarn.lock': yarnLock,
  'pnpm-lock.yaml': pnpmLock,
  'requirements.txt': requirements,
  'pyproject.toml': pyproject,
  'poetry.lock': tomlPackages('pypi'),
  'uv.lock': tomlPackages('pypi'),
  'Pipfile.lock': pipfileLock,
  'go.mod': goMod,
  'Cargo.toml': cargoToml,
  'Cargo.lock': tomlPackages('cargo'),
  'composer.json': composerJson,
  'composer.lock': composerLock,
  'pom.xml': pomXml,
  'build.gradle': gradle,
  'build.gradle.kts': gradle,
  'Package.swift': packageSwift,
  'Package.resolved': packageResolved,
};

/** Whether a path names a manifest or lockfile cg reads (a change to one changes the dependencies). */
export function isManifest(relPath: string): boolean {
  const base = path.posix.basename(relPath);
  return base in READERS || /^requirements[\w.-]*\.txt$/.test(base);
}

/** Reads the given repo-relative manifest and lockfile paths. */
export function readManifests(root: string, paths: string[]): Manifests {
  const out: Manifests = { declared: [], locked: [], files: [] };
  for (const rel of [...paths].sort()) {
    const base = path.posix.basename(rel);
    const reader = READERS[base] ?? (/^requirements[\w.-]*\.txt$/.test(base) ? requirements : null);
    if (!reader) continue;
    // Through the redacting reader: a manifest can carry a registry token or a credentialed URL.
    const text = readScrubbed(root, rel, MAX_MANIFEST_BYTES);
    if (text === null) continue;
    try {
      reader(text, rel, out);
      out.files.push(rel);
    } catch {
      // A manifest cg cannot read says nothing about the others.
    }
  }
  return out;
}

function declare(out: Manifests, ecosystem: Ecosystem, name: string, range: string | null, manifest: string, dev = false): void {
  if (name) out.declared.push({ ecosystem, name, range: range?.trim() || null, manifest, dev });
}

function lock(out: Manifests, ecosystem: Ecosystem, name: string, version: string, lockfile: string, at?: string): void {
  if (name && version) out.locked.push({ ecosystem, name, version, lockfile, ...(at ? { at } : {}) });
}

// ---- npm

function packageJson(text: string, file: string, out: Manifests): void {
  const j = JSON.parse(text) as Record<string, Record<string, string> | undefined>;
  for (const [key, dev] of [['dependencies', false], ['peerDependencies', false], ['optionalDependencies', false], ['devDependencies', true]] as const) {
    for (const [name, range] of Object.entries(j[key] ?? {})) if (typeof range === 'string') declare(out, 'npm', name, range, file, dev);
  }
}

function packageLock(text: string, file: string, out: Manifests): void {
  const j = JSON.parse(text) as { packages?: Record<string, { version?: string; name?: string }>; dependencies?: Record<string, LockV1> };
  if (j.packages) {
    for (const [at, p] of Object.entries(j.packages)) {
      const i = at.lastIndexOf('node_modules/');
      if (i < 0 || !p.version) continue; // '' is the project itself; workspace links have no node_modules/
      lock(out, 'npm', p.name ?? at.slice(i + 'node_modules/'.length), p.version, file, at);
    }
    return;
  }
  // lockfileVersion 1: nested `dependencies`.
  const walk = (deps: Record<string, LockV1>, at: string) => {
    for (const [name, d] of Object.entries(deps)) {
      const here = `${at}node_modules/${name}`;
      if (d.version) lock(out, 'npm', name, d.version, file, here);
      if (d.dependencies) walk(d.dependencies, `${here}/`);
    }
  };
  walk(j.dependencies ?? {}, '');
}

interface LockV1 {
  version?: string;
  dependencies?: Record<string, LockV1>;
}

function yarnLock(text: string, file: string, out: Manifests): void {
  let names: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\S/.test(line) && line.trimEnd().endsWith(':') && !line.startsWith('#')) {
      // `"zod@^3.22.0", zod@^3.20:` (v1) or `"zod@npm:^3.22.0":` (berry): the names before the last `@`.
      names = [...new Set(line.replace(/:$/, '').split(',').map((s) => s.trim().replace(/^"|"$/g, ''))
        .map((spec) => spec.slice(0, spec.lastIndexOf('@') > 0 ? spec.lastIndexOf('@') : spec.length).replace(/@npm$/, '')))];
      continue;
    }
    const v = /^\s+version:?\s+"?([^"\s]+)"?/.exec(line);
    if (v && names.length) {
      for (const n of names) if (n !== '__metadata') lock(out, 'npm', n, v[1], file);
      names = [];
    }
  }
}

function pnpmLock(text: string, file: string, out: Manifests): void {
  let inPackages = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) inPackages = /^(packages|snapshots):/.test(line);
    if (!inPackages) continue;
    // `  /zod@3.22.4:` (v6), `  /zod/3.22.4:` (v5), `  zod@3.22.4:` (v9), `  '@types/node@20.1.0':`
    const m = /^ {2}'?\/?((?:@[^/@\s]+\/)?[^/@\s:]+)[@/](\d[^:'()\s]*)/.exec(line);
    if (m) lock(out, 'npm', m[1], m[2], file);
  }
  dedupe(out);
}

// ---- Python

function requirements(text: string, file: string, out: Manifests): void {
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line || line.startsWith('-')) continue;
    const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(.*)$/.exec(line);
    if (!m) continue;
    const range = m[2].split(';')[0].trim();
    declare(out, 'pypi', m[1], range || null, file);
    const pinned = /^==\s*([^,\s]+)$/.exec(range);
    if (pinned) lock(out, 'pypi', m[1], pinned[1], file);
  }
}

function pyproject(text: string, file: string, out: Manifests): void {
  let section = '';
  let inList = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      section = header[1];
      inList = false;
      continue;
    }
    if (section === 'project' && /^(dependencies|optional-dependencies)\s*=\s*\[/.test(line)) inList = true;
    if (inList || section.startsWith('project.optional-dependencies') || section === 'dependency-groups') {
      for (const m of line.matchAll(/["']([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*([^"';]*)[^"']*["']/g)) {
        declare(out, 'pypi', m[1], m[2] || null, file, section !== 'project');
      }
      if (line.includes(']') && !line.includes('[')) inList = false;
      continue;
    }
    const poetry = /^tool\.poetry\.(?:group\.\w+\.)?(dev-)?dependencies$/.exec(section);
    const dep = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*=\s*(.+)$/.exec(line);
    if (poetry && dep && dep[1] !== 'python') {
      const version = /version\s*=\s*"([^"]+)"/.exec(dep[2])?.[1] ?? /^"([^"]*)"/.exec(dep[2])?.[1] ?? null;
      declare(out, 'pypi', dep[1], version, file, !!poetry[1] || section.includes('.group.'));
    }
  }
}

/** `[[package]]` blocks with `name = "x"` and `version = "1.2.3"`: poetry.lock, uv.lock, Cargo.lock. */
function tomlPackages(ecosystem: Ecosystem) {
  return (text: string, file: string, out: Manifests) => {
    let name: string | null = null;
    for (const line of text.split('\n')) {
      if (line.trim() === '[[package]]') name = null;
      const n = /^name\s*=\s*"([^"]+)"/.exec(line);
      if (n) name = n[1];
      const v = /^version\s*=\s*"([^"]+)"/.exec(line);
      if (v && name) {
        lock(out, ecosystem, name, v[1], file);
        name = null;
      }
    }
  };
}

function pipfileLock(text: string, file: string, out: Manifests): void {
  const j = JSON.parse(text) as Record<string, Record<string, { version?: string }> | undefined>;
  for (const key of ['default', 'develop']) {
    for (const [name, d] of Object.entries(j[key] ?? {})) if (d?.version) lock(out, 'pypi', name, d.version.replace(/^==/, ''), file);
  }
}

// ---- Go, Rust, PHP, Java, Swift

function goMod(text: string, file: string, out: Manifests): void {
  let block = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (/^require\s*\($/.test(line)) {
      block = true;
      continue;
    }
    if (block && line === ')') {
      block = false;
      continue;
    }
    const m = (block ? /^(\S+)\s+(v\S+)/ : /^require\s+(\S+)\s+(v\S+)/).exec(line);
    if (m) {
      declare(out, 'go', m[1], m[2], file, false);
      // go.mod's requirements are the versions the build uses (minimal version selection): a pin.
      lock(out, 'go', m[1], m[2], file);
    }
  }
}

function cargoToml(text: string, file: string, out: Manifests): void {
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      section = header[1];
      continue;
    }
    const isDeps = /(^|\.)(dev-|build-)?dependencies$/.test(section);
    const dep = /^([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
    if (!isDeps || !dep) continue;
    const version = /^"([^"]*)"/.exec(dep[2])?.[1] ?? /version\s*=\s*"([^"]+)"/.exec(dep[2])?.[1] ?? null;
    declare(out, 'cargo', /package\s*=\s*"([^"]+)"/.exec(dep[2])?.[1] ?? dep[1], version, file, section.includes('dev-'));
  }
}

function composerJson(text: string, file: string, out: Manifests): void {
  const j = JSON.parse(text) as Record<string, Record<string, string> | undefined>;
  for (const [key, dev] of [['require', false], ['require-dev', true]] as const) {
    for (const [name, range] of Object.entries(j[key] ?? {})) if (name.includes('/')) declare(out, 'composer', name, range, file, dev);
  }
}

function composerLock(text: string, file: string, out: Manifests): void {
  const j = JSON.parse(text) as Record<string, { name?: string; version?: string }[] | undefined>;
  for (const key of ['packages', 'packages-dev']) for (const p of j[key] ?? []) if (p.name && p.version) lock(out, 'composer', p.name, p.version, file);
}

function pomXml(text: string, file: string, out: Manifests): void {
  for (const m of text.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)) {
    const tag = (t: string) => new RegExp(`<${t}>\\s*([^<]+?)\\s*</${t}>`).exec(m[1])?.[1] ?? null;
    const g = tag('groupId');
    const a = tag('artifactId');
    if (!g || !a) continue;
    const version = tag('version');
    const resolved = version && !version.includes('${') ? version : null;
    declare(out, 'maven', `${g}:${a}`, version, file, tag('scope') === 'test');
    if (resolved) lock(out, 'maven', `${g}:${a}`, resolved, file);
  }
}

function gradle(text: string, file: string, out: Manifests): void {
  for (const m of text.matchAll(/\b(\w+)\s*\(?\s*["']([\w.-]+):([\w.-]+):([\w.+-]+)["']/g)) {
    declare(out, 'maven', `${m[2]}:${m[3]}`, m[4], file, /^test/i.test(m[1]));
    if (/^[\d.]+[\w.-]*$/.test(m[4])) lock(out, 'maven', `${m[2]}:${m[3]}`, m[4], file);
  }
}

function packageSwift(text: string, file: string, out: Manifests): void {
  for (const m of text.matchAll(/\.package\(\s*(?:name:\s*"[^"]*",\s*)?url:\s*"([^"]+)"\s*,\s*([^)]*)\)/g)) {
    const range = /"([^"]+)"/.exec(m[2])?.[1] ?? null;
    declare(out, 'swiftpm', swiftIdentity(m[1]), range, file);
  }
}

function packageResolved(text: string, file: string, out: Manifests): void {
  const j = JSON.parse(text) as { pins?: SwiftPin[]; object?: { pins?: SwiftPin[] } };
  for (const p of j.pins ?? j.object?.pins ?? []) {
    const name = p.identity ?? swiftIdentity(p.location ?? p.repositoryURL ?? p.package ?? '');
    if (p.state?.version) lock(out, 'swiftpm', name, p.state.version, file);
  }
}

interface SwiftPin {
  identity?: string;
  package?: string;
  location?: string;
  repositoryURL?: string;
  state?: { version?: string | null };
}

function swiftIdentity(url: string): string {
  return url.replace(/\.git$/, '').replace(/\/+$/, '').split('/').pop()!.toLowerCase();
}

function dedupe(out: Manifests): void {
  const seen = new Set<string>();
  out.locked = out.locked.filter((l) => {
    const k = `${l.ecosystem}\0${l.name}\0${l.version}\0${l.lockfile}\0${l.at ?? ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
