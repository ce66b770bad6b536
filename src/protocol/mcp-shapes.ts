/**
 * Runtime shapes of what a remote MCP server hands us, as the service worker accepts them from
 * the offscreen document (SPEC D1, N8). Loose objects: unknown fields pass through untouched
 * (the raw `inputSchema` must reach the agent unchanged, SPEC G1), but the fields we read are
 * typed and bounded so a hostile catalog cannot pollute the mirror.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';

const boundedString = (max: number) => z.string().check(z.maxLength(max));
const jsonObject = lazySchema(() => z.record(z.string(), z.unknown()));

export const ToolSchema = lazySchema(() =>
  z.looseObject({
    name: z.string().check(z.minLength(1), z.maxLength(128)),
    title: z.optional(boundedString(512)),
    description: z.optional(boundedString(8192)),
    inputSchema: jsonObject,
    outputSchema: z.optional(jsonObject),
    /** Carries `ui` (MCP Apps: the tool's view and visibility, read by `toolUi`). */
    _meta: z.optional(jsonObject),
    annotations: z.optional(
      z.looseObject({
        title: z.optional(boundedString(512)),
        readOnlyHint: z.optional(z.boolean()),
        destructiveHint: z.optional(z.boolean()),
        idempotentHint: z.optional(z.boolean()),
        openWorldHint: z.optional(z.boolean()),
      }),
    ),
  }),
);
export type Tool = z.infer<typeof ToolSchema>;

export const PromptSchema = lazySchema(() =>
  z.looseObject({
    name: z.string().check(z.minLength(1), z.maxLength(128)),
    title: z.optional(boundedString(512)),
    description: z.optional(boundedString(8192)),
    arguments: z.optional(
      z
        .array(
          z.looseObject({
            name: z.string().check(z.minLength(1), z.maxLength(128)),
            description: z.optional(boundedString(4096)),
            required: z.optional(z.boolean()),
          }),
        )
        .check(z.maxLength(64)),
    ),
  }),
);
export type Prompt = z.infer<typeof PromptSchema>;

/** What a resource and a resource template both carry beside their URI (or URI template). */
const resourceFields = () => ({
  name: boundedString(512),
  title: z.optional(boundedString(512)),
  description: z.optional(boundedString(8192)),
  mimeType: z.optional(boundedString(256)),
});
const uriText = () => z.string().check(z.minLength(1), z.maxLength(2048));

export const ResourceSchema = lazySchema(() => z.looseObject({ uri: uriText(), ...resourceFields() }));
export type Resource = z.infer<typeof ResourceSchema>;

export const ResourceTemplateSchema = lazySchema(() => z.looseObject({ uriTemplate: uriText(), ...resourceFields() }));
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

export const MAX_CATALOG_ITEMS = 1000;

const ContentBlockSchema = lazySchema(() =>
  z.looseObject({
    type: z.string().check(z.minLength(1), z.maxLength(64)),
  }),
);

export const CallToolResultSchema = lazySchema(() =>
  z.looseObject({
    content: z.array(ContentBlockSchema).check(z.maxLength(10000)),
    structuredContent: z.optional(jsonObject),
    isError: z.optional(z.boolean()),
  }),
);
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

export const ServerInfoSchema = lazySchema(() =>
  z.looseObject({
    name: boundedString(256),
    version: boundedString(128),
    title: z.optional(boundedString(512)),
  }),
);
