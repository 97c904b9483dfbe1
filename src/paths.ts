import { fileURLToPath } from 'node:url';
import path from 'node:path';

/**
 * The installed package's root (holding queries/, dist/, hooks/), the same whether this module runs
 * from dist/ or, under the test runner, from src/.
 */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The directory, under the repository root, that holds everything cg writes. */
export const CG_DIR = '.codegraph';

export const QUERIES_DIR = path.join(PACKAGE_ROOT, 'queries');

/** Data files shipped with the package: the vendored secret rules (rules/gitleaks.json). */
export const RULES_DIR = path.join(PACKAGE_ROOT, 'rules');
