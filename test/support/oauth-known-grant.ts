/**
 * A client registration and refresh token that outlive the authorization server's process, for
 * the upgrade fixture (B1, E10): the profile written by an earlier build holds a client the AS
 * registered and a sealed refresh token it issued, and the test that loads the profile starts a
 * new AS. oidc-provider keeps both in memory only, so the values are fixed instead: while the
 * fixture is written, dynamic registration assigns `clientId` and the first refresh token issued
 * is `refreshToken`; when it is loaded (`stored`), the AS starts already holding that client and
 * a grant behind that refresh token, as if its database had been kept. Nothing else changes:
 * every other token is still refused, and the known one is consumed (rotated) on first use.
 */
import type Provider from 'oidc-provider';

export interface KnownGrant {
  clientId: string;
  redirectUri: string;
  refreshToken: string;
  /** The AS starts holding the client and the refresh token (loading the fixture), instead of issuing them (writing it). */
  stored?: boolean;
}

/** The account the test AS signs every user in as. */
const ACCOUNT = 'alice';

/** What the extension asks for and the writing AS grants: the resource scope, with `offline_access`. */
const OFFLINE = 'offline_access';

/** The writing AS: the first refresh token it issues carries the known value; later ones are random. */
function issueKnownRefreshToken(provider: Provider, value: string) {
  const proto = provider.RefreshToken.prototype;
  // An own method shadows the inherited random one once; removing it brings that one back.
  proto.generateTokenId = () => {
    Reflect.deleteProperty(proto, 'generateTokenId');
    return value;
  };
}

/** The loading AS: the registered public client, its grant and the (not yet used) refresh token. */
async function storeKnownGrant(provider: Provider, known: KnownGrant, resource: string, scope: string) {
  await provider.Client.adapter.upsert(known.clientId, {
    client_id: known.clientId,
    redirect_uris: [known.redirectUri],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
  const grant = new provider.Grant({ accountId: ACCOUNT, clientId: known.clientId });
  grant.addOIDCScope(OFFLINE);
  grant.addResourceScope(resource, scope);
  const grantId = await grant.save();
  const now = Math.floor(Date.now() / 1000);
  const token = new provider.RefreshToken({
    jti: known.refreshToken,
    accountId: ACCOUNT,
    clientId: known.clientId,
    grantId,
    gty: 'authorization_code',
    scope: `${OFFLINE} ${scope}`,
    resource,
    expiresWithSession: false,
    iat: now,
    exp: now + 24 * 3600,
  });
  await token.save();
}

/** Applies `known` to a provider before it serves any request. */
export async function applyKnownGrant(provider: Provider, known: KnownGrant, resource: string, scope: string): Promise<void> {
  if (known.stored) await storeKnownGrant(provider, known, resource, scope);
  else issueKnownRefreshToken(provider, known.refreshToken);
}
