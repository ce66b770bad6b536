/**
 * Pinned definitions (SPEC S2). The first listing of a category pins every item as it is; a later
 * listing that differs from a pin marks the item *changed* (its new definition kept beside the
 * pin) — the approval broker then suspends every "always" grant of that tool until the user
 * accepts the new definition. A tool that appears later on a server whose "review new tools" is
 * on arrives disabled and noted. A listing that matches a pin again clears the mark. Pure
 * functions of a config entry: the manager applies them to the entry it holds and the store
 * applies the same to the stored entry, so both agree whichever write lands first.
 */
import type { McpServerConfig } from '../../storage/config-schema.js';
import { MAX_PINS, type Pin, type PinCategory } from '../../storage/pin-schema.js';
import { isLoopbackHost } from '../../common/url-rules.js';
import { definitionOf, pinCategoryOf, pinNameOf, type ListedCategory } from './pin-definitions.js';

/** Text kept per category of one server; past it new pins keep only their hash (storage is bounded). */
const MAX_PIN_TEXT_PER_CATEGORY = 512 * 1024;

/** Whether new tools of this server wait for review: the user's choice, else on for remote servers (S2). */
export function reviewsNewTools(config: Pick<McpServerConfig, 'url' | 'reviewNewTools'>): boolean {
  if (config.reviewNewTools !== undefined) return config.reviewNewTools;
  try {
    return !isLoopbackHost(new URL(config.url).hostname);
  } catch {
    return true;
  }
}

const textLength = (pins: readonly Pin[]) => pins.reduce((n, p) => n + (p.text?.length ?? 0) + (p.changed?.text?.length ?? 0), 0);

/** The pin of one listed item after this listing; `undefined` when it is unchanged. */
function nextPin(
  pin: Pin | undefined,
  name: string,
  def: ReturnType<typeof definitionOf>,
  ctx: { first: boolean; review: boolean; now: number; room: boolean },
): Pin | undefined {
  const kept = ctx.room ? def : { hash: def.hash, ...(def.hints ? { hints: def.hints } : {}) };
  if (!pin) return { name, ...kept, ...(!ctx.first && ctx.review ? { review: true as const, held: true as const } : {}) };
  if (pin.hash === def.hash) {
    if (!pin.changed) return undefined;
    const { changed: _, ...rest } = pin;
    return rest;
  }
  // A new tool under review simply follows the server until it is reviewed: nothing was approved yet.
  if (pin.review) return { name, ...kept, review: true, held: true };
  if (pin.changed?.hash === def.hash) return undefined;
  return { ...pin, changed: { ...kept, at: ctx.now } };
}

/**
 * The entry after a committed listing of `category` (the same object when nothing changed). New
 * tools held for review join `disabledTools`. Pins of items no longer listed are kept: an item
 * that comes back changed is still noticed.
 */
export function applyListing(
  config: McpServerConfig,
  category: ListedCategory,
  items: readonly Record<string, unknown>[],
  now: number,
): McpServerConfig {
  const pinCategory = pinCategoryOf(category);
  const before = config.pins?.[pinCategory];
  const pins = [...(before ?? [])];
  const at = new Map(pins.map((p, i) => [p.name, i]));
  const ctx = { first: before === undefined, review: category === 'tools' && reviewsNewTools(config), now, room: true };
  let text = textLength(pins);
  let changed = before === undefined;
  const held: string[] = [];
  for (const item of items) {
    const name = pinNameOf(category, item);
    const index = at.get(name);
    const def = definitionOf(category, item);
    ctx.room = text + (def.text?.length ?? 0) <= MAX_PIN_TEXT_PER_CATEGORY;
    const next = nextPin(index === undefined ? undefined : pins[index], name, def, ctx);
    if (!next) continue;
    if (index === undefined && pins.length >= MAX_PINS) continue;
    changed = true;
    text += (next.text?.length ?? 0) + (next.changed?.text?.length ?? 0);
    if (index === undefined) {
      at.set(name, pins.length);
      pins.push(next);
      if (next.review) held.push(name);
    } else pins[index] = next;
  }
  if (!changed) return config;
  const disabled = held.filter((n) => !config.disabledTools.includes(n));
  return {
    ...config,
    pins: { ...config.pins, [pinCategory]: pins },
    ...(disabled.length ? { disabledTools: [...config.disabledTools, ...disabled] } : {}),
  };
}

function withPin(config: McpServerConfig, category: PinCategory, name: string, edit: (pin: Pin) => Pin): McpServerConfig | undefined {
  const list = config.pins?.[category];
  const index = list?.findIndex((p) => p.name === name) ?? -1;
  if (!list || index < 0) return undefined;
  const next = [...list];
  next[index] = edit(list[index]!);
  return { ...config, pins: { ...config.pins, [category]: next } };
}

/**
 * The user accepted the item as it is listed now: the new definition becomes the pin and a tool
 * the pin held disabled (review, "Keep disabled") is enabled again. Undefined when there is
 * nothing to accept.
 */
export function acceptDefinition(config: McpServerConfig, category: PinCategory, name: string): McpServerConfig | undefined {
  const pin = config.pins?.[category]?.find((p) => p.name === name);
  if (!pin || (!pin.changed && !pin.review)) return undefined;
  const accepted = withPin(config, category, name, ({ name: n, changed }) => {
    const def = changed ?? pin;
    return { name: n, hash: def.hash, ...(def.text !== undefined ? { text: def.text } : {}), ...(def.hints ? { hints: def.hints } : {}) };
  })!;
  return pin.held ? { ...accepted, disabledTools: accepted.disabledTools.filter((t) => t !== name) } : accepted;
}

/** "Keep disabled": the changed tool is disabled, and its change stays noted until accepted. */
export function keepDisabled(config: McpServerConfig, name: string): McpServerConfig | undefined {
  const edited = withPin(config, 'tools', name, (pin) => ({ ...pin, held: true }));
  if (!edited) return undefined;
  return edited.disabledTools.includes(name) ? edited : { ...edited, disabledTools: [...edited.disabledTools, name] };
}

/** Tools the user enabled by hand are approved as they are listed now (the pin follows). */
export function approveEnabled(config: McpServerConfig, before: readonly string[]): McpServerConfig {
  let next = config;
  for (const name of before) {
    if (config.disabledTools.includes(name)) continue;
    next = acceptDefinition(next, 'tools', name) ?? next;
  }
  return next;
}

/** Whether the tool's listed definition differs from its pin (its grants are suspended). */
export function definitionChanged(config: Pick<McpServerConfig, 'pins'>, tool: string): boolean {
  return config.pins?.tools?.some((p) => p.name === tool && p.changed !== undefined) === true;
}
