/**
 * The request-log entries as the panel receives them (SPEC J2). A separate schema from the
 * stored type so the panel validates what the worker sends; bodies are optional and opaque
 * (already redacted by the worker before they were stored).
 */
import * as z from 'zod/mini';

const RequestLogEntryViewSchema = z.object({
  at: z.number(),
  method: z.string().check(z.maxLength(256)),
  durationMs: z.number(),
  status: z.union([z.enum(['ok', 'error']), z.number()]),
  requestBytes: z.number(),
  responseBytes: z.number(),
  error: z.optional(z.string().check(z.maxLength(4096))),
  request: z.optional(z.unknown()),
  response: z.optional(z.unknown()),
});
export type RequestLogEntryView = z.infer<typeof RequestLogEntryViewSchema>;

export const RequestLogViewSchema = z.object({
  entries: z.array(RequestLogEntryViewSchema).check(z.maxLength(200)),
});
