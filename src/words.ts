/** `1 place`, `12 places`, `1,204 files`: a count with its noun, for every part that writes text for people. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
