/**
 * The dedicated channel for import validation (SPEC B3). The offscreen document opens a Port
 * named {@link IMPORT_PORT} to the worker; the worker accepts it only from this extension's
 * exact offscreen URL. The worker sends the pasted text with the saved servers it must be
 * compared against and a digest of that input; the offscreen document answers with the preview,
 * the digest of the input as *it* received it, and the digest of the preview it computed.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { MAX_INPUT_BYTES } from '../import/limits.js';

export const IMPORT_PORT = 'mcp-import-validation';
/**
 * A worker that needs the import Port and has none sends this (`chrome.runtime.sendMessage`): a
 * document that outlived the worker which had its Port opens a new one to this worker (SPEC B3, C7).
 */
export const IMPORT_RECONNECT = 'import:reconnect';

const hex = lazySchema(() => z.string().check(z.regex(/^[0-9a-f]{64}$/)));

const ImportExistingSchema = lazySchema(() =>
  z.array(z.object({ name: z.string().check(z.maxLength(200)), url: z.string().check(z.maxLength(4096)) })).check(z.maxLength(1000)),
);

export const ImportChannelRequestSchema = lazySchema(() =>
  z.object({
    kind: z.literal('import:preview'),
    id: z.number().check(z.int(), z.gte(0)),
    text: z.string().check(z.maxLength(MAX_INPUT_BYTES)),
    existing: ImportExistingSchema,
    inputDigest: hex,
  }),
);

/** The preview stays `unknown` here: the worker validates it with `ImportPreviewSchema` itself. */
export const ImportChannelReplySchema = lazySchema(() =>
  z.object({
    kind: z.literal('import:preview-result'),
    id: z.number().check(z.int(), z.gte(0)),
    inputDigest: hex,
    previewDigest: hex,
    preview: z.unknown(),
  }),
);
export type ImportChannelReply = z.infer<typeof ImportChannelReplySchema>;

/** What both sides digest as "the input": the text and the servers it was checked against. */
export function importInput(text: string, existing: readonly { name: string; url: string }[]): unknown {
  return { text, existing: existing.map((s) => ({ name: s.name, url: s.url })) };
}
