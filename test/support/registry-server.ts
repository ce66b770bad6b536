/**
 * A stand-in for an MCP Registry (the directory's tests, SPEC S1): `GET /v0.1/servers` (and `/v0`)
 * answering the registry API's documented shape — `{ servers: [{ server, _meta }], metadata:
 * { nextCursor, count } }` — with `search` (name, title and description, case-insensitive),
 * `limit` (default 30, at most 100) and an opaque `cursor`. It is scripted, not the real registry
 * (a Go service with a database that cannot run here), and it can also misbehave as a registry
 * can: HTTP 500, a stall, an HTML page, a redirect, a refused connection, or a hostile page.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { listenOn } from './listen.js';

/** A `server.json` as the registry publishes it (only the fields a client reads are typed). */
export interface ServerJson {
  name: string;
  title?: string;
  description?: string;
  version?: string;
  repository?: { url: string; source?: string };
  websiteUrl?: string;
  remotes?: { type: string; url: string; headers?: Record<string, unknown>[] }[];
  packages?: Record<string, unknown>[];
  [key: string]: unknown;
}

export type RegistryMode = 'ok' | 'error-500' | 'stall' | 'html' | 'redirect' | 'refused' | 'flood';

export interface RegistryServer {
  /** The base URL a user would set (`http://127.0.0.1:<port>`). */
  url: string;
  origin: string;
  entries: ServerJson[];
  mode: RegistryMode;
  /** Every query received, in order (`search`, `cursor`, `limit`, `version`), and the cookies seen. */
  readonly requests: { path: string; search: string | null; cursor: string | null; limit: string | null; cookie?: string }[];
  /** Stops listening (a refused connection) or listens again on the same port. */
  setMode(mode: RegistryMode): Promise<void>;
  close(): Promise<void>;
}

/** A usable entry: one Streamable HTTP remote, optionally with headers it declares. */
export function streamableEntry(name: string, url: string, extra: Partial<ServerJson> = {}): ServerJson {
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json',
    name,
    description: `The ${name} server.`,
    version: '1.0.0',
    repository: { url: `https://github.com/example/${name.split('/').pop()}`, source: 'github' },
    remotes: [{ type: 'streamable-http', url }],
    ...extra,
  };
}

/** A local-only entry: an npm package run over stdio, no remote. */
export function packageEntry(name: string): ServerJson {
  return {
    name,
    title: 'Local files',
    description: 'Reads local files.',
    version: '0.3.1',
    packages: [{ registryType: 'npm', identifier: '@example/files', version: '0.3.1', transport: { type: 'stdio' } }],
  };
}

/** An entry reachable only over the older SSE transport. */
export function sseEntry(name: string): ServerJson {
  return {
    name,
    title: 'Old SSE',
    description: 'Speaks SSE only.',
    version: '2.0.0',
    remotes: [{ type: 'sse', url: 'https://sse.example/sse' }],
  };
}

/** Hostile entries: huge strings, script and data URLs, bad header names, and a nameless item. */
export function hostileEntries(): ServerJson[] {
  const huge = 'A'.repeat(200_000);
  return [
    {
      name: `io.hostile/${'n'.repeat(5000)}`,
      title: `<img src=x onerror=alert(1)>${huge}`,
      description: `line1\u2028line2\u0000<script>alert(1)</script>${huge}`,
      version: huge,
      websiteUrl: 'javascript:alert(1)',
      repository: { url: 'data:text/html,<script>alert(1)</script>' },
      remotes: [
        { type: 'streamable-http', url: 'javascript:alert(document.cookie)' },
        { type: 'streamable-http', url: 'http://evil.example/mcp' },
        {
          type: 'streamable-http',
          url: 'https://ok.hostile.example/mcp',
          headers: [
            { name: 'Bad Header\r\nX: y', isRequired: true },
            { name: 'X-Key', description: huge, isRequired: true, isSecret: true },
          ],
        },
      ],
    },
    { name: 'io.hostile/only-script', remotes: [{ type: 'streamable-http', url: 'javascript:alert(1)' }] },
  ];
}

function item(server: ServerJson) {
  const at = '2026-11-01T00:00:00Z';
  return {
    server,
    _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt: at, updatedAt: at, isLatest: true } },
  };
}

function matches(s: ServerJson, search: string): boolean {
  const q = search.toLowerCase();
  return [s.name, s.title, s.description].some((v) => typeof v === 'string' && v.toLowerCase().includes(q));
}

/** One page: `cursor` is the offset, base64url-encoded (opaque to the client, as the registry's is). */
function page(entries: ServerJson[], query: URLSearchParams) {
  const search = query.get('search') ?? '';
  const found = search ? entries.filter((s) => matches(s, search)) : entries;
  const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 30) || 30));
  const offset = Number(Buffer.from(query.get('cursor') ?? '', 'base64url').toString() || 0) || 0;
  const slice = found.slice(offset, offset + limit);
  const next = offset + limit < found.length ? Buffer.from(String(offset + limit)).toString('base64url') : undefined;
  return { servers: slice.map(item), metadata: { ...(next ? { nextCursor: next } : {}), count: slice.length } };
}

/** 10,000 small entries in one page, whatever `limit` asked. */
function flood() {
  const servers = Array.from({ length: 10_000 }, (_, i) =>
    item({ name: `io.flood/s${i}`, remotes: [{ type: 'streamable-http', url: `https://s${i}.flood.example/mcp` }] }),
  );
  return { servers, metadata: { nextCursor: 'x'.repeat(5000), count: 10_000 } };
}

function answer(reg: RegistryServer, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', reg.url);
  if (req.method !== 'GET' || !/^\/v0(\.1)?\/servers$/.test(url.pathname)) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"title":"Not Found","status":404}');
    return;
  }
  reg.requests.push({
    path: url.pathname,
    search: url.searchParams.get('search'),
    cursor: url.searchParams.get('cursor'),
    limit: url.searchParams.get('limit'),
    ...(req.headers.cookie ? { cookie: req.headers.cookie } : {}),
  });
  if (reg.mode === 'stall') return; // Never answers; the client's timeout has to end it.
  if (reg.mode === 'error-500') return void res.writeHead(500, { 'content-type': 'application/problem+json' }).end('{"status":500}');
  if (reg.mode === 'html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Sign in</h1>');
  if (reg.mode === 'redirect') return void res.writeHead(302, { location: 'https://elsewhere.example/v0.1/servers' }).end();
  const body = reg.mode === 'flood' ? flood() : page(reg.entries, url.searchParams);
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function startRegistryServer(entries: ServerJson[] = []): Promise<RegistryServer> {
  const sockets = new Set<Socket>();
  let port = 0;
  let listening = false;
  const reg: RegistryServer = {
    url: '',
    origin: '',
    entries,
    mode: 'ok',
    requests: [],
    async setMode(mode) {
      reg.mode = mode;
      if (mode === 'refused' && listening) await stop();
      if (mode !== 'refused' && !listening) await start();
    },
    async close() {
      if (listening) await stop();
    },
  };
  const server = createServer((req, res) => answer(reg, req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const start = async () => {
    port = await listenOn(server, port);
    listening = true;
  };
  const stop = async () => {
    listening = false;
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  await start();
  reg.url = `http://127.0.0.1:${port}`;
  reg.origin = reg.url;
  return reg;
}
