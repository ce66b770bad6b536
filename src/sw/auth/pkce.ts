/**
 * PKCE (RFC 7636, S256 only) and `state` from WebCrypto, which exists both in the service
 * worker and in Node 20, so no polyfill is bundled.
 */
import type { RandomSource } from './ports.js';

export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** Base64url without padding (RFC 7636 appendix A). */
function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** 32 random bytes → a 43-character verifier (256 bits of entropy). */
export async function createPkce(random: RandomSource = crypto): Promise<Pkce> {
  const verifier = base64url(random.getRandomValues(new Uint8Array(32)));
  return { verifier, challenge: await s256(verifier), method: 'S256' };
}

/** BASE64URL(SHA-256(ASCII(verifier))). */
export async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** Unguessable `state` binding the callback to this request (CSRF, SPEC E2). */
export function randomState(random: RandomSource = crypto): string {
  return base64url(random.getRandomValues(new Uint8Array(24)));
}
