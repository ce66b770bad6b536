/**
 * Panel ↔ worker messages of the server directory (SPEC S1): the registry base URL the user
 * chose (or the official MCP Registry), and one page of a registry search. The worker fetches and
 * validates (src/sw/directory/); what crosses here is already bounded text, and the panel checks
 * it against these schemas again on receipt.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { WordingSchema } from './wording.js';

/** The registry a new install searches: the official MCP Registry's public API. */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** Bounds of what one page may carry (the registry's own `limit` maximum is 100). */
export const DIRECTORY_LIMITS = {
  entries: 100,
  remotes: 8,
  headers: 16,
  notes: 8,
  name: 200,
  title: 200,
  description: 1000,
  version: 64,
  url: 2048,
  headerName: 128,
  headerText: 500,
  cursor: 1024,
  search: 200,
} as const;

const text = (max: number) => z.string().check(z.maxLength(max));
const L = DIRECTORY_LIMITS;

/** A header a remote declares: its value is typed by the user and sent only to that server. */
const DirectoryHeaderSchema = lazySchema(() =>
  z.object({
    name: text(L.headerName),
    description: z.optional(text(L.headerText)),
    placeholder: z.optional(text(L.headerText)),
    required: z.boolean(),
    secret: z.boolean(),
  }),
);

/** A Streamable HTTP endpoint of an entry, its URL checked (HTTPS or loopback). */
const DirectoryRemoteSchema = lazySchema(() =>
  z.object({ url: text(L.url), headers: z.array(DirectoryHeaderSchema).check(z.maxLength(L.headers)) }),
);

/** English text and its code for the panel to translate (protocol/wording.ts). */
const SaidSchema = lazySchema(() => z.object({ message: text(4096), wording: WordingSchema }));

export const DirectoryEntrySchema = lazySchema(() =>
  z.object({
    name: text(L.name),
    title: z.optional(text(L.title)),
    description: z.optional(text(L.description)),
    version: z.optional(text(L.version)),
    repository: z.optional(text(L.url)),
    websiteUrl: z.optional(text(L.url)),
    /** Only `streamable-http` remotes with an allowed URL; empty when the entry is not usable here. */
    remotes: z.array(DirectoryRemoteSchema).check(z.maxLength(L.remotes)),
    /** Why the entry cannot be added from a browser (only packages, only SSE, no usable URL). */
    unusable: z.optional(SaidSchema),
    /** What was left out of the entry (a `javascript:` URL, an SSE remote, a bad header name). */
    notes: z.array(SaidSchema).check(z.maxLength(L.notes)),
  }),
);
export type DirectoryEntry = z.infer<typeof DirectoryEntrySchema>;

const RegistrySettingsSchema = lazySchema(() => z.object({ registryUrl: text(L.url), isDefault: z.boolean() }));

export const DirectoryPageSchema = lazySchema(() =>
  z.object({
    registryUrl: text(L.url),
    entries: z.array(DirectoryEntrySchema).check(z.maxLength(L.entries)),
    nextCursor: z.optional(text(L.cursor)),
    /** Entries left out of this page (not an object, no name, past the page bound). */
    dropped: z.number().check(z.int(), z.gte(0)),
  }),
);
export type DirectoryPage = z.infer<typeof DirectoryPageSchema>;

export const DirectoryPanelRequestSchemas = {
  'panel:directory-settings': lazySchema(() => z.object({})),
  /** An empty `registryUrl` goes back to the official registry. */
  'panel:directory-set-registry': lazySchema(() => z.object({ registryUrl: text(L.url) })),
  'panel:directory-search': lazySchema(() => z.object({ search: text(L.search), cursor: z.optional(text(L.cursor)) })),
} as const;

export const DirectoryPanelResponseSchemas = {
  'panel:directory-settings': RegistrySettingsSchema,
  'panel:directory-set-registry': RegistrySettingsSchema,
  'panel:directory-search': DirectoryPageSchema,
} as const;
