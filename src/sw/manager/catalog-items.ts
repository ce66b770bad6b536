/**
 * Validates a catalog list item by item (SPEC D1, N8). The whole list is never accepted or
 * refused as one: a server with one malformed or oversized entry keeps the rest of its catalog,
 * and what was trimmed or left out is said in a visible warning. Tools first pass the catalog
 * limits (names, description length, schema size, count, duplicates), then the wire schema.
 */
import * as z from 'zod/mini';
import { PromptSchema, ResourceSchema, ResourceTemplateSchema, ToolSchema } from '../../protocol/mcp-shapes.js';
import type { CatalogCategory } from './catalog-generations.js';
import { sanitizeTools } from './catalog-limits.js';
import { say, type ReasonCode, type Said } from '../../protocol/wording.js';

const SCHEMAS: Record<CatalogCategory, z.ZodMiniType> = {
  tools: ToolSchema,
  prompts: PromptSchema,
  resources: ResourceSchema,
  resourceTemplates: ResourceTemplateSchema,
};

const DROPPED: Record<CatalogCategory, ReasonCode & `reasonDropped${string}`> = {
  tools: 'reasonDroppedTools',
  prompts: 'reasonDroppedPrompts',
  resources: 'reasonDroppedResources',
  resourceTemplates: 'reasonDroppedTemplates',
};

export function checkCatalogItems(category: CatalogCategory, raw: readonly unknown[]): { items: unknown[]; warnings: Said[] } {
  const warnings: Said[] = [];
  let candidates: readonly unknown[] = raw;
  if (category === 'tools') {
    const sanitized = sanitizeTools(raw);
    candidates = sanitized.tools;
    warnings.push(...sanitized.warnings);
  }
  const items: unknown[] = [];
  let dropped = 0;
  for (const item of candidates) {
    const parsed = SCHEMAS[category].safeParse(item);
    if (parsed.success) items.push(parsed.data);
    else dropped++;
  }
  if (dropped > 0) warnings.push(say(DROPPED[category], { count: dropped }));
  return { items, warnings };
}
