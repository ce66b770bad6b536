/**
 * Which authorization-server origin the panel must ask Chrome for before authorizing (SPEC L1),
 * learned from the MCP server's protected-resource metadata.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeNet } from '../auth/fake-net.js';
import { missingAuthOrigins } from '../../../../src/sw/chrome/as-permission.js';

const MCP = 'https://mcp.example.com/mcp';
const PRM = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

function ports(net: FakeNet, granted: string[]) {
  const asked: string[][] = [];
  return {
    asked,
    ports: {
      fetch: net.fetch,
      contains: async (origins: string[]) => {
        asked.push(origins);
        return origins.every((o) => granted.includes(o));
      },
    },
  };
}

test('an authorization server on another origin that is not granted is reported as missing', async () => {
  const net = new FakeNet().on(PRM, { resource: MCP, authorization_servers: ['https://login.example.org/tenant'] });
  const { ports: p, asked } = ports(net, ['https://mcp.example.com/*']);
  assert.deepEqual(await missingAuthOrigins(p, MCP), ['https://login.example.org/*']);
  assert.deepEqual(asked, [['https://login.example.org/*']]);
  assert.deepEqual(net.urls(), [PRM], 'only the MCP origin was contacted');
});

test('nothing is missing when the AS origin is granted or is the MCP origin itself', async () => {
  const net = new FakeNet().on(PRM, { resource: MCP, authorization_servers: ['https://login.example.org'] });
  assert.deepEqual(await missingAuthOrigins(ports(net, ['https://login.example.org/*']).ports, MCP), []);
  const same = new FakeNet().on(PRM, { resource: MCP, authorization_servers: ['https://mcp.example.com'] });
  const { ports: p, asked } = ports(same, []);
  assert.deepEqual(await missingAuthOrigins(p, MCP), []);
  assert.deepEqual(asked, []);
});

test('no PRM or several authorization servers: nothing is guessed, the authorization reports it', async () => {
  assert.deepEqual(await missingAuthOrigins(ports(new FakeNet(), []).ports, MCP), []);
  const several = new FakeNet().on(PRM, { resource: MCP, authorization_servers: ['https://a.example.org', 'https://b.example.org'] });
  assert.deepEqual(await missingAuthOrigins(ports(several, []).ports, MCP), []);
  assert.deepEqual(
    await missingAuthOrigins(ports(several, []).ports, MCP, 'https://b.example.org'),
    ['https://b.example.org/*'],
    'the bound issuer is the one used',
  );
});
