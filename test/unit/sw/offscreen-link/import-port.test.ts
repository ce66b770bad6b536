import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IMPORT_PORT } from '../../../../src/protocol/import-channel.js';

const ID = 'pfeobelfcgjanfpdlgcphpfjpmbjcenn';
const OFFSCREEN = `chrome-extension://${ID}/offscreen.html`;

(globalThis as unknown as { chrome: unknown }).chrome = {
  runtime: { id: ID, getURL: (path: string) => `chrome-extension://${ID}/${path}` },
};
const { ImportChannel } = await import('../../../../src/sw/offscreen-link/import-channel.js');
const acceptImportPort = (port: chrome.runtime.Port) => new ImportChannel(async () => undefined).accept(port);

function fakePort(name: string, sender: { id?: string; url?: string }) {
  const port = {
    name,
    sender,
    disconnected: false,
    disconnect() {
      port.disconnected = true;
    },
    onMessage: { addListener() {} },
    onDisconnect: { addListener() {} },
  };
  return port;
}

describe('import Port sender check (SPEC B3)', () => {
  it('ignores Ports with another name', () => {
    const port = fakePort('mcp-panel', { id: ID, url: OFFSCREEN });
    assert.equal(acceptImportPort(port as never), false);
    assert.equal(port.disconnected, false);
  });

  for (const [what, sender] of [
    ['another extension', { id: 'x'.repeat(32), url: OFFSCREEN }],
    ['another page of this extension', { id: ID, url: `chrome-extension://${ID}/sidepanel.html` }],
    ['the offscreen URL with a query', { id: ID, url: `${OFFSCREEN}?x=1` }],
    ['no sender URL', { id: ID }],
  ] as const) {
    it(`refuses the import Port from ${what}`, () => {
      const port = fakePort(IMPORT_PORT, sender);
      assert.equal(acceptImportPort(port as never), true);
      assert.equal(port.disconnected, true);
    });
  }

  it('keeps the import Port from the exact offscreen document', () => {
    const port = fakePort(IMPORT_PORT, { id: ID, url: OFFSCREEN });
    assert.equal(acceptImportPort(port as never), true);
    assert.equal(port.disconnected, false);
  });
});
