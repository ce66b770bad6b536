import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalJson, digest } from '../../../../src/import/import-schema.js';
import { answer } from '../../../../src/offscreen/import-channel.js';
import { importInput } from '../../../../src/protocol/import-channel.js';
import { verifyImportReply } from '../../../../src/sw/offscreen-link/import-verify.js';

const text = JSON.stringify({ mcpServers: { demo: { url: 'http://127.0.0.1:3939/mcp' }, local: { command: 'npx' } } });
const existing = [{ name: 'Other', url: 'https://other.example.com/mcp' }];

async function sentDigest(t = text, e = existing) {
  return digest(canonicalJson(importInput(t, e)));
}

describe('import validation channel (SPEC B3)', () => {
  it('accepts an untouched reply from the offscreen side and returns its preview', async () => {
    const reply = await answer(7, text, existing);
    const preview = await verifyImportReply(await sentDigest(), 7, structuredClone(reply));
    assert.equal(preview.dialect, 'cursor');
    assert.deepEqual(
      preview.entries.map((e) => `${e.name}:${e.status}`),
      ['demo:add', 'local:skip'],
    );
  });

  it('rejects a reply computed from different input than the worker sent', async () => {
    const reply = await answer(1, text.replace('3939', '4000'), existing);
    await assert.rejects(verifyImportReply(await sentDigest(), 1, reply), /input was changed/);
    const other = await answer(1, text, []);
    await assert.rejects(verifyImportReply(await sentDigest(), 1, other), /input was changed/);
  });

  it('rejects a preview altered after its digest was computed', async () => {
    const reply = await answer(1, text, existing);
    const tampered = structuredClone(reply) as typeof reply & { preview: { entries: { status: string }[] } };
    tampered.preview.entries[1]!.status = 'add';
    await assert.rejects(verifyImportReply(await sentDigest(), 1, tampered), /does not match its digest/);
  });

  it('rejects a preview with fields the schema does not allow, even with a matching digest', async () => {
    const reply = await answer(1, text, existing);
    const preview = { ...(reply.preview as object), smuggled: true };
    const forged = { ...reply, preview, previewDigest: await digest(canonicalJson(preview)) };
    await assert.rejects(verifyImportReply(await sentDigest(), 1, forged), /preview is not valid/);
  });

  it('rejects a malformed reply and a reply to another request', async () => {
    await assert.rejects(verifyImportReply(await sentDigest(), 1, { kind: 'import:preview-result' }), /malformed/);
    const reply = await answer(2, text, existing);
    await assert.rejects(verifyImportReply(await sentDigest(), 1, reply), /another request/);
  });
});
