/**
 * Panel ↔ worker messages of the Activity view (SPEC J2, G1, K3): the request log of one server
 * or of all, and the "always allow" grants with their revocation. Kept apart from `panel.ts`,
 * which spreads these tables into its own. The worker pushes `panel:activity-changed` when the
 * log or the grants changed, and the panel asks again for what it shows.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import type { PushOf } from './push.js';
import { ServerIdSchema as serverId } from './server-id.js';
import { RequestLogViewSchema } from './request-log-view.js';

const tool = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(128)));

const GrantViewSchema = lazySchema(() =>
  z.object({
    serverId,
    /** The server's name as configured, or its id when the server is gone. */
    serverName: z.string().check(z.maxLength(256)),
    tool,
    toolTitle: z.optional(z.string().check(z.maxLength(512))),
    grantedAt: z.number(),
  }),
);
export type GrantView = z.infer<typeof GrantViewSchema>;

export const ActivityPanelRequestSchemas = {
  /** Without `serverId`: every server's log. */
  'panel:get-log': lazySchema(() => z.object({ serverId: z.optional(serverId) })),
  'panel:list-grants': lazySchema(() => z.object({})),
  'panel:revoke-grant': lazySchema(() => z.object({ serverId, tool })),
  'panel:revoke-all-grants': lazySchema(() => z.object({})),
} as const;

export const ActivityPanelResponseSchemas = {
  'panel:get-log': RequestLogViewSchema,
  'panel:list-grants': lazySchema(() => z.object({ grants: z.array(GrantViewSchema).check(z.maxLength(10_000)) })),
  'panel:revoke-grant': lazySchema(() => z.object({ revoked: z.boolean() })),
  'panel:revoke-all-grants': lazySchema(() => z.object({ revoked: z.number() })),
} as const;

/** The Activity area's pushes, by `type` (protocol/push.ts). */
export const ActivityPanelPushSchemas = {
  'panel:activity-changed': lazySchema(() => z.object({ what: z.enum(['log', 'grants']) })),
} as const;
export type ActivityPanelPush = PushOf<typeof ActivityPanelPushSchemas>;
