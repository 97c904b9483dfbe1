/** `1 place`, `12 places`, `1,204 files`: a count with its noun, for every part that writes text for people. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${groupDigits(n)} ${n === 1 ? one : many}`;
}

/**
 * `1,204`: an integer with its thousands grouped, as `toLocaleString('en-US')` writes it, without
 * that call's first-use cost (it loads the ICU locale data: 10-100 ms, paid by every CLI answer).
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}
