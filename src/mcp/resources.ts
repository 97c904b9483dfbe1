import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema, ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, McpError, ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Snapshot } from '../store/live.js';
import { searchSymbols } from '../store/queries.js';
import { toolsFor, type ToolDecl } from './registry.js';

/**
 * The PRD §6 resource URI (optional v2), `graph://callers/<symbol>`, and its friends, as MCP resource
 * templates a client can @-mention. Each is a view over one tool, the same declaration tools/call runs
 * (arguments checked, one snapshot, freshness on the answer): reading `graph://callers/Service.run`
 * returns get_references' JSON answer for `{symbol_name: "Service.run", direction: "callers"}`. The
 * symbol is what the tools take (a name, Class.method, or file:name); it may be percent-encoded, and a
 * file:name form may also keep its slashes (`graph://callers/src/app.py:Service.run`).
 */
export interface GraphResource {
  /** The path segment after graph://, and the name of the template. */
  kind: string;
  title: string;
  description: string;
  tool: string;
  args(symbol: string): Record<string, unknown>;
}

export const GRAPH_RESOURCES: readonly GraphResource[] = [
  { kind: 'callers', title: "A symbol's callers", tool: 'get_references', args: (s) => ({ symbol_name: s, direction: 'callers' }),
    description: 'Who calls the symbol (callers, registrations, fired events), to depth 1, as get_references answers with direction callers.' },
  { kind: 'callees', title: 'What a symbol calls', tool: 'get_references', args: (s) => ({ symbol_name: s, direction: 'callees' }),
    description: 'What the symbol calls, to depth 1, as get_references answers with direction callees.' },
  { kind: 'impact', title: 'What changing a symbol can break', tool: 'get_blast_radius', args: (s) => ({ symbol_name: s }),
    description: 'The direct and transitive dependents of a behavior change, affected files and risk, as get_blast_radius answers.' },
  { kind: 'tests', title: 'Tests for a symbol', tool: 'tests_for', args: (s) => ({ symbols: [s] }),
    description: 'The tests that reach the symbol, strongest link first, as tests_for answers.' },
];

export const uriTemplateOf = (r: GraphResource) => `graph://${r.kind}/{symbol}`;

/** The resource and symbol a graph:// URI names, or an MCP error that says what is served. */
export function parseGraphUri(uri: string): { resource: GraphResource; symbol: string } {
  const m = /^graph:\/\/([a-z]+)\/(.+)$/.exec(uri);
  const resource = m && GRAPH_RESOURCES.find((r) => r.kind === m[1]);
  if (!m || !resource) {
    throw new McpError(-32002, `Resource not found: ${uri.slice(0, 200)}. cg serves ${GRAPH_RESOURCES.map(uriTemplateOf).join(', ')} `
      + '(resources/templates/list).');
  }
  let symbol: string;
  try {
    symbol = decodeURIComponent(m[2]);
  } catch {
    throw new McpError(ErrorCode.InvalidParams, `The symbol in ${uri.slice(0, 200)} is not valid percent-encoding`);
  }
  return { resource, symbol };
}

/** A tool's error answer as the JSON-RPC error a resource read gets: not found as MCP's -32002, bad names as invalid params. */
function resourceError(uri: string, result: CallToolResult): McpError {
  const body = (result.structuredContent ?? {}) as { error_type?: string; message?: string; fallback_suggestion?: string };
  const code = body.error_type === 'not_found' ? -32002
    : body.error_type === 'invalid_input' || body.error_type === 'ambiguous' ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new McpError(code, `${uri.slice(0, 200)}: ${body.message ?? 'the read failed'}${body.fallback_suggestion ? ` ${body.fallback_suggestion}` : ''}`, body);
}

/**
 * Serves the graph:// templates on `server` (which must declare the resources and completions
 * capabilities). `callTool` runs a tool as tools/call does; `read` gives a snapshot for completions.
 */
export function serveGraphResources(server: Server, callTool: (tool: ToolDecl, args: unknown) => Promise<CallToolResult>,
  read: <T>(fn: (snap: Snapshot) => T) => Promise<T>): void {
  // Resources are served whatever the toolsets: they cost no tools/list tokens.
  const tools = new Map(toolsFor(['all']).map((t) => [t.name, t]));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: GRAPH_RESOURCES.map((r) => ({ uriTemplate: uriTemplateOf(r), name: r.kind, title: r.title, description: r.description,
      mimeType: 'application/json' })),
  }));
  // No fixed resources: every one is a template over a symbol.
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const { uri } = req.params;
    const { resource, symbol } = parseGraphUri(uri);
    const result = await callTool(tools.get(resource.tool)!, resource.args(symbol));
    if (result.isError) throw resourceError(uri, result);
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(result.structuredContent) }] };
  });
  // An @-mention completes the symbol: names that match what was typed, as file:name (one symbol each).
  server.setRequestHandler(CompleteRequestSchema, async (req) => {
    const { ref, argument } = req.params;
    const ours = ref.type === 'ref/resource' && GRAPH_RESOURCES.some((r) => uriTemplateOf(r) === ref.uri) && argument.name === 'symbol';
    if (!ours || !argument.value.trim()) return { completion: { values: [] } };
    try {
      const found = await read((snap) => searchSymbols(snap.db, { pattern: argument.value.trim(), limit: 100 }));
      return { completion: { values: found.symbols.map((s) => `${s.file}:${s.qualifiedName}`), total: found.total, hasMore: found.total > found.symbols.length } };
    } catch {
      // No index yet (being built or restored): nothing to offer; reading the resource says why.
      return { completion: { values: [] } };
    }
  });
}
