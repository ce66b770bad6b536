/**
 * The offscreen side of import validation (SPEC B3): opens the fixed import Port to the
 * worker and answers each preview request with `parseImport`'s result plus the digests the
 * worker checks. The document is the SDK host, so parsing a hostile paste here keeps it out of
 * the worker; the worker still re-validates everything it gets back.
 *
 * The document outlives the worker (C7): the Port it opened at load dies with the worker that
 * took it, so a later worker that needs one asks (`IMPORT_RECONNECT`) and gets a new Port. The
 * document never reopens one on its own: a Port it opened on a drop would wake a stopped worker.
 */
import { canonicalJson, digest } from '../import/import-schema.js';
import { parseImport } from '../import/parse-import.js';
import {
  IMPORT_PORT,
  IMPORT_RECONNECT,
  ImportChannelRequestSchema,
  importInput,
  type ImportChannelReply,
} from '../protocol/import-channel.js';
import type { HostRuntime } from './host.js';

/** Opens the import Port now, and a new one whenever a worker asks while none is open. */
export function startImportChannel(runtime: HostRuntime = chrome.runtime): void {
  let current: chrome.runtime.Port | undefined;
  const open = () => {
    const port = runtime.connect({ name: IMPORT_PORT });
    current = port;
    port.onDisconnect.addListener(() => {
      if (current === port) current = undefined;
    });
    port.onMessage.addListener((message: unknown) => answerOn(port, message));
  };
  runtime.onMessage?.addListener((message, sender) => {
    // Only when none is open: a second Port would replace the one a request may already be on.
    if (sender.id === runtime.id && (message as { type?: unknown } | null)?.type === IMPORT_RECONNECT && !current) open();
  });
  open();
}

function answerOn(port: chrome.runtime.Port, message: unknown) {
  const request = ImportChannelRequestSchema.safeParse(message);
  if (!request.success) return;
  void answer(request.data.id, request.data.text, request.data.existing).then(
    (reply) => {
      // The worker that asked may have stopped meanwhile: its Port is gone, and so is the question.
      try {
        port.postMessage(reply);
      } catch {
        // Nobody left to answer.
      }
    },
    (e) => console.error('[offscreen] import preview failed', e),
  );
}

/** Exported for tests: the reply for one request, digests included. */
export async function answer(id: number, text: string, existing: { name: string; url: string }[]): Promise<ImportChannelReply> {
  const inputDigest = await digest(canonicalJson(importInput(text, existing)));
  const preview = parseImport(text, existing);
  const previewDigest = await digest(canonicalJson(preview));
  return { kind: 'import:preview-result', id, inputDigest, previewDigest, preview };
}
