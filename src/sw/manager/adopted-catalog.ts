/**
 * The list a new worker instance commits for one category of a session it adopts (SPEC C6, C7).
 * An earlier instance handed the document what it made of the listing (`offscreen:keep-checked`):
 * the items as its checks left them (N8), their warnings and each item's definition hash (S2).
 * Those are taken as they are, so a wake neither checks nor hashes the catalog again; the
 * document is this extension's own page, fenced to this worker, and hands back what a worker of
 * the same build gave it. Without them, the document's own listing is checked like any listing.
 */
import type { HeldSession } from '../../protocol/offscreen.js';
import type { McpServerConfig } from '../../storage/config-schema.js';
import type { CatalogCategory } from './catalog-generations.js';
import type { ToCommit } from './catalog-mirror.js';
import { adoptHashes, pinCategoryOf } from './pin-definitions.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function adoptedList(config: McpServerConfig, held: HeldSession, category: CatalogCategory): ToCommit {
  const number = held.listings?.[category];
  const listing = number === undefined ? {} : { listing: { connectionId: held.connectionId, listing: number } };
  const checked = held.checked?.[category];
  if (checked && checked.listing === number && checked.items.length === checked.hashes.length && checked.items.every(isRecord)) {
    adoptHashes(category, checked.items, checked.hashes, config.pins?.[pinCategoryOf(category)]);
    return { ok: true, items: checked.items, checked: { warnings: checked.warnings }, ...listing };
  }
  return { ok: true, items: held.catalog[category] ?? [], ...listing };
}
