import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { CG_VERSION } from '../version.js';
import { CgError, errorMessage } from '../errors.js';
import type { RegistryDb } from './db.js';
import { IndexPool } from './federate.js';
import { createRegistryServer } from './server.js';

export interface RegistryRuntime {
  db: RegistryDb;
  pool: IndexPool;
  kick(): Promise<void>;
  log(line: string): void;
  /** The agent's health metrics, served at GET /health. */
  health?(): unknown;
}

/** Registry mode over stdio: one task agent; its session usually comes from CG_SESSION in the client's MCP config. */
export async function serveRegistryStdio(rt: RegistryRuntime): Promise<void> {
  console.log = console.error;
  console.info = console.error;
  const { server } = createRegistryServer({ db: rt.db, pool: rt.pool, envSession: process.env.CG_SESSION ?? null, kick: rt.kick });
  const transport = new StdioServerTransport();
  const done = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.connect(transport);
  rt.log(`cg serve: registry mode over stdio (cg ${CG_VERSION})`);
  await done;
  await server.close().catch(() => undefined);
}

export interface HttpHandle {
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY = 8 * 1024 * 1024;

/**
 * Registry mode over MCP Streamable HTTP, for many task agents at once. It listens on 127.0.0.1 only;
 * requests whose Host is not this address are refused (DNS rebinding: a web page in the user's browser
 * must not reach it through a name that resolves to 127.0.0.1). Each MCP connection gets its own
 * server object over the shared registry and index pool; the scope of every call is its session's.
 */
export async function serveRegistryHttp(rt: RegistryRuntime, port: number, host = '127.0.0.1'): Promise<HttpHandle> {
  if (host !== '127.0.0.1' && host !== '::1' && host !== 'localhost') {
    throw new CgError('usage', `cg serves HTTP on the loopback interface only, not ${host}`, 'Leave out --host, or pass 127.0.0.1.');
  }
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] = [];
  const httpServer = http.createServer((req, res) => {
    void handle(req, res).catch((err) => {
      rt.log(`cg serve: HTTP error: ${errorMessage(err)}`);
      if (!res.headersSent) json(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
    });
  });
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? host}`);
    if (url.pathname === '/health') {
      json(res, 200, { version: CG_VERSION, connections: transports.size, ...(rt.health ? rt.health() as object : { status: 'healthy' }) });
      return;
    }
    if (url.pathname !== '/mcp') {
      json(res, 404, { error: 'not found: the MCP endpoint is /mcp' });
      return;
    }
    if (!allowedHosts.includes(String(req.headers.host ?? ''))) {
      json(res, 403, { jsonrpc: '2.0', error: { code: -32000, message: `Host ${String(req.headers.host).slice(0, 100)} is not allowed` }, id: null });
      return;
    }
    const sid = req.headers['mcp-session-id'];
    let body: unknown;
    if (req.method === 'POST') {
      body = await readJson(req);
      if (body === undefined) {
        json(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON (or over 8 MiB)' }, id: null });
        return;
      }
    }
    let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
    if (!transport) {
      if (req.method !== 'POST' || sid || !isInitializeRequest(body)) {
        json(res, sid ? 404 : 400, { jsonrpc: '2.0', error: { code: -32000, message: sid ? 'Unknown MCP session: initialize again' : 'Bad request: initialize first' }, id: null });
        return;
      }
      const t = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => { transports.set(id, t); },
      });
      t.onclose = () => { if (t.sessionId) transports.delete(t.sessionId); };
      const { server } = createRegistryServer({ db: rt.db, pool: rt.pool, envSession: null, kick: rt.kick });
      await server.connect(t);
      transport = t;
    }
    await transport.handleRequest(req, res, body);
  };
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE'
      ? new CgError('usage', `Port ${port} on ${host} is in use`, 'Pick another port with --http PORT (0 picks a free one).') : err));
    httpServer.listen(port, host, () => resolve());
  });
  const actual = (httpServer.address() as { port: number }).port;
  allowedHosts = [`127.0.0.1:${actual}`, `localhost:${actual}`, `[::1]:${actual}`];
  const url = `http://127.0.0.1:${actual}/mcp`;
  rt.log(`cg serve: registry mode over HTTP at ${url} (cg ${CG_VERSION})`);
  return {
    url, port: actual,
    async close() {
      for (const t of transports.values()) await t.close().catch(() => undefined);
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      // Open SSE streams would hold close() forever.
      httpServer.closeAllConnections();
      await closed;
    },
  };
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        req.destroy();
        resolve(undefined);
      } else chunks.push(c);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
    req.on('error', () => resolve(undefined));
  });
}
