import picomatch from 'picomatch';
import { CgError } from '../errors.js';

/**
 * A file glob as a matcher, refused when it could take exponential time. picomatch compiles globs to
 * backtracking regular expressions: several `*` in one path segment (`*a*a*a*a*b`) or an extglob with
 * a repeated group (`+(a|aa)`) make a failing match take seconds to hours on an ordinary path, and a
 * glob can come from an agent over MCP. Three stars per segment keep the cost polynomial and small;
 * no real file filter needs more. Each distinct path is matched once.
 */
export const MAX_STARS_PER_SEGMENT = 3;

export function fileMatcher(glob: string): (path: string) => boolean {
  for (const seg of glob.split('/')) {
    if (seg === '**') continue;
    const stars = (seg.match(/\*+/g) ?? []).length;
    if (stars > MAX_STARS_PER_SEGMENT) {
      throw new CgError('usage', `The file glob "${glob.slice(0, 100)}" has ${stars} wildcards in one path segment; the limit is ${MAX_STARS_PER_SEGMENT}`,
        'Use fewer * per folder or file name, e.g. "src/**/*parser*.py".');
    }
  }
  if (/[*?+@!]\(/.test(glob)) {
    throw new CgError('usage', `The file glob "${glob.slice(0, 100)}" uses extglob groups, which are not supported`,
      'Use *, ?, ** and {a,b} alternatives, e.g. "src/**/*.{ts,tsx}".');
  }
  const match = picomatch(glob, { dot: true, basename: !glob.includes('/') });
  const seen = new Map<string, boolean>();
  return (p) => {
    let hit = seen.get(p);
    if (hit === undefined) seen.set(p, (hit = match(p)));
    return hit;
  };
}
