/**
 * Messages between the service worker and the offscreen SDK host (SPEC D1). The service worker
 * is the only side that decides; the offscreen document owns SDK sessions keyed by
 * `connectionId` (SPEC C6) and reports back. Everything is validated on receipt on both sides.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { CallToolResultSchema, MAX_CATALOG_ITEMS, ServerInfoSchema } from './mcp-shapes.js';
import { WireErrorSchema, resultSchema } from './result.js';
import { ElicitationEventSchema, ElicitationRequestSchemas, ElicitationResponseSchemas } from './offscreen-elicitation.js';
import { TaskListSchema, TaskViewSchema } from './tasks.js';
import { WordingSchema } from './wording.js';

/** Fixed Port name; the offscreen document connects to the worker with it. */
export const OFFSCREEN_PORT = 'mcp-offscreen';
/** The offscreen document's page; a Port from any other page is not the host. */
export const OFFSCREEN_PATH = 'offscreen.html';
/**
 * A newly started worker sends this (`chrome.runtime.sendMessage`) to a document that outlived
 * the previous worker: the document then opens its Port to the new worker (SPEC C6, C7).
 */
export const OFFSCREEN_RECONNECT = 'offscreen:reconnect';

const id = lazySchema(() => z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)));
const jsonObject = lazySchema(() => z.record(z.string(), z.unknown()));
/** SHA-256 (hex) of what a session depends on: URL, auth binding, static headers, timeout. */
const fingerprint = lazySchema(() => z.string().check(z.regex(/^[a-f0-9]{64}$/)));
const catalogCategory = lazySchema(() => z.enum(['tools', 'prompts', 'resources', 'resourceTemplates']));
/** The number the document gave one listing of a category on a session (1, 2, …). */
const listing = lazySchema(() => z.number().check(z.int(), z.gte(1)));

/**
 * What a worker made of one listing: the items as its checks left them (catalog-items.ts, N8),
 * their warnings, and each item's definition hash (S2, same order). The document keeps it beside
 * the listing, so that a later worker instance adopts the catalog without checking and hashing it
 * again on its wake (docs/architecture.md "Lifecycle").
 */
const CheckedListingSchema = lazySchema(() =>
  z.object({
    listing,
    items: z.array(z.unknown()).check(z.maxLength(MAX_CATALOG_ITEMS)),
    warnings: z.array(z.object({ message: z.string().check(z.maxLength(4096)), wording: WordingSchema })).check(z.maxLength(64)),
    hashes: z.array(z.string().check(z.regex(/^[0-9a-f]{64}$/))).check(z.maxLength(MAX_CATALOG_ITEMS)),
  }),
);
export type CheckedListing = z.infer<typeof CheckedListingSchema>;

export const OffscreenRequestSchemas = {
  'offscreen:connect': lazySchema(() =>
    z.object({
      serverId: id,
      connectionId: id,
      url: z.string().check(z.maxLength(2048)),
      headers: z.record(z.string(), z.string().check(z.maxLength(8192))),
      timeoutMs: z.number().check(z.int(), z.gte(1000)),
      fingerprint,
      /** The panel can host MCP App views: declare the `io.modelcontextprotocol/ui` extension. */
      appViews: z.optional(z.boolean()),
    }),
  ),
  /**
   * Sent by a worker instance first on a new Port: it becomes the document's owner (requests of
   * any other owner are refused from then on) and learns which sessions it can adopt.
   */
  'offscreen:claim': lazySchema(() => z.object({})),
  /** One category at a time, so a category that fails keeps its last valid list (SPEC D2). */
  'offscreen:list-category': lazySchema(() =>
    z.object({ connectionId: id, category: z.enum(['tools', 'prompts', 'resources', 'resourceTemplates']) }),
  ),
  /** Keeps what the worker made of a listing beside it (`CheckedListingSchema`); a later listing replaces both. */
  'offscreen:keep-checked': lazySchema(() =>
    z.object({
      connectionId: id,
      category: catalogCategory,
      checked: CheckedListingSchema,
    }),
  ),
  'offscreen:call-tool': lazySchema(() =>
    z.object({
      connectionId: id,
      operationId: id,
      // Up to the longest name the catalog offers under an alias (MAX_ALIASED_NAME_LENGTH, N8).
      name: z.string().check(z.minLength(1), z.maxLength(1024)),
      arguments: jsonObject,
      timeoutMs: z.number().check(z.int(), z.gte(1000)),
      /** The tool runs only as a task (2025-11-25 `execution.taskSupport: "required"`; task-call.ts). */
      asTask: z.optional(z.boolean()),
    }),
  ),
  'offscreen:cancel': lazySchema(() => z.object({ connectionId: id, operationId: id })),
  'offscreen:close': lazySchema(() => z.object({ connectionId: id })),
  'offscreen:ping': lazySchema(() => z.object({ connectionId: id })),
  /** The document's JS heap, for the diagnostics report (V3). */
  'offscreen:heap': lazySchema(() => z.object({})),
  /** Forgets the server's ended tasks; running ones stay (SPEC R6). */
  'offscreen:clear-tasks': lazySchema(() => z.object({ serverId: id })),
  /** A refreshed OAuth token for a live session; later requests carry it (SPEC E9). */
  'offscreen:set-authorization': lazySchema(() =>
    z.object({ connectionId: id, authorization: z.string().check(z.minLength(1), z.maxLength(16384)) }),
  ),
  ...ElicitationRequestSchemas,
} as const;

/** A live session the document holds, with what its last listings returned (SPEC C6, C7). */
const HeldSessionSchema = lazySchema(() =>
  z.object({
    serverId: id,
    connectionId: id,
    fingerprint,
    /** The revision the session speaks (SPEC R1). */
    protocolVersion: z.optional(z.string().check(z.maxLength(32))),
    /** How many listings and list_changed notifications the document has seen on this session. */
    catalogGeneration: z.number().check(z.int(), z.gte(0)),
    catalog: z.object({
      tools: z.optional(z.array(z.unknown()).check(z.maxLength(MAX_CATALOG_ITEMS))),
      prompts: z.optional(z.array(z.unknown()).check(z.maxLength(MAX_CATALOG_ITEMS))),
      resources: z.optional(z.array(z.unknown()).check(z.maxLength(MAX_CATALOG_ITEMS))),
      resourceTemplates: z.optional(z.array(z.unknown()).check(z.maxLength(MAX_CATALOG_ITEMS))),
    }),
    /** Categories a list_changed announced after their last listing: to be listed again. */
    stale: z.array(catalogCategory),
    /** The number of the listing each category holds now. */
    listings: z.optional(
      z.object({
        tools: z.optional(listing),
        prompts: z.optional(listing),
        resources: z.optional(listing),
        resourceTemplates: z.optional(listing),
      }),
    ),
    /** What a worker made of the listing each category holds now, where one told the document. */
    checked: z.optional(
      z.object({
        tools: z.optional(CheckedListingSchema),
        prompts: z.optional(CheckedListingSchema),
        resources: z.optional(CheckedListingSchema),
        resourceTemplates: z.optional(CheckedListingSchema),
      }),
    ),
  }),
);
export type HeldSession = z.infer<typeof HeldSessionSchema>;

const OffscreenResponseSchemas = {
  'offscreen:connect': lazySchema(() =>
    z.object({
      serverInfo: z.optional(ServerInfoSchema),
      capabilities: jsonObject,
      instructions: z.optional(z.string().check(z.maxLength(16384))),
      /** The revision the session speaks: 2026-07-28 for a stateless server, else what `initialize` agreed (SPEC R1). */
      protocolVersion: z.optional(z.string().check(z.maxLength(32))),
    }),
  ),
  // Items are checked one by one by the manager (catalog-items.ts): one malformed or oversized
  // entry is dropped or trimmed with a visible warning instead of rejecting the whole list (N8).
  'offscreen:claim': lazySchema(() =>
    z.object({
      sessions: z.array(HeldSessionSchema).check(z.maxLength(256)),
      /** Sessions that ended while no worker was connected. */
      lost: z.array(z.object({ serverId: id, connectionId: id, error: WireErrorSchema })).check(z.maxLength(256)),
      /** The tasks the document runs and has run, also those that went on while no worker was there (SPEC R6). */
      tasks: z.optional(TaskListSchema),
    }),
  ),
  'offscreen:list-category': lazySchema(() =>
    z.object({
      category: z.enum(['tools', 'prompts', 'resources', 'resourceTemplates']),
      items: z.array(z.unknown()).check(z.maxLength(MAX_CATALOG_ITEMS)),
      /** This listing's number, which `offscreen:keep-checked` names (absent from an older document). */
      listing: z.optional(listing),
    }),
  ),
  'offscreen:keep-checked': lazySchema(() => z.object({ kept: z.boolean() })),
  'offscreen:call-tool': CallToolResultSchema,
  'offscreen:cancel': lazySchema(() => z.object({ cancelled: z.boolean() })),
  'offscreen:close': lazySchema(() => z.object({ closed: z.boolean() })),
  'offscreen:ping': lazySchema(() => z.object({ latencyMs: z.number() })),
  /** Chrome's `performance.memory`; absent where the browser has none. */
  'offscreen:heap': lazySchema(() => z.object({ usedBytes: z.optional(z.number()), totalBytes: z.optional(z.number()) })),
  'offscreen:clear-tasks': lazySchema(() => z.object({ tasks: TaskListSchema })),
  'offscreen:set-authorization': lazySchema(() => z.object({ updated: z.boolean() })),
  ...ElicitationResponseSchemas,
} as const;

export type OffscreenMethod = keyof typeof OffscreenRequestSchemas;
export type OffscreenParams<M extends OffscreenMethod> = z.infer<(typeof OffscreenRequestSchemas)[M]>;
export type OffscreenValue<M extends OffscreenMethod> = z.infer<(typeof OffscreenResponseSchemas)[M]>;

const OFFSCREEN_METHODS = Object.keys(OffscreenRequestSchemas) as OffscreenMethod[];

/** Envelope of a request from the worker. `method` is checked against the table on receipt. */
export const OffscreenRequestEnvelopeSchema = lazySchema(() =>
  z.object({
    kind: z.literal('request'),
    id: z.number().check(z.int(), z.gte(0)),
    /** The sending worker instance; the document refuses requests of any instance but its owner. */
    owner: id,
    method: z.enum(OFFSCREEN_METHODS as [OffscreenMethod, ...OffscreenMethod[]]),
    params: z.unknown(),
  }),
);

export const OffscreenEventSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('offscreen:hello'), documentId: id }),
    z.object({
      type: z.literal('offscreen:list-changed'),
      connectionId: id,
      category: z.enum(['tools', 'prompts', 'resources']),
    }),
    z.object({ type: z.literal('offscreen:session-lost'), connectionId: id, error: WireErrorSchema }),
    z.object({
      type: z.literal('offscreen:progress'),
      connectionId: id,
      operationId: id,
      progress: z.number(),
      total: z.optional(z.number()),
      message: z.optional(z.string().check(z.maxLength(1024))),
    }),
    /** A task started, changed or ended (SPEC R6); sent while a worker listens, and an end wakes one. */
    z.object({ type: z.literal('offscreen:task'), task: TaskViewSchema }),
    ElicitationEventSchema,
  ]),
);
export type OffscreenEvent = z.infer<typeof OffscreenEventSchema>;

/** What the offscreen document sends: responses (their result validated per method later) and events. */
export const OffscreenResponseEnvelopeSchema = lazySchema(() =>
  z.object({ kind: z.literal('response'), id: z.number().check(z.int()), result: z.unknown() }),
);
export const OffscreenEventEnvelopeSchema = lazySchema(() => z.object({ kind: z.literal('event'), event: OffscreenEventSchema }));

function buildResultSchema<M extends OffscreenMethod>(method: M) {
  return resultSchema(OffscreenResponseSchemas[method]);
}

const resultSchemas = new Map<OffscreenMethod, unknown>();

/**
 * The validator of the response envelope for one method. Built once per method and reused:
 * building the union on every response cost time on each call; the checks are the same.
 */
export function offscreenResultSchema<M extends OffscreenMethod>(method: M): ReturnType<typeof buildResultSchema<M>> {
  let schema = resultSchemas.get(method);
  if (!schema) resultSchemas.set(method, (schema = buildResultSchema(method)));
  return schema as ReturnType<typeof buildResultSchema<M>>;
}
