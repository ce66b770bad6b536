/**
 * The stored shape of a server (SPEC B1). Built with `zod/mini` because this module is
 * bundled into the service worker, whose size budget is tight (SPEC A3).
 *
 * Secrets (bearer tokens, client secrets, refresh tokens, static header values) are only
 * ever stored as {@link SealedBlob}s (SPEC F2); the schema makes a plaintext secret field
 * a validation error rather than something a careless write can persist.
 */
import * as z from 'zod/mini';
import { lazySchema } from '../protocol/lazy-schema.js';
import { ServerIdSchema } from '../protocol/server-id.js';
import { PinsSchema } from './pin-schema.js';

/** Key of the server array in `chrome.storage.local`. */
export const SERVERS_KEY = 'mcp_servers';
/** Key of the schema version number beside it (migrations, see config-store). */
export const SCHEMA_VERSION_KEY = 'mcp_schema_version';
export const CURRENT_SCHEMA_VERSION = 2;

export const MAX_NAME_LENGTH = 120;
export const MAX_URL_LENGTH = 2048;

/** AES-GCM sealed value: version, base64 IV, base64 ciphertext (with tag). */
export const SealedBlobSchema = lazySchema(() =>
  z.object({
    v: z.literal(1),
    iv: z.string().check(z.minLength(16), z.maxLength(24)),
    ct: z.string().check(z.minLength(1), z.maxLength(65536)),
  }),
);
export type SealedBlob = z.infer<typeof SealedBlobSchema>;

/** Which authorization server a credential belongs to (SPEC E10). */
const AuthBindingSchema = lazySchema(() =>
  z.object({
    resource: z.string().check(z.minLength(1), z.maxLength(MAX_URL_LENGTH)),
    issuer: z.string().check(z.minLength(1), z.maxLength(MAX_URL_LENGTH)),
  }),
);
export type AuthBinding = z.infer<typeof AuthBindingSchema>;

const NoneAuthSchema = lazySchema(() => z.object({ kind: z.literal('none') }));
const BearerAuthSchema = lazySchema(() => z.object({ kind: z.literal('bearer'), token: SealedBlobSchema }));
const OAuthAuthSchema = lazySchema(() =>
  z.object({
    kind: z.literal('oauth'),
    /** A client id the user configured (pre-registration). */
    clientId: z.optional(z.string().check(z.minLength(1), z.maxLength(512))),
    clientSecret: z.optional(SealedBlobSchema),
    scopes: z.optional(z.array(z.string().check(z.maxLength(256))).check(z.maxLength(64))),
    /** The issuer the configured `clientId` was first used with: never sent to another (E10). */
    clientIssuer: z.optional(z.string().check(z.maxLength(MAX_URL_LENGTH))),
    /** Optional Client ID Metadata Document URL (CIMD), used only when the AS supports it. */
    clientMetadataUrl: z.optional(z.string().check(z.maxLength(MAX_URL_LENGTH))),
    binding: z.optional(AuthBindingSchema),
    /** A client obtained by dynamic registration, valid only for `binding`. */
    registration: z.optional(
      z.object({
        clientId: z.string().check(z.minLength(1), z.maxLength(512)),
        clientSecret: z.optional(SealedBlobSchema),
        tokenEndpointAuthMethod: z.optional(z.string().check(z.maxLength(64))),
      }),
    ),
    /** Long-lived token material, sealed; the access token lives in session storage only. */
    tokens: z.optional(
      z.object({
        refresh: z.optional(SealedBlobSchema),
        scope: z.optional(z.string().check(z.maxLength(4096))),
      }),
    ),
  }),
);

const ServerAuthSchema = lazySchema(() => z.discriminatedUnion('kind', [NoneAuthSchema, BearerAuthSchema, OAuthAuthSchema]));

const StaticHeaderSchema = lazySchema(() =>
  z.object({
    name: z.string().check(z.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/)),
    value: SealedBlobSchema,
  }),
);

export const McpServerConfigSchema = lazySchema(() =>
  z.object({
    id: ServerIdSchema,
    name: z.string().check(z.minLength(1), z.maxLength(MAX_NAME_LENGTH)),
    url: z.string().check(z.minLength(1), z.maxLength(MAX_URL_LENGTH)),
    auth: ServerAuthSchema,
    headers: z.optional(z.array(StaticHeaderSchema).check(z.maxLength(32))),
    enabled: z.boolean(),
    disabledTools: z.array(z.string().check(z.maxLength(256))).check(z.maxLength(10000)),
    /**
     * An imported allow-list (Gemini CLI `includeTools`), kept until the server's tool list is first
     * known: then every tool not on it joins `disabledTools` and this field is dropped.
     */
    includeTools: z.optional(z.array(z.string().check(z.maxLength(256))).check(z.maxLength(10000))),
    connectOnStartup: z.boolean(),
    timeoutMs: z.optional(z.number().check(z.int(), z.gte(1000), z.lte(3_600_000))),
    /** Limit of one connect attempt, measured from its start across worker restarts (SPEC C7). */
    connectTimeoutMs: z.optional(z.number().check(z.int(), z.gte(1000), z.lte(600_000))),
    /**
     * Pinned definitions of the server's tools, prompts and resources (SPEC S2). Optional, so
     * entries stored before pins existed read unchanged (no schema version bump): their next
     * listing pins what it finds.
     */
    pins: z.optional(PinsSchema),
    /** New tools of a known server start disabled until reviewed (S2); absent: on unless the server is loopback. */
    reviewNewTools: z.optional(z.boolean()),
  }),
);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

/** Default per-call timeout (SPEC H1). */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Default limit of one connect attempt (handshake and catalog), across worker restarts. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
