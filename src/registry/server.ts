import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CG_VERSION } from '../version.js';
import { CgError, errorMessage } from '../errors.js';
import { makeError, toolError, type ToolError } from '../mcp/errors.js';
import { checkArguments, closest } from '../mcp/strict.js';
import type { RegistryDb } from './db.js';
import type { IndexPool } from './federate.js';
import { audit } from './audit.js';
import { projectsInScope, SessionError, validateSession, type Scope } from './sessions.js';
import { projectById, type Project } from './projects.js';
import { REGISTRY_TOOLS, type Level, type RegistryTool } from './tools.js';

/**
 * Registry mode: one MCP server over every registered project, each call checked against a session.
 * The check runs before any tool code and is deny-by-default: no session, a malformed, unknown,
 * expired or revoked one, a tool above the session's level, or a project outside its scope is refused
 * (and audited). The session is read, in this order, from the tool argument `session_id`, the
 * request's `_meta` (`session_id` or `codegrapher/session_id`), the HTTP header `X-CG-Session` (HTTP
 * transport), and the server's environment (`CG_SESSION`, for a stdio server a task agent starts).
 */
export const REGISTRY_INSTRUCTIONS = `cg in registry mode: code and documents of many projects, read through a scoped session.
Pass your session_id (from the persistence agent) with every call, or set it once in the client configuration.
Start with status (the projects you can read), then search or symbols; references and impact before changing code;
cross_refs and collection_map show how projects use each other's hooks and routes (collection or global scope).`;

export interface RegistryServerOptions {
  db: RegistryDb;
  pool: IndexPool;
  /** CG_SESSION of the server's environment, if any. */
  envSession?: string | null;
  kick(): Promise<void>;
}

export interface CallContext {
  meta?: Record<string, unknown>;
  headers?: Record<string, string | string[] | undefined>;
}

export interface RegistryServerHandle {
  server: Server;
  call(name: string, args: unknown, ctx?: CallContext): Promise<CallToolResult>;
}

const LEVEL_RANK: Record<Scope['level'], number> = { project: 0, collection: 1, global: 2 };
const NEEDS: Record<Level, number> = { any: 0, collection: 1, global: 2 };

export function createRegistryServer(opts: RegistryServerOptions): RegistryServerHandle {
  const byName = new Map(REGISTRY_TOOLS.map((t) => [t.name, t]));
  const server = new Server({ name: 'cg-registry', title: 'CodeGrapher (registry)', version: CG_VERSION },
    { capabilities: { tools: {} }, instructions: REGISTRY_INSTRUCTIONS });
  const listed = REGISTRY_TOOLS.map((t) => ({
    name: t.name, title: t.title, description: t.description,
    inputSchema: z.toJSONSchema(t.schema, { target: 'draft-7', io: 'input' }) as { type: 'object'; [k: string]: unknown },
    annotations: { title: t.title, readOnlyHint: t.level !== 'global', openWorldHint: false },
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  const call = (name: string, args: unknown, ctx: CallContext = {}) => callTool(opts, byName, name, args, ctx);
  server.setRequestHandler(CallToolRequestSchema, (req, extra) =>
    call(req.params.name, req.params.arguments, { meta: req.params._meta as Record<string, unknown> | undefined,
      headers: extra.requestInfo?.headers as CallContext['headers'] }));
  return { server, call };
}

/** The session id a call carries: argument, _meta, header, environment. */
export function sessionOf(args: unknown, ctx: CallContext, envSession: string | null | undefined): string | null {
  const a = args && typeof args === 'object' ? (args as Record<string, unknown>).session_id : undefined;
  if (typeof a === 'string' && a) return a;
  const m = ctx.meta?.session_id ?? ctx.meta?.['codegrapher/session_id'];
  if (typeof m === 'string' && m) return m;
  const h = ctx.headers?.['x-cg-session'];
  if (typeof h === 'string' && h) return h;
  return envSession || null;
}

async function callTool(opts: RegistryServerOptions, byName: Map<string, RegistryTool>, name: string, args: unknown, ctx: CallContext):
  Promise<CallToolResult> {
  const { db } = opts;
  const tool = byName.get(name);
  let scope: Scope | null = null;
  const record = (outcome: 'ok' | 'denied' | 'error', count: number | null, detail: string | null) =>
    audit(db, { agentId: scope?.agentId ?? 'anonymous', scopeLevel: scope?.level ?? 'none', tool: String(name).slice(0, 100), outcome,
      resultCount: count, detail });
  try {
    scope = validateSession(db, sessionOf(args, ctx, opts.envSession));
  } catch (err) {
    const reason = err instanceof SessionError ? err.reason : 'error';
    record('denied', null, `session ${reason}`);
    return denial('unauthorized', errorMessage(err), (err as CgError).hint ?? '');
  }
  if (!tool) {
    record('error', null, 'unknown tool');
    // MCP: an unknown tool is a protocol error, not a tool result (as in `cg serve`).
    const near = closest(String(name), [...byName.keys()]);
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${String(name).slice(0, 100)}${near ? ` (did you mean ${near}?)` : ''}. `
      + `The tools are: ${[...byName.keys()].join(', ')}.`);
  }
  if (LEVEL_RANK[scope.level] < NEEDS[tool.level]) {
    record('denied', null, `needs ${tool.level} scope`);
    return denial('forbidden', `${name} needs a ${tool.level} scope; this session has ${scope.level} scope`,
      tool.level === 'global' ? 'Admin tools are for the persistence agent.' : 'Ask the persistence agent for a collection scope to see links between projects.');
  }
  // Promise 8, as in `cg serve`: an unknown argument is refused with the closest valid one.
  const parsed = checkArguments(name, tool.schema, args);
  if (!parsed.ok) {
    record('error', null, 'invalid arguments');
    return failure(makeError('invalid_input', parsed.message, undefined, { issues: parsed.issues }));
  }
  const projects = projectsInScope(db, scope).map((id) => projectById(db, id)).filter((p): p is Project => !!p)
    .sort((a, b) => a.name.localeCompare(b.name));
  try {
    const res = await tool.run(parsed.data, { db, pool: opts.pool, scope, projects, kick: opts.kick });
    record('ok', res.count, detailOf(parsed.data));
    const body = res.body;
    return { content: [{ type: 'text', text: res.text ?? JSON.stringify(body) }], structuredContent: body };
  } catch (err) {
    const e = toolError(err);
    const denied = (e.details as { reason?: string } | undefined)?.reason === 'scope';
    record(denied ? 'denied' : 'error', null, `${e.code}: ${e.message}`.slice(0, 300));
    return failure(e);
  }
}

/** What the audit log keeps of the arguments: the project and the names asked for, never the session id. */
function detailOf(args: Record<string, unknown>): string | null {
  const parts: string[] = [];
  for (const k of ['project', 'symbol_name', 'query', 'file_path', 'agent_id', 'name']) {
    const v = args[k];
    if (typeof v === 'string' && v) parts.push(`${k}=${v.slice(0, 80)}`);
  }
  return parts.length ? parts.join(' ') : null;
}

/** A refused call: no valid session (unauthorized), or a tool above the session's level (forbidden). */
function denial(code: 'unauthorized' | 'forbidden', message: string, suggestion: string): CallToolResult {
  const body = { status: code, error: { code, message, suggestion } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

function failure(e: ToolError, status?: string): CallToolResult {
  const body = { status: status ?? e.code, error: e };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}
