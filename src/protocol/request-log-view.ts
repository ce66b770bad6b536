/**
 * The request-log entries as the panel receives them (SPEC J2). A separate schema from the
 * stored type so the panel validates what the worker sends; bodies are optional and opaque
 * (already redacted by the worker before they were stored). Each entry names its server, since
 * the Activity view shows every server's log at once.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { WordingSchema } from './wording.js';

/** How many entries one answer carries at most (every server's log together). */
export const MAX_LOG_VIEW_ENTRIES = 1000;

const RequestLogEntryViewSchema = lazySchema(() =>
  z.object({
    serverId: z.string().check(z.maxLength(32)),
    serverName: z.string().check(z.maxLength(256)),
    at: z.number(),
    method: z.string().check(z.maxLength(256)),
    subject: z.optional(z.string().check(z.maxLength(1024))),
    direction: z.optional(z.literal('in')),
    notification: z.optional(z.literal(true)),
    durationMs: z.number(),
    status: z.union([z.enum(['ok', 'error']), z.number()]),
    requestBytes: z.number(),
    responseBytes: z.number(),
    error: z.optional(z.string().check(z.maxLength(4096))),
    errorWording: WordingSchema,
    request: z.optional(z.unknown()),
    response: z.optional(z.unknown()),
  }),
);
export type RequestLogEntryView = z.infer<typeof RequestLogEntryViewSchema>;

export const RequestLogViewSchema = lazySchema(() =>
  z.object({
    entries: z.array(RequestLogEntryViewSchema).check(z.maxLength(MAX_LOG_VIEW_ENTRIES)),
  }),
);
