import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editDrops, originChanged, type EditAfter, type EditBefore } from '../../../src/common/edit-drops.js';

const oauth: EditBefore = {
  url: 'https://mcp.example.com/mcp',
  authKind: 'oauth',
  clientId: 'client',
  hasClientSecret: true,
  authorized: true,
  alwaysGrants: 2,
};
const same: EditAfter = { url: oauth.url, authKind: 'oauth', clientId: 'client', newClientSecret: false, removeClientSecret: false };

test('an edit that keeps the URL and the auth binding drops nothing (a rename, scopes, a timeout)', () => {
  assert.deepEqual(editDrops(oauth, same), []);
  assert.deepEqual(editDrops({ ...oauth, authKind: 'bearer' }, { ...same, authKind: 'bearer' }), []);
});

test('another URL drops the approvals and the authorization; another client drops the authorization', () => {
  assert.deepEqual(editDrops(oauth, { ...same, url: 'https://mcp.example.com/v2/mcp' }), ['authorization', 'approvals']);
  assert.deepEqual(editDrops(oauth, { ...same, clientId: 'other' }), ['authorization', 'client-secret']);
  assert.deepEqual(editDrops(oauth, { ...same, clientId: 'other', newClientSecret: true }), ['authorization']);
  assert.deepEqual(editDrops(oauth, { ...same, clientMetadataUrl: 'https://app.example.com/c.json' }), ['authorization']);
  // A trailing slash is the same resource, but grants are tied to the exact URL.
  assert.deepEqual(editDrops(oauth, { ...same, url: 'https://mcp.example.com/mcp/' }), ['approvals']);
});

test('leaving OAuth or bearer says what is lost; nothing is said about authorization never given', () => {
  assert.deepEqual(editDrops(oauth, { ...same, authKind: 'none' }), ['authorization', 'client-secret']);
  assert.deepEqual(editDrops({ ...oauth, authorized: false, hasClientSecret: false }, { ...same, authKind: 'none' }), []);
  assert.deepEqual(editDrops({ ...oauth, authKind: 'bearer', alwaysGrants: 0 }, { ...same, authKind: 'none' }), ['token']);
});

test('origins compare scheme, host and port', () => {
  assert.equal(originChanged('https://a.example.com/x', 'https://a.example.com/y'), false);
  assert.equal(originChanged('https://a.example.com/x', 'https://a.example.com:8443/x'), true);
  assert.equal(originChanged('https://a.example.com/x', 'https://b.example.com/x'), true);
});
