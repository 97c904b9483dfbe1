import type { RepoView } from '../lang/types.js';
import type { ResolveInput, ResolveOutput } from './types.js';
import { ResolveContext } from './context.js';
import { resolveInherit } from './inherits.js';
import { resolveCall } from './calls.js';
import { addTestEdges } from './test-edges.js';
import { addOverrides } from './overrides.js';

/**
 * Resolution: references as the extraction wrote them -> edges with a confidence. The steps run in
 * this order over one shared context (src/resolve/context.ts), each in a file of its own.
 */
export function resolveAll(input: ResolveInput, repo: RepoView): ResolveOutput {
  const cx = new ResolveContext(input, repo);
  const only = input.only;
  for (const f of input.files) if (!only || only.has(f.id)) cx.scopeOf(f.id);
  // Every supertype, also outside `only`: method lookups anywhere go through inheritance.
  for (const r of input.refs) if (r.kind !== 'call') resolveInherit(cx, r);
  for (const r of input.refs) if (r.kind === 'call' && cx.emits(r.fileId)) resolveCall(cx, r);
  addOverrides(cx);
  addTestEdges(cx);
  return { edges: cx.edges, refs: cx.refStates, imports: cx.importStates };
}
