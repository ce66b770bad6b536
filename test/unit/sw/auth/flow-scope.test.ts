import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DiscoveryResult } from '../../../../src/sw/auth/discovery.js';
import { AuthorizationDeniedError, TokenError } from '../../../../src/sw/auth/errors.js';
import { flowScope, registersAgainForScope, type ReRegistration } from '../../../../src/sw/auth/flow-scope.js';

const discovery = (metadata: Record<string, unknown>, prmScopes?: string[]) =>
  ({
    metadata: { issuer: 'https://as.example', authorization_endpoint: 'a', token_endpoint: 't', ...metadata },
    ...(prmScopes ? { prm: { resource: 'https://mcp.example/', scopes_supported: prmScopes } } : {}),
  }) as unknown as Pick<DiscoveryResult, 'prm' | 'metadata'>;

describe('flowScope (SPEC E7)', () => {
  it('asks for what the challenge names, keeping what was granted', () => {
    const scope = flowScope({ challenge: { scope: 'write' }, granted: 'read', d: discovery({}, ['other']), auth: { scopes: ['mine'] } });
    assert.equal(scope, 'read write');
  });

  it('without a challenge: the PRM scopes win over the configured ones', () => {
    assert.equal(flowScope({ challenge: undefined, granted: undefined, d: discovery({}, ['prm']), auth: { scopes: ['mine'] } }), 'prm');
    assert.equal(flowScope({ challenge: undefined, granted: undefined, d: discovery({}), auth: { scopes: ['mine'] } }), 'mine');
  });

  it('adds offline_access only where the authorization server lists it', () => {
    const d = discovery({ scopes_supported: ['read', 'offline_access'] });
    assert.equal(flowScope({ challenge: { scope: 'read' }, granted: undefined, d, auth: {} }), 'read offline_access');
    assert.equal(flowScope({ challenge: { scope: 'read' }, granted: undefined, d: discovery({}), auth: {} }), 'read');
  });

  it('with nothing to ask for, omits the scope', () => {
    assert.equal(flowScope({ challenge: undefined, granted: undefined, d: discovery({}), auth: {} }), undefined);
  });
});

describe('registersAgainForScope (step-up with a registered client)', () => {
  const invalidScope = new AuthorizationDeniedError('The scope is not allowed.', 'https://mcp.example/', 'invalid_scope');
  const base: ReRegistration = {
    stepUp: true,
    storedRegistration: true,
    auth: {},
    d: discovery({ registration_endpoint: 'https://as.example/register' }),
  };

  it('a step-up refused invalid_scope for a client registered earlier registers again', () => {
    assert.equal(registersAgainForScope(invalidScope, base), true);
  });

  it('never for a first authorization, a fresh or a configured client, or an AS without registration', () => {
    assert.equal(registersAgainForScope(invalidScope, { ...base, stepUp: false }), false);
    assert.equal(registersAgainForScope(invalidScope, { ...base, storedRegistration: false }), false);
    assert.equal(registersAgainForScope(invalidScope, { ...base, auth: { clientId: 'configured' } }), false);
    assert.equal(registersAgainForScope(invalidScope, { ...base, d: discovery({}) }), false);
  });

  it('never for another refusal or another failure', () => {
    const denied = new AuthorizationDeniedError('No.', 'https://mcp.example/', 'access_denied');
    assert.equal(registersAgainForScope(denied, base), false);
    assert.equal(registersAgainForScope(new TokenError('Refused.', undefined, 'invalid_scope'), base), false);
    assert.equal(registersAgainForScope(new Error('invalid_scope'), base), false);
  });
});
