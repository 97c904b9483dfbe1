import type { RepoView } from '../lang/types.js';
import { GLOBAL_REF_KINDS, type ResolveInput, type ResolveOutput, type RRef } from './types.js';
import { ResolveContext } from './context.js';
import { resolveInherit } from './inherits.js';
import { resolveCall } from './calls.js';
import { addTestEdges } from './test-edges.js';
import { addOverrides } from './overrides.js';
import { resolveRegistration } from './registrations.js';
import { declareTable, resolveAccess } from './accesses.js';

/**
 * Resolution: references as the extraction wrote them -> edges with a confidence. The steps run in
 * this order over one shared context (src/resolve/context.ts), each in a file of its own.
 */
export function resolveAll(input: ResolveInput, repo: RepoView): ResolveOutput {
  const cx = new ResolveContext(input, repo);
  // Every file's scope, in path order, also outside `only`: a scope built inside an import cycle is partial, so which
  // file's scope is built first decides what the others see; a partial resolution builds them as a full one does.
  for (const f of input.files) cx.scopeOf(f.id);
  // Every supertype and declared table, also outside `only`: lookups anywhere go through them.
  for (const r of input.refs) {
    if (r.kind === 'table') declareTable(cx, r);
    else if (isGlobalRef(r)) resolveInherit(cx, r);
  }
  for (const r of input.refs) {
    if (isGlobalRef(r) || !cx.emits(r.fileId)) continue;
    if (r.kind === 'call') resolveCall(cx, r);
    else if (r.kind === 'register' || r.kind === 'fire') resolveRegistration(cx, r);
    else if (r.kind === 'read' || r.kind === 'write') resolveAccess(cx, r);
  }
  addOverrides(cx);
  addTestEdges(cx);
  return { edges: cx.edges, refs: cx.refStates, imports: cx.importStates, supers: cx.supers };
}

function isGlobalRef(r: RRef): boolean {
  return (GLOBAL_REF_KINDS as readonly string[]).includes(r.kind);
}
