import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CG_VERSION } from '../indexer/build.js';
import { LiveIndex } from '../store/live.js';
import { makeError, toolError } from './errors.js';
import { DEFAULT_IDLE_RELEASE_SECONDS, IdleRelease, queryPathState } from './idle.js';
import { describeState, IndexKeeper } from './keeper.js';
import { LineGuard, type RequestId } from './line-guard.js';
import { DEFAULT_TOOLSETS, toolsFor, type ToolDecl } from './registry.js';
import { serveGraphResources } from './resources.js';
import { failure, finish, staleAware, toResult } from './respond.js';
import { checkArguments, closest } from './strict.js';
import './tools/index.js';

/**
 * `cg serve`: the tools of the chosen toolsets over stdio. The low-level SDK server is used rather
 * than McpServer so that argument validation failures come back in the same structured form as every
 * other error (invalid_input naming the argument at fault and the closest valid one), not as the SDK's
 * free-text message.
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
  keeper: IndexKeeper;
  tools: ToolDecl[];
  /** Runs one tool call as the server does (for in-process use and tests). */
  call(name: string, args: unknown): Promise<CallToolResult>;
}

export interface ServerOptions {
  idle?: IdleRelease | null;
  toolsets?: readonly string[];
  keeper?: IndexKeeper;
}

/** The tools/list entry of a tool: its JSON Schema with additionalProperties false (unknown arguments are refused). */
export function listedTool(t: ToolDecl) {
  return {
    name: t.name, title: t.title, description: t.description,
    inputSchema: z.toJSONSchema(t.schema.strict(), { target: 'draft-7', io: 'input' }) as { type: 'object'; [k: string]: unknown },
    annotations: { title: t.title, readOnlyHint: true, openWorldHint: false },
  };
}

export function createServer(root: string, opts: ServerOptions = {}): ServerHandle {
  const live = new LiveIndex(root);
  const idle = opts.idle ?? null;
  const keeper = opts.keeper ?? new IndexKeeper(root, { autoIndex: false, log: () => undefined });
  const tools = toolsFor(opts.toolsets ?? DEFAULT_TOOLSETS);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const server = new Server({ name: 'cg', title: 'CodeGrapher', version: CG_VERSION },
    { capabilities: { tools: {}, resources: {}, completions: {} }, instructions: INSTRUCTIONS });
  const listed = tools.map(listedTool);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  const call = async (name: string, args: unknown, progress: (message: string) => void = () => undefined) => {
    const tool = byName.get(name);
    if (!tool) {
      // MCP: an unknown tool is a protocol error, not a tool result.
      const near = closest(String(name), [...byName.keys()]);
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${String(name).slice(0, 100)}${near ? ` (did you mean ${near}?)` : ''}. `
        + `This server's tools: ${[...byName.keys()].join(', ')}${tools.length < toolsFor(['all']).length ? '; more with `cg serve --toolsets all`' : ''}.`);
    }
    try {
      const result = await callTool(live, keeper, tool, args, progress);
      // The server's own memory belongs to the detailed status answer; the tool itself only sees the index.
      const detailed = result.structuredContent?.detailed;
      if (tool.name === 'status' && !result.isError && detailed && typeof detailed === 'object') {
        const body = { ...result.structuredContent, detailed: { ...detailed, server: queryPathState(idle) } };
        return { ...result, structuredContent: body, content: [{ type: 'text' as const, text: JSON.stringify(body) }, ...result.content.slice(1)] };
      }
      return result;
    } finally {
      idle?.touch();
    }
  };
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => {
    const token = req.params._meta?.progressToken;
    let step = 0;
    const progress = token === undefined ? undefined : (message: string) => {
      void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++step, message } }).catch(() => undefined);
    };
    return call(req.params.name, req.params.arguments, progress);
  });
  // A resource read is a request like a tool call: it keeps the idle clock from releasing the query path.
  serveGraphResources(server, (tool, args) => callTool(live, keeper, tool, args, () => undefined).finally(() => idle?.touch()), (fn) => live.read(fn));
  return { server, live, keeper, tools, call: (name, args) => call(name, args) };
}

/**
 * The SDK refuses a tools/call whose arguments are not an object before any handler runs, with an
 * internal error (-32603) that an agent cannot act on. Such a call is answered here instead, as the
 * invalid_input tool result every other bad argument gets; null arguments count as none.
 */
export function guardArguments(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('guardArguments: connect the server first');
  transport.onmessage = (message, extra) => {
    const m = message as { id?: string | number; method?: string; params?: { name?: unknown; arguments?: unknown } };
    const args = m.params?.arguments;
    if (m.method === 'tools/call' && m.params && args === null) delete m.params.arguments;
    else if (m.method === 'tools/call' && m.id !== undefined && args !== undefined && (typeof args !== 'object' || Array.isArray(args))) {
      const checked = checkArguments(String(m.params?.name ?? 'the tool'), z.object({}), args);
      const message = checked.ok ? 'Invalid arguments' : checked.message;
      void transport.send({ jsonrpc: '2.0', id: m.id, result: failure(makeError('invalid_input', message, undefined,
        checked.ok ? undefined : { issues: checked.issues })) });
      return;
    }
    deliver(message, extra);
  };
}

async function callTool(live: LiveIndex, keeper: IndexKeeper, tool: ToolDecl, args: unknown,
  progress: (message: string) => void): Promise<CallToolResult> {
  const checked = checkArguments(tool.name, tool.schema, args);
  if (!checked.ok) return failure(makeError('invalid_input', checked.message, undefined, { issues: checked.issues }));
  if (keeper.state) {
    const state = keeper.state;
    if (tool.whileUnavailable) {
      try {
        const ans = tool.whileUnavailable(checked.data, state, live.root);
        return toResult({ structured: ans.body, texts: [ans.text ?? JSON.stringify(ans.body)] });
      } catch (err) {
        return failure(toolError(err));
      }
    }
    const code = state.state === 'unavailable' ? 'index_unavailable' : 'indexing';
    return failure(makeError(code, describeState(state), undefined, { state: state.state, ...(state.progress ? { progress: state.progress } : {}) }));
  }
  try {
    return await live.read(async (snap) => {
      try {
        const ctx = { snap, progress, finish: (a: Parameters<typeof finish>[0]) => finish(a, snap.freshness) };
        const answer = await tool.run(checked.data, ctx);
        return toResult(ctx.finish(answer), answer.isError);
      } catch (err) {
        return failure(staleAware(toolError(err), snap.freshness), snap.freshness);
      }
    });
  } catch (err) {
    // Opening the index failed: missing, corrupt, or built by another schema version.
    return failure(toolError(err));
  }
}

/** The largest message read: the largest inputs the schemas allow (a 2 MB diff), JSON-escaped, fit well below it. */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** The answer to a request too large to read: JSON-RPC's "invalid request", saying why and what to send instead. */
export function oversizedReply(id: RequestId, bytes: number): JSONRPCMessage {
  return {
    jsonrpc: '2.0', id,
    error: {
      code: -32600,
      message: `The request is ${bytes} bytes; cg serve reads messages of up to ${MAX_MESSAGE_BYTES} bytes (8 MiB), so it was not read`,
      data: { code: 'invalid_input', bytes, limit: MAX_MESSAGE_BYTES,
        suggestion: 'Send less: a query is at most 20,000 characters, signals 200 kB, a diff 2 MB.' },
    },
  };
}

/** Serves until stdin closes. Stdout carries protocol messages only; everything else goes to stderr. */
export async function serveStdio(root: string, opts: { warm?: boolean; idleReleaseSeconds?: number; toolsets?: readonly string[];
  autoIndex?: boolean; watch?: boolean } = {}): Promise<void> {
  // A library that prints (a model loader's notice) must not corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  console.warn = console.error;
  const idle = new IdleRelease(opts.idleReleaseSeconds ?? DEFAULT_IDLE_RELEASE_SECONDS, (line) => process.stderr.write(`${line}\n`));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const keeper = new IndexKeeper(root, { autoIndex: opts.autoIndex !== false, log });
  const { server, live } = createServer(root, { idle, toolsets: opts.toolsets, keeper });
  // Below the transport's own 10 MiB buffer limit, which would close the connection instead.
  const input = process.stdin.pipe(new LineGuard(MAX_MESSAGE_BYTES, (n, id) => {
    process.stderr.write(`cg serve: refused a ${n}-byte message (the limit is ${MAX_MESSAGE_BYTES} bytes)${id === undefined ? '' : `: request ${JSON.stringify(id)}`}\n`);
    if (id !== undefined) void transport.send(oversizedReply(id, n)).catch(() => undefined);
  }));
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
  guardArguments(transport);
  process.stderr.write(`cg serve: serving ${root} over stdio (cg ${CG_VERSION})\n`);
  // A missing index is restored or built in the background: the client is answered meanwhile.
  const ready = keeper.start();
  // Then the server is the repository's warm applier: the git hooks leave their records to it, and it
  // applies them on a thread of its own (src/indexer/apply-thread.ts), answering meanwhile.
  let applier: { stop(): Promise<void> } | null = null;
  let stopping = false;
  void ready.then(() => (stopping ? null : startWarmApplier(root, log, opts.watch !== false))).then((a) => {
    applier = a;
    if (stopping) void a?.stop();
  });
  // The idle clock starts once the warm-up has loaded what it releases, or at the first request.
  if (opts.warm !== false) setImmediate(() => void ready.then(() => warmUp(root, live)).then(() => idle.touch()));
  await done;
  stopping = true;
  await (applier as { stop(): Promise<void> } | null)?.stop();
  await server.close().catch(() => undefined);
  // A signal can arrive while stdin is still open, which would keep the process alive.
  process.stdin.destroy();
  process.exitCode ??= 0;
  setImmediate(() => process.exit());
}

/**
 * Announces the server as the repository's warm applier (src/indexer/warm-applier.ts) once it has an
 * index, unless the configuration turned automatic applying off (`hooks.autoApply: false`: then
 * `cg update` applies, as the hooks would leave it). Null when it does not. With `watch`, it also
 * watches the working tree (src/indexer/tree-watch.ts) and records what is saved there, so that
 * files changed by anything but the agent's edit tools and git (an editor, a formatter, a code
 * generator or `sed` run from a shell) are in its answers too, about half a second later; a server
 * standing by for another applier records them for that one.
 */
async function startWarmApplier(root: string, log: (line: string) => void, watch: boolean): Promise<{ stop(): Promise<void> } | null> {
  try {
    const [{ loadConfig }, { becomeWarmApplier }, { ApplyThread }, { currentDbPath }] = await Promise.all([
      import('../config/config.js'), import('../indexer/warm-applier.js'), import('../indexer/apply-thread.js'), import('../store/db.js')]);
    if (!currentDbPath(root)) return null;
    if (!loadConfig(root).hooks.autoApply) {
      log('cg serve: not applying the git hooks\' records: hooks.autoApply is false (`cg update` applies them)');
      return null;
    }
    const thread = new ApplyThread(root, (r) => {
      if (!r.ok) log(`cg serve: applying the changes failed: ${r.error}`);
      else if (r.mode && r.mode !== 'none') log(`cg serve: applied the changes (${r.files} files); generation ${r.generation} (${r.durationMs} ms)`);
    });
    const warm = becomeWarmApplier(root, 'cg serve', () => thread.kick(), log, { watchesTree: watch });
    let tree: { close(): Promise<void> } | null = null;
    if (watch) {
      const [{ watchTree }, { recordSaves }] = await Promise.all([import('../indexer/tree-watch.js'), import('../indexer/notify.js')]);
      const t = watchTree(root, {
        debounceMs: SAVE_DEBOUNCE_MS,
        onPaths: (paths) => {
          try {
            recordSaves(root, paths);
            warm.ownAppend();
            if (warm.holding()) thread.kick();
          } catch (err) {
            log(`cg serve: could not record ${paths.length} saved path(s): ${(err as Error).message}`);
          }
        },
        log: (line) => log(`cg serve: ${line}`),
      });
      tree = t;
      void t.ready.then((dirs) => log(`cg serve: watching ${dirs} directories of the working tree for saves (--no-watch turns it off)`));
    }
    return {
      async stop() {
        warm.stop();
        await tree?.close();
        await thread.close();
      },
    };
  } catch (err) {
    log(`cg serve: not applying the changes itself: ${(err as Error).message}`);
    return null;
  }
}

/** A save is recorded once the working tree has been quiet this long (an editor's save, a formatter's rewrite after it). */
const SAVE_DEBOUNCE_MS = 300;

/**
 * Loads the tokenizer and the query embedder in the background, so the first codegraph_query does not
 * pay for them, then fills the request handle's query caches (queued like a request: a request that
 * comes meanwhile waits for it); answers that need neither are not held up by the loading.
 */
async function warmUp(root: string, live: LiveIndex): Promise<void> {
  const started = Date.now();
  try {
    const { collectWarmUpGarbage, warmQueryPath, primeQueryCaches } = await import('./warm.js');
    await warmQueryPath(root);
    // On the handle requests use (what a query keeps between queries is kept per connection), queued as a request.
    await live.read((snap) => primeQueryCaches(snap.db, root)).catch(() => undefined);
    const collected = collectWarmUpGarbage();
    process.stderr.write(`cg serve: query path warm in ${Date.now() - started} ms${collected ? ' (heap collected)' : ''}\n`);
  } catch (err) {
    process.stderr.write(`cg serve: warm-up skipped: ${(err as Error).message}\n`);
  }
}
