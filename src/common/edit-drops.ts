/**
 * What editing a saved server loses, computed the same way by the panel (to say it before
 * saving) and by the worker (which refuses an unconfirmed loss). Disabled tools always stay;
 * "always allow" grants are tied to the exact URL (approval-store.ts); OAuth tokens and a
 * registered client belong to one resource and one client (SPEC E10).
 */
import { canonicalUrl } from './url-rules.js';

export type EditDrop = 'authorization' | 'approvals' | 'token' | 'client-secret';

export interface EditBefore {
  url: string;
  authKind: 'none' | 'bearer' | 'oauth';
  clientId?: string | undefined;
  hasClientSecret: boolean;
  clientMetadataUrl?: string | undefined;
  authorized: boolean;
  alwaysGrants: number;
}

export interface EditAfter {
  url: string;
  authKind: 'none' | 'bearer' | 'oauth';
  clientId?: string | undefined;
  /** A new client secret was typed. */
  newClientSecret: boolean;
  removeClientSecret: boolean;
  clientMetadataUrl?: string | undefined;
}

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

export function originChanged(before: string, after: string): boolean {
  return originOf(before) !== originOf(after);
}

/** Whether the stored OAuth tokens and client stop applying (another resource or client). */
export function oauthBindingChanged(before: EditBefore, after: EditAfter): boolean {
  if (before.authKind !== 'oauth') return false;
  return (
    after.authKind !== 'oauth' ||
    canonicalUrl(before.url) !== canonicalUrl(after.url) ||
    (before.clientId ?? '') !== (after.clientId ?? '') ||
    after.newClientSecret ||
    after.removeClientSecret ||
    (before.clientMetadataUrl ?? '') !== (after.clientMetadataUrl ?? '')
  );
}

export function editDrops(before: EditBefore, after: EditAfter): EditDrop[] {
  const drops: EditDrop[] = [];
  if (before.authorized && oauthBindingChanged(before, after)) drops.push('authorization');
  if (before.alwaysGrants > 0 && before.url !== after.url) drops.push('approvals');
  if (before.authKind === 'bearer' && after.authKind !== 'bearer') drops.push('token');
  if (
    before.authKind === 'oauth' &&
    before.hasClientSecret &&
    (after.authKind !== 'oauth' || after.removeClientSecret || (before.clientId ?? '') !== (after.clientId ?? '')) &&
    !after.newClientSecret
  )
    drops.push('client-secret');
  return drops;
}
