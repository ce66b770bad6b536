/**
 * The shape of an import preview, as a zod/mini schema. The preview is computed in the
 * offscreen document and crosses a Port to the service worker (SPEC B3); the worker validates
 * it again here rather than trusting the other context, and compares digests of the canonical
 * JSON on both sides so a tampered or truncated message is rejected.
 *
 * The TypeScript types of the preview are inferred from this schema so the parser and the
 * validator cannot disagree.
 */
import { WordingSchema } from '../protocol/wording.js';
import { PinsSchema } from '../storage/pin-schema.js';
import * as z from 'zod/mini';
import { lazySchema } from '../protocol/lazy-schema.js';
import {
  MAX_ENTRIES,
  MAX_ERRORS,
  MAX_HEADER_NAME_LENGTH,
  MAX_HEADER_VALUE_LENGTH,
  MAX_HEADERS,
  MAX_NAME_LENGTH,
  MAX_PLACEHOLDERS,
  MAX_TIMEOUT_MS,
  MAX_TOOL_NAME_LENGTH,
  MAX_TOOLS,
  MAX_URL_LENGTH,
  MIN_TIMEOUT_MS,
} from './limits.js';

const boundedString = (max: number) => z.string().check(z.maxLength(max));
const toolList = lazySchema(() => z.array(boundedString(MAX_TOOL_NAME_LENGTH)).check(z.maxLength(MAX_TOOLS)));

export const HEADER_NAME_PATTERN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

const ImportHeaderSchema = lazySchema(() =>
  z.strictObject({
    name: z.string().check(z.minLength(1), z.maxLength(MAX_HEADER_NAME_LENGTH), z.regex(HEADER_NAME_PATTERN)),
    value: boundedString(MAX_HEADER_VALUE_LENGTH),
  }),
);
export type ImportHeader = z.infer<typeof ImportHeaderSchema>;

/**
 * A value the pasted config expected its host tool to supply (an environment variable, a VS Code
 * input, or a secret our own export leaves out). The panel shows it as a field to fill; the
 * literal `token` is never imported.
 */
const PlaceholderSchema = lazySchema(() =>
  z.strictObject({
    /** Where it occurs: `url`, `bearerToken` or `header:<Name>`. */
    field: boundedString(MAX_HEADER_NAME_LENGTH + 16),
    /** The exact text to replace, e.g. `${GITHUB_TOKEN}`; the key of `applyPlaceholders` values. */
    token: z.string().check(z.minLength(2), z.maxLength(600)),
    label: boundedString(600),
    secret: z.boolean(),
    /** From `${VAR:-default}`: prefilled, used when the user leaves the field alone. */
    defaultValue: z.optional(boundedString(MAX_HEADER_VALUE_LENGTH)),
  }),
);
export type Placeholder = z.infer<typeof PlaceholderSchema>;

const ImportStatusSchema = lazySchema(() => z.enum(['add', 'skip', 'conflict']));

const ImportEntrySchema = lazySchema(() =>
  z.strictObject({
    name: z.string().check(z.minLength(1), z.maxLength(MAX_NAME_LENGTH)),
    url: z.optional(boundedString(MAX_URL_LENGTH)),
    status: ImportStatusSchema,
    reason: z.optional(boundedString(500)),
    /** `reason` as a code + parameters, for the panel to say in the user's language. */
    reasonWording: WordingSchema,
    /** Name of the existing server this entry collides with (status `conflict`). */
    conflictWith: z.optional(boundedString(MAX_NAME_LENGTH)),
    /** Name of the saved (or earlier pasted) server on the same URL: this entry is another account of it (S3). */
    anotherAccountOf: z.optional(boundedString(MAX_NAME_LENGTH)),
    authKind: z.enum(['none', 'bearer', 'oauth']),
    bearerToken: z.optional(boundedString(MAX_HEADER_VALUE_LENGTH)),
    clientId: z.optional(boundedString(512)),
    scopes: z.optional(z.array(boundedString(256)).check(z.maxLength(64))),
    headers: z.array(ImportHeaderSchema).check(z.maxLength(MAX_HEADERS)),
    placeholders: z.array(PlaceholderSchema).check(z.maxLength(MAX_PLACEHOLDERS)),
    enabled: z.boolean(),
    disabledTools: toolList,
    /** Gemini `includeTools`: can only become `disabledTools` once the tool list is known. */
    includeTools: z.optional(toolList),
    timeoutMs: z.optional(z.number().check(z.int(), z.gte(MIN_TIMEOUT_MS), z.lte(MAX_TIMEOUT_MS))),
    connectOnStartup: z.boolean(),
    /** Pinned definitions and "review new tools", from our export (S2). */
    pins: z.optional(PinsSchema),
    reviewNewTools: z.optional(z.boolean()),
    /** Things the user should know that are not a reason to skip (clamped timeout, …). */
    notes: z.optional(z.array(boundedString(500)).check(z.maxLength(16))),
  }),
);
export type ImportEntry = z.infer<typeof ImportEntrySchema>;

const DialectSchema = lazySchema(() =>
  z.enum(['claude-code', 'cursor', 'vscode', 'windsurf', 'gemini', 'claude-desktop', 'server-map', 'single', 'list', 'export', 'unknown']),
);
export type Dialect = z.infer<typeof DialectSchema>;

export const ImportPreviewSchema = lazySchema(() =>
  z.strictObject({
    dialect: DialectSchema,
    entries: z.array(ImportEntrySchema).check(z.maxLength(MAX_ENTRIES)),
    errors: z.array(boundedString(1000)).check(z.maxLength(MAX_ERRORS)),
  }),
);
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

/** The digests' canonical text (B3); defined once, in src/common. */
export { canonicalJson } from '../common/canonical-json.js';

/** SHA-256 of the UTF-8 text as lowercase hex, for the B3 digest comparison. */
export async function digest(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
