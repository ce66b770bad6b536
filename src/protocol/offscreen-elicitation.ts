/**
 * Worker ↔ offscreen messages for elicitation (SPEC I1) and for prompts and resources (G2, G3),
 * kept apart from `offscreen.ts` and spread into its tables. The offscreen side holds the
 * server's `elicitation/create` open and emits `offscreen:elicitation`; the worker answers later
 * with `offscreen:answer-elicitation`. Everything here comes from a server and is bounded.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { completionAskFields, completionValues } from './completion.js';

const id = lazySchema(() => z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)));
const jsonObject = lazySchema(() => z.record(z.string(), z.unknown()));

/** Bounds on server text that crosses the boundary (SPEC N8); the context block cuts further. */
export const MAX_ELICITATION_MESSAGE = 4096;
// The body cap (16 MiB, response-limits.ts) bounds it already; a smaller bound here would turn a
// view over its own 4 MiB cap into a "malformed" answer instead of "too large" (U4, app-view-resource.ts).
const MAX_CONTENT_TEXT = 16 * 1024 * 1024;

export const ElicitationEventSchema = lazySchema(() =>
  z.object({
    type: z.literal('offscreen:elicitation'),
    connectionId: id,
    operationId: z.optional(id),
    elicitationId: id,
    message: z.string().check(z.maxLength(MAX_ELICITATION_MESSAGE)),
    requestedSchema: jsonObject,
    /** A URL-mode question (R5): the page to open, already checked (common/elicitation-url.ts). */
    url: z.optional(z.string().check(z.maxLength(2048))),
  }),
);

const PromptMessageSchema = lazySchema(() => z.looseObject({ role: z.optional(z.string().check(z.maxLength(32))), content: z.unknown() }));
const ResourceContentsSchema = lazySchema(() =>
  z.looseObject({
    uri: z.optional(z.string().check(z.maxLength(2048))),
    mimeType: z.optional(z.string().check(z.maxLength(256))),
    text: z.optional(z.string().check(z.maxLength(MAX_CONTENT_TEXT))),
    blob: z.optional(z.string()),
  }),
);

export const ElicitationRequestSchemas = {
  'offscreen:answer-elicitation': lazySchema(() =>
    z.object({
      elicitationId: id,
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z.optional(jsonObject),
    }),
  ),
  'offscreen:get-prompt': lazySchema(() =>
    z.object({
      connectionId: id,
      name: z.string().check(z.minLength(1), z.maxLength(128)),
      arguments: z.record(z.string(), z.string()),
    }),
  ),
  'offscreen:read-resource': lazySchema(() => z.object({ connectionId: id, uri: z.string().check(z.minLength(1), z.maxLength(2048)) })),
  /** `completion/complete` for one argument of a prompt or a resource template (SPEC R8). */
  'offscreen:complete': lazySchema(() => z.object({ connectionId: id, ...completionAskFields() })),
} as const;

export const ElicitationResponseSchemas = {
  'offscreen:answer-elicitation': lazySchema(() => z.object({ delivered: z.boolean() })),
  'offscreen:get-prompt': lazySchema(() =>
    z.looseObject({
      description: z.optional(z.string().check(z.maxLength(8192))),
      messages: z.array(PromptMessageSchema).check(z.maxLength(256)),
    }),
  ),
  'offscreen:read-resource': lazySchema(() => z.looseObject({ contents: z.array(ResourceContentsSchema).check(z.maxLength(256)) })),
  'offscreen:complete': lazySchema(() => z.object({ values: completionValues(), hasMore: z.optional(z.boolean()) })),
} as const;
