/**
 * What a pin is made of (SPEC S2): one catalog item's definition as a SHA-256 of its canonical
 * JSON (everything the user, the model or a view acts on: name, title, description, schemas,
 * annotations, `_meta.ui`) and as a bounded text a diff can show, line by line. Pure: the manager
 * pins on every committed listing, the panel handlers accept from what is stored.
 */
import { canonicalJson } from '../../common/canonical-json.js';
import { sha256Hex } from '../../common/sha256.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../../protocol/mcp-shapes.js';
import { MAX_PIN_TEXT, type Pin, type PinCategory, type PinHints, type PinnedDefinition } from '../../storage/pin-schema.js';

/** A catalog category as it is pinned: resource templates are pinned with the resources. */
export type ListedCategory = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

export const pinCategoryOf = (category: ListedCategory): PinCategory => (category === 'resourceTemplates' ? 'resources' : category);

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
export type HintName = (typeof HINTS)[number];
export const HINT_NAMES: readonly HintName[] = HINTS;

/** Pretty JSON with sorted keys: the same value always gives the same lines. */
function prettyJson(value: unknown): string {
  return JSON.stringify(JSON.parse(canonicalJson(value, Infinity)), null, 2);
}

/**
 * The parts of an item that make its definition, by category, in the order the text shows them,
 * labelled by their wire names: like the JSON keys around them they are not words to translate.
 */
function partsOf(category: ListedCategory, item: Record<string, unknown>): [string, unknown][] {
  if (category === 'tools') {
    const tool = item as Tool;
    const ui = (tool._meta as { ui?: unknown } | undefined)?.ui;
    return [
      ['title', tool.title],
      ['description', tool.description],
      ['annotations', tool.annotations],
      ['inputSchema', tool.inputSchema],
      ['outputSchema', tool.outputSchema],
      ['_meta.ui', ui],
    ];
  }
  if (category === 'prompts') {
    const prompt = item as Prompt;
    return [
      ['title', prompt.title],
      ['description', prompt.description],
      ['arguments', prompt.arguments],
    ];
  }
  const resource = item as Resource & ResourceTemplate;
  return [
    ['name', resource.name],
    ['title', resource.title],
    ['description', resource.description],
    ['mimeType', resource.mimeType],
  ];
}

/** The key an item is pinned under: its name, or a resource's URI (template). */
export function pinNameOf(category: ListedCategory, item: Record<string, unknown>): string {
  if (category === 'resources') return String((item as Resource).uri);
  if (category === 'resourceTemplates') return String((item as ResourceTemplate).uriTemplate);
  return String(item['name']);
}

/** The definition as lines: strings verbatim under their heading, JSON pretty-printed. */
function textOf(parts: readonly [string, unknown][]): string {
  const blocks = parts
    .filter(([, v]) => v !== undefined)
    .map(([label, v]) => (typeof v === 'string' ? `${label}:\n${v}` : `${label}:\n${prettyJson(v)}`));
  const text = blocks.join('\n');
  return text.length <= MAX_PIN_TEXT ? text : `${text.slice(0, MAX_PIN_TEXT)}\n[… ${text.length - MAX_PIN_TEXT} more characters not kept]`;
}

function hintsOf(category: ListedCategory, item: Record<string, unknown>): PinHints | undefined {
  if (category !== 'tools') return undefined;
  const annotations = (item as Tool).annotations;
  if (!annotations) return undefined;
  const hints: PinHints = {};
  for (const h of HINTS) if (typeof annotations[h] === 'boolean') hints[h] = annotations[h];
  return Object.keys(hints).length > 0 ? hints : undefined;
}

/** Definitions by catalog item: items are never mutated, only replaced, and lists are compared often. */
const computed = new WeakMap<object, PinnedDefinition>();

/** The item's pinned definition: its hash (of everything) and its bounded text and hints. */
export function definitionOf(category: ListedCategory, item: Record<string, unknown>): PinnedDefinition {
  let def = computed.get(item);
  if (!def) computed.set(item, (def = computeDefinition(category, item)));
  return def;
}

/**
 * Takes the hashes an earlier worker instance computed for these items (kept by the document with
 * the adopted catalog, in the same order) as their definitions, instead of hashing them again on a
 * wake. Only a hash equal to the item's pin, or to its noted change, is taken: then no listing
 * step needs the text, and every other item is hashed from its content as always (S2).
 */
export function adoptHashes(
  category: ListedCategory,
  items: readonly Record<string, unknown>[],
  hashes: readonly string[],
  pins: readonly Pin[] | undefined,
): void {
  if (!pins?.length || hashes.length !== items.length) return;
  const byName = new Map(pins.map((p) => [p.name, p]));
  items.forEach((item, i) => {
    const pin = byName.get(pinNameOf(category, item));
    const hash = hashes[i]!;
    if (pin && (pin.hash === hash || pin.changed?.hash === hash) && !computed.has(item)) computed.set(item, { hash });
  });
}

function computeDefinition(category: ListedCategory, item: Record<string, unknown>): PinnedDefinition {
  const parts = partsOf(category, item);
  const hash = sha256Hex(canonicalJson([pinNameOf(category, item), Object.fromEntries(parts)], Infinity));
  const hints = hintsOf(category, item);
  return { hash, text: textOf(parts), ...(hints ? { hints } : {}) };
}
