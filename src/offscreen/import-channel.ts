/**
 * The offscreen side of import validation (SPEC B3): opens the fixed import Port to the
 * worker and answers each preview request with `parseImport`'s result plus the digests the
 * worker checks. The document is the SDK host, so parsing a hostile paste here keeps it out of
 * the worker; the worker still re-validates everything it gets back.
 */
import { canonicalJson, digest } from '../import/import-schema.js';
import { parseImport } from '../import/parse-import.js';
import { IMPORT_PORT, ImportChannelRequestSchema, importInput, type ImportChannelReply } from '../protocol/import-channel.js';

export function startImportChannel(): chrome.runtime.Port {
  const port = chrome.runtime.connect({ name: IMPORT_PORT });
  port.onMessage.addListener((message: unknown) => {
    const request = ImportChannelRequestSchema.safeParse(message);
    if (!request.success) return;
    void answer(request.data.id, request.data.text, request.data.existing).then(
      (reply) => port.postMessage(reply),
      (e) => console.error('[offscreen] import preview failed', e),
    );
  });
  return port;
}

/** Exported for tests: the reply for one request, digests included. */
export async function answer(id: number, text: string, existing: { name: string; url: string }[]): Promise<ImportChannelReply> {
  const inputDigest = await digest(canonicalJson(importInput(text, existing)));
  const preview = parseImport(text, existing);
  const previewDigest = await digest(canonicalJson(preview));
  return { kind: 'import:preview-result', id, inputDigest, previewDigest, preview };
}
