/**
 * Server ids end up inside tool names (`mcp__{id}__{tool}`, SPEC G1), so they must be short,
 * stable and made of `[a-z0-9_-]` only (B5). They are derived once from the name and never
 * change on rename, or tool names the agent already knows would break.
 */

const MAX_SLUG_LENGTH = 32;
const FALLBACK = 'server';

export function slugify(name: string, existingIds: Iterable<string> = []): string {
  const taken = new Set(existingIds);
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^[-_]+|[-_]+$/g, '')
      .slice(0, MAX_SLUG_LENGTH)
      .replace(/[-_]+$/, '') || FALLBACK;
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/[-_]+$/, '') + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}
