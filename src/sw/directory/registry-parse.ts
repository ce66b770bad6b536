/**
 * One page of an MCP Registry answer (`GET /v0.1/servers`: `{ servers: [{ server, _meta }],
 * metadata: { nextCursor, count } }`) turned into what the directory shows (SPEC S1, N8). The
 * registry is untrusted input: every string is cut to its bound and put on one line, every URL
 * must pass the server-URL rule (HTTPS, or HTTP on loopback; `javascript:` and `data:` are
 * dropped with a note), only `streamable-http` remotes are offered, and an entry that cannot be
 * added from a browser says why. Entries past the page bound, or without a name, are counted.
 */
import * as z from 'zod/mini';
import { lazySchema } from '../../protocol/lazy-schema.js';
import { DIRECTORY_LIMITS as L, type DirectoryEntry, type DirectoryPage } from '../../protocol/panel-directory.js';
import { say, type Said } from '../../protocol/wording.js';
import { flattenToOneLine } from '../../common/control-chars.js';
import { checkServerUrl } from '../../common/url-rules.js';

/** The envelope only; each entry is read on its own, so one bad entry does not lose the page. */
const EnvelopeSchema = lazySchema(() =>
  z.object({
    servers: z.array(z.unknown()),
    metadata: z.optional(
      z.catch(
        z.object({ nextCursor: z.catch(z.optional(z.string()), undefined), next_cursor: z.catch(z.optional(z.string()), undefined) }),
        {},
      ),
    ),
  }),
);

/** RFC 9110 token: what a header name may be. */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string field cut to `max` characters on one line; anything else is absent. */
export function boundedText(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const line = flattenToOneLine(value.length > max * 2 ? value.slice(0, max * 2) : value).trim();
  if (line === '') return undefined;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A URL for display: shown only when it passes the server-URL rule, else a note says it was left out. */
function checkedUrl(value: unknown, notes: Said[]): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const checked = value.length <= L.url ? checkServerUrl(value) : undefined;
  if (checked?.ok) return checked.url;
  notes.push(say('reasonDirectoryUrlDropped', { url: boundedText(value, 80) ?? '' }));
  return undefined;
}

function headerOf(raw: unknown, notes: Said[]) {
  if (!isObj(raw)) return undefined;
  const name = typeof raw['name'] === 'string' ? raw['name'].trim() : '';
  if (!HEADER_NAME.test(name)) {
    notes.push(say('reasonDirectoryHeaderDropped', { name: boundedText(name, 60) ?? '' }));
    return undefined;
  }
  const description = boundedText(raw['description'], L.headerText);
  // The registry's `value` may be a template ("Bearer {token}"): a hint, never a value to send.
  const placeholder = boundedText(raw['placeholder'] ?? raw['value'] ?? raw['default'], L.headerText);
  return {
    name,
    ...(description ? { description } : {}),
    ...(placeholder ? { placeholder } : {}),
    required: raw['isRequired'] === true,
    secret: raw['isSecret'] === true,
  };
}

/** What the remotes list holds: the usable endpoints, and what kinds were seen. */
function remotesOf(raw: unknown, notes: Said[]) {
  const list = Array.isArray(raw) ? raw.slice(0, 32) : [];
  const remotes: DirectoryEntry['remotes'] = [];
  let sse = 0;
  let streamable = 0;
  for (const r of list) {
    if (!isObj(r)) continue;
    if (r['type'] === 'sse') {
      sse++;
      continue;
    }
    if (r['type'] !== 'streamable-http') continue;
    streamable++;
    const url = checkedUrl(r['url'], notes);
    if (!url || remotes.length >= L.remotes || remotes.some((x) => x.url === url)) continue;
    const headers = (Array.isArray(r['headers']) ? r['headers'].slice(0, L.headers) : [])
      .map((h) => headerOf(h, notes))
      .filter((h) => h !== undefined);
    remotes.push({ url, headers });
  }
  if (sse && remotes.length) notes.push(say('reasonDirectorySseDropped'));
  return { remotes, sse, streamable };
}

/** Why an entry without a usable remote cannot be added here. */
function unusableReason(server: Obj, sse: number, streamable: number): Said {
  if (streamable) return say('reasonDirectoryNoValidUrl');
  if (sse) return say('reasonDirectoryOnlySse');
  if (Array.isArray(server['packages']) && server['packages'].length) return say('reasonDirectoryOnlyPackages');
  return say('reasonDirectoryNoRemotes');
}

/** One `{ server, _meta }` item (or a bare server.json), or undefined when it has no name. */
export function entryOf(item: unknown): DirectoryEntry | undefined {
  const server = isObj(item) && isObj(item['server']) ? item['server'] : item;
  if (!isObj(server)) return undefined;
  const name = boundedText(server['name'], L.name);
  if (!name) return undefined;
  const notes: Said[] = [];
  const { remotes, sse, streamable } = remotesOf(server['remotes'], notes);
  const repo = isObj(server['repository']) ? checkedUrl(server['repository']['url'], notes) : undefined;
  const website = checkedUrl(server['websiteUrl'], notes);
  const optional = {
    title: boundedText(server['title'], L.title),
    description: boundedText(server['description'], L.description),
    version: boundedText(server['version'], L.version),
    repository: repo,
    websiteUrl: website,
  };
  return {
    name,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    remotes,
    ...(remotes.length ? {} : { unusable: unusableReason(server, sse, streamable) }),
    notes: notes.slice(0, L.notes),
  };
}

/** The page a registry answered, or undefined when the body is not the registry's envelope. */
export function parseRegistryPage(body: unknown, registryUrl: string): DirectoryPage | undefined {
  const env = EnvelopeSchema.safeParse(body);
  if (!env.success) return undefined;
  const entries: DirectoryEntry[] = [];
  const seen = new Set<string>();
  let dropped = Math.max(0, env.data.servers.length - L.entries);
  for (const item of env.data.servers.slice(0, L.entries)) {
    const entry = entryOf(item);
    // The same name twice (another version) is one entry: the first, as the registry ordered them.
    if (!entry || seen.has(`${entry.name}\n${entry.version ?? ''}`)) dropped++;
    else {
      seen.add(`${entry.name}\n${entry.version ?? ''}`);
      entries.push(entry);
    }
  }
  const cursor = env.data.metadata?.nextCursor ?? env.data.metadata?.next_cursor;
  // Sent back verbatim as a query parameter: a cut one would not page on, so only a whole one is kept.
  const next = cursor && cursor.length <= L.cursor ? cursor : undefined;
  return { registryUrl, entries, ...(next ? { nextCursor: next } : {}), dropped };
}
