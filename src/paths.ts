import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Defined (true) by scripts/bundle.mjs in the code it bundles into dist/bundle/; undeclared elsewhere. */
declare const __CG_BUNDLE__: boolean | undefined;
const BUNDLED = typeof __CG_BUNDLE__ !== 'undefined' && __CG_BUNDLE__;

/**
 * The installed package's root (holding queries/, dist/, hooks/): the nearest folder above this module
 * with a package.json, so the same whether this code runs from dist/, from a chunk of the bundle in
 * dist/bundle/ (or a folder under it) or, under the test runner, from src/.
 */
export const PACKAGE_ROOT = packageRoot(path.dirname(fileURLToPath(import.meta.url)));

function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '..');
  }
}

/**
 * The compiled code that is running: dist/bundle/ when it is the bundle, dist/ otherwise (and under the
 * test runner, which runs src/ but starts worker threads from dist/). A worker thread's module is taken
 * from the same build as the code that starts it.
 */
export const BUILD_DIR = path.join(PACKAGE_ROOT, 'dist', ...(BUNDLED ? ['bundle'] : []));

/** The directory, under the repository root, that holds everything cg writes. */
export const CG_DIR = '.codegraph';

export const QUERIES_DIR = path.join(PACKAGE_ROOT, 'queries');

/** Data files shipped with the package: the vendored secret rules (rules/gitleaks.json). */
export const RULES_DIR = path.join(PACKAGE_ROOT, 'rules');
