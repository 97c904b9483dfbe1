import { CgError } from '../errors.js';
import { SYMBOL_KINDS, type SymbolKind } from '../lang/types.js';

export function usageError(message: string, hint: string): CgError {
  return new CgError('usage', message, hint);
}

export function parseIntInRange(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\s*-?\d+\s*$/.test(value) || n < min || n > max) {
    throw usageError(`${flag} must be a whole number from ${min} to ${max}, not "${value}"`, `For example: ${flag} ${min === max ? min : Math.min(max, Math.max(min, 3))}`);
  }
  return n;
}

export function parseKind(value: string): SymbolKind {
  const k = value.toLowerCase();
  if (!(SYMBOL_KINDS as readonly string[]).includes(k)) {
    throw usageError(`Unknown symbol kind "${value}"`, `Use one of: ${SYMBOL_KINDS.join(', ')}.`);
  }
  return k as SymbolKind;
}
