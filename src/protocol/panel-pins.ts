/**
 * Pinned definitions in the panel (SPEC S2): what a server view says about definitions that
 * changed since they were pinned (a bounded line diff and the behaviour hints that changed) and
 * about new tools held for review, and the user's answers — accept the new definition, keep the
 * tool disabled, review new tools or not. Kept apart from panel.ts, which spreads these tables
 * into its own.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { ServerIdSchema as serverId } from './server-id.js';

/** Changes one server view carries; the manager sends the newest first, at most this many. */
export const MAX_CHANGES_SHOWN = 50;

const HintSchema = lazySchema(() => z.enum(['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']));

export const DefinitionChangeSchema = lazySchema(() =>
  z.object({
    category: z.enum(['tools', 'prompts', 'resources']),
    name: z.string().check(z.maxLength(2048)),
    /** 'changed': differs from its pin; 'new': a new tool held for review. */
    kind: z.enum(['changed', 'new']),
    /** Epoch ms the change was first seen (absent for a new tool). */
    at: z.optional(z.number()),
    /** Disabled by the pin (review or "Keep disabled") until accepted. */
    held: z.optional(z.boolean()),
    /** The old definition's text was too large to keep: only its hash was pinned. */
    oldTextMissing: z.optional(z.boolean()),
    lines: z.array(z.object({ op: z.enum(['=', '-', '+', '…']), text: z.string().check(z.maxLength(256)) })).check(z.maxLength(130)),
    /** Behaviour hints whose value changed (absent: not declared). */
    hints: z.array(z.object({ hint: HintSchema, from: z.optional(z.boolean()), to: z.optional(z.boolean()) })).check(z.maxLength(4)),
  }),
);
export type DefinitionChange = z.infer<typeof DefinitionChangeSchema>;

const pinCategory = lazySchema(() => z.enum(['tools', 'prompts', 'resources']));
const itemName = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(2048)));

export const PinsPanelRequestSchemas = {
  'panel:accept-definition': lazySchema(() => z.object({ serverId, category: pinCategory, name: itemName })),
  'panel:keep-disabled': lazySchema(() => z.object({ serverId, name: itemName })),
  'panel:set-review-new-tools': lazySchema(() => z.object({ serverId, review: z.boolean() })),
} as const;

export const PinsPanelResponseSchemas = {
  'panel:accept-definition': lazySchema(() => z.object({ accepted: z.boolean(), grantRestored: z.boolean() })),
  'panel:keep-disabled': lazySchema(() => z.object({ disabled: z.boolean() })),
  'panel:set-review-new-tools': lazySchema(() => z.object({ review: z.boolean() })),
} as const;
