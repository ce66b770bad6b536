/**
 * JSON-RPC between the panel and an MCP App view (protocol `2026-01-26`), as zod schemas checked
 * in both directions. Everything from a view is untrusted: the envelope, then the params of each
 * method we answer. The view's messages reach the panel only through the sandbox page, which
 * forwards each one as a bounded JSON string ({@link SandboxToPanelSchema}).
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { CallToolResultSchema } from './mcp-shapes.js';

/** Largest message (JSON characters) a view may send; the sandbox page drops bigger ones. */
export const MAX_VIEW_MESSAGE = 1024 * 1024;

const rpcId = lazySchema(() => z.union([z.string().check(z.maxLength(128)), z.number()]));
const method = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(128)));
const params = lazySchema(() => z.optional(z.record(z.string(), z.unknown())));

export const ViewMessageSchema = lazySchema(() =>
  z.union([
    z.object({ jsonrpc: z.literal('2.0'), id: rpcId, method, params }),
    z.object({ jsonrpc: z.literal('2.0'), method, params }),
    z.object({ jsonrpc: z.literal('2.0'), id: rpcId, result: z.record(z.string(), z.unknown()) }),
    z.object({
      jsonrpc: z.literal('2.0'),
      id: z.union([rpcId, z.null()]),
      error: z.looseObject({ code: z.number(), message: z.string().check(z.maxLength(4096)) }),
    }),
  ]),
);

/** The params of each request a view may make, by method; a method not here is answered -32601. */
export const ViewRequestParams = {
  'ui/initialize': lazySchema(() =>
    z.looseObject({
      protocolVersion: z.string().check(z.maxLength(32)),
      appInfo: z.optional(z.looseObject({ name: z.string().check(z.maxLength(256)), version: z.string().check(z.maxLength(128)) })),
    }),
  ),
  'tools/call': lazySchema(() =>
    z.object({
      name: z.string().check(z.minLength(1), z.maxLength(128)),
      arguments: z.optional(z.record(z.string(), z.unknown())),
      _meta: z.optional(z.record(z.string(), z.unknown())),
    }),
  ),
  'resources/read': lazySchema(() => z.looseObject({ uri: z.string().check(z.minLength(1), z.maxLength(2048)) })),
  'ui/open-link': lazySchema(() => z.object({ url: z.string().check(z.minLength(1), z.maxLength(2048)) })),
  'ui/message': lazySchema(() =>
    z.object({
      role: z.literal('user'),
      content: z
        .array(z.looseObject({ type: z.string().check(z.maxLength(64)), text: z.optional(z.string().check(z.maxLength(16_384))) }))
        .check(z.maxLength(16)),
    }),
  ),
  'ui/request-display-mode': lazySchema(() => z.object({ mode: z.enum(['inline', 'fullscreen', 'pip']) })),
  ping: lazySchema(() => z.optional(z.record(z.string(), z.unknown()))),
} as const;
export type ViewRequestMethod = keyof typeof ViewRequestParams;

export const SizeChangedParamsSchema = lazySchema(() =>
  z.object({
    // Any size: the host clamps it to its own bounds (U4), never drops it for being large.
    width: z.optional(z.number().check(z.gte(0))),
    height: z.optional(z.number().check(z.gte(0))),
  }),
);

/** What the panel sends a view: notifications, requests and answers, checked before they leave. */
export const HostMessageSchema = lazySchema(() =>
  z.union([
    z.object({
      jsonrpc: z.literal('2.0'),
      method: z.literal('ui/notifications/tool-input'),
      params: z.object({ arguments: z.record(z.string(), z.unknown()) }),
    }),
    z.object({ jsonrpc: z.literal('2.0'), method: z.literal('ui/notifications/tool-result'), params: CallToolResultSchema }),
    z.object({
      jsonrpc: z.literal('2.0'),
      method: z.literal('ui/notifications/tool-cancelled'),
      params: z.object({ reason: z.optional(z.string()) }),
    }),
    z.object({
      jsonrpc: z.literal('2.0'),
      method: z.literal('ui/notifications/host-context-changed'),
      params: z.record(z.string(), z.unknown()),
    }),
    z.object({ jsonrpc: z.literal('2.0'), id: z.number(), method: z.literal('ui/resource-teardown'), params: z.object({}) }),
    z.object({ jsonrpc: z.literal('2.0'), id: rpcId, result: z.record(z.string(), z.unknown()) }),
    z.object({ jsonrpc: z.literal('2.0'), id: z.union([rpcId, z.null()]), error: z.object({ code: z.number(), message: z.string() }) }),
  ]),
);
export type HostMessage = z.infer<typeof HostMessageSchema>;

/** The sandbox page's messages to the panel: it is ready for the view, or it forwards one message. */
export const SandboxToPanelSchema = lazySchema(() =>
  z.union([
    z.object({ type: z.literal('sandbox-ready') }),
    z.object({
      type: z.literal('from-view'),
      json: z.string().check(z.maxLength(MAX_VIEW_MESSAGE)),
      /** The user was interacting with the view when it sent this (its frame's user activation, U4). */
      active: z.optional(z.boolean()),
    }),
    z.object({ type: z.literal('dropped'), reason: z.enum(['too-large', 'too-many', 'not-json']) }),
    /** U2: the view's frame got another document or tried to; the sandbox page removed it. */
    z.object({ type: z.literal('navigated') }),
  ]),
);
