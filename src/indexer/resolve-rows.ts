import type { FileResolveRows } from '../store/load.js';
import { GenerationCache } from './generation-cache.js';

/**
 * The resolve input's per-file rows (files, symbols, imports, supertype refs) of the last generation
 * this process wrote, per index file: an update re-reads only the files it rewrote (see GenerationCache).
 */
export const resolveRowsCache = new GenerationCache<Map<number, FileResolveRows>>();
