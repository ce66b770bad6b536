/**
 * Panel ↔ worker messages of the composer (SPEC G2, G3, K4): a prompt or a resource becomes an
 * untrusted ContextBlock built in the worker (`context-blocks.ts`), so the panel never fences
 * server content itself and the random delimiter is chosen where the content is known.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { ServerIdSchema as serverId } from './server-id.js';
import { completionAskFields, completionValues } from './completion.js';

export const ContextBlockViewSchema = lazySchema(() =>
  z.object({
    kind: z.enum(['prompt', 'resource']),
    provenance: z.object({
      serverId: z.string(),
      serverName: z.string(),
      uri: z.optional(z.string()),
      prompt: z.optional(z.string()),
    }),
    untrusted: z.literal(true),
    delimiter: z.string().check(z.maxLength(128)),
    text: z.string().check(z.maxLength(400_000)),
  }),
);
export type ContextBlockView = z.infer<typeof ContextBlockViewSchema>;

/** Text shown to the person per resource part; longer text is cut with a marker (N8). */
export const MAX_SHOWN_RESOURCE_TEXT = 200_000;

/** One part of a resource as the person reads it: its text, or the size of its binary data. */
const ShownResourcePartSchema = lazySchema(() =>
  z.object({
    uri: z.optional(z.string().check(z.maxLength(2048))),
    mimeType: z.optional(z.string().check(z.maxLength(256))),
    text: z.optional(z.string().check(z.maxLength(MAX_SHOWN_RESOURCE_TEXT + 64))),
    blobBytes: z.optional(z.number()),
  }),
);
export type ShownResourcePart = z.infer<typeof ShownResourcePartSchema>;

export const ComposerPanelRequestSchemas = {
  'panel:get-prompt-block': lazySchema(() =>
    z.object({
      serverId,
      prompt: z.string().check(z.minLength(1), z.maxLength(128)),
      arguments: z.record(z.string().check(z.maxLength(128)), z.string().check(z.maxLength(16_384))),
    }),
  ),
  'panel:read-resource-block': lazySchema(() => z.object({ serverId, uri: z.string().check(z.minLength(1), z.maxLength(2048)) })),
  /** *Read* on a result's resource link: the content for the person, and the fenced block the model would get. */
  'panel:read-resource': lazySchema(() => z.object({ serverId, uri: z.string().check(z.minLength(1), z.maxLength(2048)) })),
  /** Suggestions for one field of a prompt's or a resource template's form (SPEC R8). */
  'panel:complete': lazySchema(() => z.object({ serverId, ...completionAskFields() })),
} as const;

export const ComposerPanelResponseSchemas = {
  'panel:get-prompt-block': ContextBlockViewSchema,
  'panel:read-resource-block': ContextBlockViewSchema,
  'panel:read-resource': lazySchema(() =>
    z.object({ parts: z.array(ShownResourcePartSchema).check(z.maxLength(256)), block: ContextBlockViewSchema }),
  ),
  'panel:complete': lazySchema(() => z.object({ values: completionValues() })),
} as const;
