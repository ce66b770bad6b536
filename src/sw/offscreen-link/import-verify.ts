/**
 * The worker's check of an import preview received from the offscreen document (SPEC B3).
 * Nothing in the reply is taken on trust: the input digest must equal the one the worker
 * computed before sending, the preview must pass `ImportPreviewSchema`, and the digest of the
 * *validated* preview must equal the digest the offscreen document computed — so a reply that
 * was altered, truncated, or carried extra fields the schema would strip is rejected.
 */
import { canonicalJson, digest, ImportPreviewSchema, type ImportPreview } from '../../import/import-schema.js';
import { ImportChannelReplySchema } from '../../protocol/import-channel.js';
import { RemoteError } from '../../protocol/result.js';

class ImportIntegrityError extends RemoteError {
  constructor(message: string) {
    super({ code: 'import-integrity', message: `The import check failed: ${message}. Nothing was imported; try again.`, action: 'retry' });
  }
}

export async function verifyImportReply(expectedInputDigest: string, expectedId: number, raw: unknown): Promise<ImportPreview> {
  const reply = ImportChannelReplySchema.safeParse(raw);
  if (!reply.success) throw new ImportIntegrityError('the reply is malformed');
  if (reply.data.id !== expectedId) throw new ImportIntegrityError('the reply answers another request');
  if (reply.data.inputDigest !== expectedInputDigest) throw new ImportIntegrityError('the input was changed on the way');
  const preview = ImportPreviewSchema.safeParse(reply.data.preview);
  if (!preview.success) throw new ImportIntegrityError('the preview is not valid');
  if ((await digest(canonicalJson(preview.data))) !== reply.data.previewDigest)
    throw new ImportIntegrityError('the preview does not match its digest');
  return preview.data;
}
