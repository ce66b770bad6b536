/**
 * Panel requests for editing a saved server and probing a URL before adding it (section K: edit,
 * guided add). Secrets never travel back to the panel: the settings say only whether a token,
 * a client secret or a header value is stored. Spread into panel.ts's tables.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { ServerIdSchema as serverId } from './server-id.js';

const url = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(2048)));
const headerName = lazySchema(() => z.string().check(z.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/)));

/** What a saved server's edit form starts from. */
const ServerSettingsSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    url: z.string(),
    authKind: z.enum(['none', 'bearer', 'oauth']),
    clientId: z.optional(z.string()),
    hasClientSecret: z.boolean(),
    scopes: z.optional(z.array(z.string())),
    clientMetadataUrl: z.optional(z.string()),
    /** OAuth tokens or a registered client are stored (lost if the URL or client changes). */
    authorized: z.boolean(),
    /** Names of the static headers; their values stay sealed in the worker. */
    headers: z.array(z.string()),
    connectTimeoutMs: z.optional(z.number()),
    connectOnStartup: z.boolean(),
    /** How many "always allow" grants this server has (lost when its URL changes). */
    alwaysGrants: z.number(),
  }),
);
export type ServerSettings = z.infer<typeof ServerSettingsSchema>;

const UpdateAuthSchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('none') }),
    /** No `token`: keep the stored one. */
    z.object({ kind: z.literal('bearer'), token: z.optional(z.string().check(z.minLength(1), z.maxLength(8192))) }),
    z.object({
      kind: z.literal('oauth'),
      clientId: z.optional(z.string().check(z.maxLength(512))),
      /** No `clientSecret`: keep the stored one (while the client id stays); `removeClientSecret` drops it. */
      clientSecret: z.optional(z.string().check(z.maxLength(8192))),
      removeClientSecret: z.optional(z.boolean()),
      scopes: z.optional(z.array(z.string().check(z.maxLength(256))).check(z.maxLength(64))),
      clientMetadataUrl: z.optional(z.string().check(z.maxLength(2048))),
    }),
  ]),
);

/** What the edit will lose; the worker refuses an edit that loses something without `confirmDrops`. */
export const EditDropSchema = lazySchema(() => z.enum(['authorization', 'approvals', 'token', 'client-secret']));

export const EditPanelRequestSchemas = {
  'panel:get-server-settings': lazySchema(() => z.object({ serverId })),
  'panel:update-server': lazySchema(() =>
    z.object({
      serverId,
      name: z.string().check(z.minLength(1), z.maxLength(120)),
      url,
      auth: UpdateAuthSchema,
      /** The headers to keep, by name; a `value` replaces the stored one. Absent: headers unchanged. */
      headers: z.optional(
        z.array(z.object({ name: headerName, value: z.optional(z.string().check(z.maxLength(8192))) })).check(z.maxLength(32)),
      ),
      /** null: back to the default. */
      connectTimeoutMs: z.nullable(z.number().check(z.int(), z.gte(1000), z.lte(600_000))),
      connectOnStartup: z.boolean(),
      confirmDrops: z.optional(z.boolean()),
    }),
  ),
  'panel:probe-server': lazySchema(() => z.object({ url })),
} as const;

export const EditPanelResponseSchemas = {
  'panel:get-server-settings': ServerSettingsSchema,
  'panel:update-server': lazySchema(() => z.object({ dropped: z.array(EditDropSchema) })),
  /**
   * The server's answer to an unauthenticated `initialize`: the auth kind it calls for, and the
   * name it gives itself (server text, shown as text only).
   */
  'panel:probe-server': lazySchema(() =>
    z.object({
      authKind: z.enum(['none', 'bearer', 'oauth']),
      name: z.optional(z.string().check(z.maxLength(120))),
    }),
  ),
} as const;
