// Command-line options of the eval scripts that compare this checkout with another build.
import fs from 'node:fs';
import path from 'node:path';

/** `--name VALUE` from argv, or the default. */
export const option = (argv, name, dflt) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : dflt);

/** The other checkout named by --other, with its dist/ built (the error says what to do when it is not). */
export function otherBuild(argv) {
  const dir = option(argv, '--other');
  if (!dir) throw new Error('usage: --other DIR (a checkout of cg with dist/ built)');
  if (!fs.existsSync(path.join(dir, 'dist'))) {
    throw new Error(`${dir} has no built dist/: run npm run build there first`);
  }
  return path.resolve(dir);
}
