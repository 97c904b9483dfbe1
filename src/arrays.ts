/**
 * Array helpers for lists whose length the repository decides. `a.push(...items)` and
 * `Math.max(...items)` pass every item as an argument, and V8 overflows its stack somewhere past
 * ~100k arguments: ReactiveX/RxJava's test edges (hundreds of thousands) failed a whole build with
 * "Maximum call stack size exceeded". These take any length.
 */

/** Appends every item to `target`, in order; returns `target`. */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The largest number, or -Infinity for none (as `Math.max()` answers). */
export function maxOf(values: Iterable<number>): number {
  let best = -Infinity;
  for (const v of values) if (v > best || Number.isNaN(v)) best = v;
  return best;
}
