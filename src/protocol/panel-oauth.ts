/**
 * Panel requests about OAuth authorization (SPEC E2, E11, K1), spread into the panel protocol
 * table. `panel:authorize` is sent only from the user's click: it may open the authorization
 * window, which background work never does (E9).
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { ServerIdSchema as serverId } from './server-id.js';

export const OAuthPanelRequestSchemas = {
  /**
   * `switchToOAuth`: the server is set up without authorization but challenged Bearer; the click
   * that authorizes also changes its stored auth to OAuth (E3).
   */
  'panel:authorize': lazySchema(() => z.object({ serverId, switchToOAuth: z.optional(z.boolean()) })),
  'panel:forget-authorization': lazySchema(() => z.object({ serverId })),
  /** "Grant more access" after a tool call was refused with 403 insufficient_scope (E7); a click only. */
  'panel:step-up': lazySchema(() => z.object({ serverId, tool: z.string().check(z.minLength(1), z.maxLength(128)) })),
} as const;

export const OAuthPanelResponseSchemas = {
  'panel:authorize': lazySchema(() =>
    z.object({
      status: z.enum(['disconnected', 'connecting', 'ready', 'needs-auth', 'error']),
      /** Authorization-server origins Chrome must grant first; the panel asks for them on the next click (L1). */
      missingOrigins: z.optional(z.array(z.string().check(z.maxLength(2048))).check(z.maxLength(8))),
    }),
  ),
  'panel:forget-authorization': lazySchema(() =>
    z.object({ revoked: z.boolean(), revokeError: z.optional(z.string().check(z.maxLength(4096))) }),
  ),
  'panel:step-up': lazySchema(() => z.object({ granted: z.boolean(), sessionsUpdated: z.number().check(z.int(), z.minimum(0)) })),
} as const;
