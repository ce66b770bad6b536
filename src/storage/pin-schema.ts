/**
 * The stored shape of pinned definitions (SPEC S2): what the user's approval of a server's tools,
 * prompts and resources rested on. A pin keeps a SHA-256 of the item's canonical definition (the
 * whole of it, so any change is noticed however large) and a bounded text of it for the diff; a
 * later listing that differs is kept beside it as `changed` until the user accepts it. Kept with
 * the server's entry (config-schema.ts), so it is removed, exported and imported with it.
 */
import * as z from 'zod/mini';
import { lazySchema } from '../protocol/lazy-schema.js';

/** Longest text kept of one definition (the diff shows what is kept; the hash covers all). */
export const MAX_PIN_TEXT = 8192;
/** Most items pinned per category of one server (the catalog keeps at most 1000 tools). */
export const MAX_PINS = 2000;
/** Longest pinned name (a tool or prompt name, or a resource URI). */
export const MAX_PIN_NAME = 2048;

/** The behaviour hints of a tool as the server declared them: claims, shown and compared, never trusted. */
const HintsSchema = lazySchema(() =>
  z.object({
    readOnlyHint: z.optional(z.boolean()),
    destructiveHint: z.optional(z.boolean()),
    idempotentHint: z.optional(z.boolean()),
    openWorldHint: z.optional(z.boolean()),
  }),
);
export type PinHints = z.infer<typeof HintsSchema>;

/** One version of a definition: its hash, its text (absent when it did not fit the budget) and hints. */
const DefinitionSchema = lazySchema(() =>
  z.object({
    hash: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
    text: z.optional(z.string().check(z.maxLength(MAX_PIN_TEXT + 200))),
    hints: z.optional(HintsSchema),
  }),
);
export type PinnedDefinition = z.infer<typeof DefinitionSchema>;

const PinSchema = lazySchema(() =>
  z.object({
    name: z.string().check(z.minLength(1), z.maxLength(MAX_PIN_NAME)),
    ...DefinitionSchema.shape,
    /** A later listing that differs from the pin, seen at `at` (epoch ms), until accepted. */
    changed: z.optional(z.object({ ...DefinitionSchema.shape, at: z.number() })),
    /** A tool that arrived from a known server while "review new tools" was on: not offered until accepted. */
    review: z.optional(z.literal(true)),
    /** Disabled by the user's "Keep disabled" or by review: Accept enables it again. */
    held: z.optional(z.literal(true)),
  }),
);
export type Pin = z.infer<typeof PinSchema>;

const PinListSchema = lazySchema(() => z.array(PinSchema).check(z.maxLength(MAX_PINS)));

export const PinsSchema = lazySchema(() =>
  z.object({
    tools: z.optional(PinListSchema),
    prompts: z.optional(PinListSchema),
    resources: z.optional(PinListSchema),
  }),
);
export type Pins = z.infer<typeof PinsSchema>;
export type PinCategory = keyof Pins;
