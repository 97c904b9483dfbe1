import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { plural } from '../words.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CG_VERSION } from '../indexer/build.js';
import { LiveIndex } from '../store/live.js';
import type { Freshness } from '../store/freshness.js';
import { makeError, toolError, type ToolError } from './errors.js';
import { DEFAULT_IDLE_RELEASE_SECONDS, IdleRelease, queryPathState } from './idle.js';
import { LineGuard } from './line-guard.js';
import { TOOLS, type ToolAnswer, type ToolDef } from './tools.js';

/**
 * `cg serve`: the tools over stdio. The low-level SDK server is used rather than McpServer so that
 * argument validation failures come back in the same structured form as every other error
 * (invalid_input with the fields at fault and a suggestion), not as the SDK's free-text message.
 */
export const INSTRUCTIONS = `cg indexes this repository's symbols, calls, imports, inheritance and tests.
Start a task in words with codegraph_query (ranked places) or get_context (a reading bundle); name things with
search_symbols; before changing code, get_references and get_blast_radius; after changing it, tests_for.
Every answer carries freshness (indexed commit, generation, age, pending changes): when it says stale, the
current file content may differ, so confirm with read_file. For literal strings, error messages and config
values, grep is exact and faster.`;

export interface ServerHandle {
  server: Server;
  live: LiveIndex;
  /** Runs one tool call as the server does (for in-process use and tests). */
  call(name: string, args: unknown): Promise<CallToolResult>;
}

export function createServer(root: string, idle: IdleRelease | null = null): ServerHandle {
  const live = new LiveIndex(root);
  const byName = new Map(TOOLS.map((t) => [t.name, t]));
  const server = new Server({ name: 'cg', title: 'CodeGrapher', version: CG_VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const listed = TOOLS.map((t) => ({
    name: t.name, title: t.title, description: t.description,
    inputSchema: z.toJSONSchema(t.schema, { target: 'draft-7', io: 'input' }) as { type: 'object'; [k: string]: unknown },
    annotations: { title: t.title, readOnlyHint: true, openWorldHint: false },
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  const call = async (name: string, args: unknown) => {
    try {
      const result = await callTool(live, byName, name, args);
      // The server's own memory belongs to the status answer; the tool itself only sees the index.
      if (name === 'status' && !result.isError && result.structuredContent) {
        const body = { ...result.structuredContent, server: queryPathState(idle) };
        return { ...result, structuredContent: body, content: [{ type: 'text' as const, text: JSON.stringify(body) }] };
      }
      return result;
    } finally {
      idle?.touch();
    }
  };
  server.setRequestHandler(CallToolRequestSchema, (req) => call(req.params.name, req.params.arguments));
  return { server, live, call };
}

async function callTool(live: LiveIndex, byName: Map<string, ToolDef>, name: string, args: unknown): Promise<CallToolResult> {
  const tool = byName.get(name);
  if (!tool) {
    return failure(makeError('invalid_input', `There is no tool named "${String(name).slice(0, 100)}"`, `The tools are: ${[...byName.keys()].join(', ')}.`));
  }
  const parsed = tool.schema.safeParse(args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ field: i.path.join('.') || '(arguments)', message: i.message }));
    return failure(makeError('invalid_input', `Invalid arguments for ${name}: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`,
      undefined, { issues }));
  }
  try {
    return await live.read(async (snap) => {
      try {
        return success(await tool.run(parsed.data, snap), snap.freshness);
      } catch (err) {
        return failure(staleAware(toolError(err), snap.freshness), snap.freshness);
      }
    });
  } catch (err) {
    // Opening the index failed: missing, corrupt, or built by another schema version.
    return failure(toolError(err));
  }
}

/** A name or file the index does not know while the index is behind is most likely new: say so. */
function staleAware(e: ToolError, f: Freshness): ToolError {
  if (e.code !== 'not_found' || !isStale(f)) return e;
  return makeError('index_stale', `${e.message}; the index is behind (${staleReason(f)}), so it may be new`,
    'Use read_file or grep for it now.', e.details);
}

function isStale(f: Freshness): boolean {
  return f.behindHead || f.pendingChanges > 0;
}

function staleReason(f: Freshness): string {
  const parts: string[] = [];
  if (f.behindHead) parts.push(`indexed ${f.indexedCommit?.slice(0, 10) ?? 'no commit'}, HEAD is ${f.headCommit?.slice(0, 10) ?? 'unknown'}`);
  if (f.pendingChanges) parts.push(`${plural(f.pendingChanges, 'change-log record')} not applied`);
  return parts.join('; ');
}

/** Promise 4: every answer says which state of the code it describes. */
function freshnessOf(f: Freshness): Freshness & { stale: boolean; hint?: string } {
  return isStale(f) ? { ...f, stale: true, hint: `The index is behind (${staleReason(f)}): confirm with read_file; \`cg update\` catches up.` }
    : { ...f, stale: false };
}

function success(ans: ToolAnswer, f: Freshness): CallToolResult {
  const body: Record<string, unknown> = { ...ans.body, freshness: freshnessOf(f) };
  if (body.status === 'empty_results') {
    // Nothing found is an answer the agent must act on (fall back to grep), so it is flagged as an error.
    const behind = isStale(f) ? `; the index is behind (${staleReason(f)}), so new code may be missing` : '';
    body.error = makeError('empty_results', `Nothing in the index matches${behind}`, typeof body.suggestion === 'string' ? body.suggestion : undefined);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  }
  return { content: [{ type: 'text', text: ans.text ?? JSON.stringify(body) }], structuredContent: body };
}

function failure(e: ToolError, f?: Freshness): CallToolResult {
  const body: Record<string, unknown> = { status: e.code, error: e, ...(f ? { freshness: freshnessOf(f) } : {}) };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

/** The largest message read: the largest inputs the schemas allow (a 2 MB diff), JSON-escaped, fit well below it. */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** Serves until stdin closes. Stdout carries protocol messages only; everything else goes to stderr. */
export async function serveStdio(root: string, opts: { warm?: boolean; idleReleaseSeconds?: number } = {}): Promise<void> {
  // A library that prints (a model loader's notice) must not corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  console.warn = console.error;
  const idle = new IdleRelease(opts.idleReleaseSeconds ?? DEFAULT_IDLE_RELEASE_SECONDS, (line) => process.stderr.write(`${line}\n`));
  const { server, live } = createServer(root, idle);
  // Below the transport's own 10 MiB buffer limit, which would close the connection instead.
  const input = process.stdin.pipe(new LineGuard(MAX_MESSAGE_BYTES, (n) =>
    process.stderr.write(`cg serve: dropped a ${n}-byte message (the limit is ${MAX_MESSAGE_BYTES} bytes)\n`)));
  const transport = new StdioServerTransport(input as unknown as typeof process.stdin, process.stdout);
  const done = new Promise<void>((resolve) => {
    const stop = () => {
      idle.stop();
      live.close();
      resolve();
    };
    process.stdin.once('end', stop);
    process.stdin.once('close', stop);
    transport.onclose = stop;
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  server.onerror = (err) => process.stderr.write(`cg serve: ${err.message}\n`);
  await server.connect(transport);
  process.stderr.write(`cg serve: serving ${root} over stdio (cg ${CG_VERSION})\n`);
  // The idle clock starts once the warm-up has loaded what it releases, or at the first request.
  if (opts.warm !== false) setImmediate(() => void warmUp(root).then(() => idle.touch()));
  await done;
  await server.close().catch(() => undefined);
  // A signal can arrive while stdin is still open, which would keep the process alive.
  process.stdin.destroy();
  process.exitCode ??= 0;
  setImmediate(() => process.exit());
}

/**
 * Loads the tokenizer and the query embedder in the background, so the first codegraph_query does not
 * pay for them; answers that need neither are not held up (they do not wait for this).
 */
async function warmUp(root: string): Promise<void> {
  const started = Date.now();
  try {
    const { warmQueryPath } = await import('./warm.js');
    await warmQueryPath(root);
    process.stderr.write(`cg serve: query path warm in ${Date.now() - started} ms\n`);
  } catch (err) {
    process.stderr.write(`cg serve: warm-up skipped: ${(err as Error).message}\n`);
  }
}
