/**
 * The server view's account of its pins (SPEC S2): every definition that differs from its pin,
 * as a bounded line diff and the behaviour hints whose value changed, and every new tool held
 * for review. A diff is computed once per (old, new) pair: views are built on every state push.
 */
import { BoundedMap } from '../../common/bounded-map.js';
import { MAX_CHANGES_SHOWN, type DefinitionChange } from '../../protocol/panel-pins.js';
import type { McpServerConfig } from '../../storage/config-schema.js';
import type { Pin, PinCategory, PinHints } from '../../storage/pin-schema.js';
import { lineDiff, type DiffLine } from './line-diff.js';
import { HINT_NAMES } from './pin-definitions.js';

const diffs = new BoundedMap<string, DiffLine[]>(200);

function diffOf(pin: Pin, next: { hash: string; text?: string | undefined }): DiffLine[] {
  const key = `${pin.hash}:${next.hash}`;
  let lines = diffs.get(key);
  if (!lines) diffs.set(key, (lines = lineDiff(pin.text ?? '', next.text ?? '')));
  return lines;
}

function hintChanges(from: PinHints | undefined, to: PinHints | undefined): DefinitionChange['hints'] {
  return HINT_NAMES.filter((h) => from?.[h] !== to?.[h]).map((hint) => ({
    hint,
    ...(from?.[hint] !== undefined ? { from: from[hint] } : {}),
    ...(to?.[hint] !== undefined ? { to: to[hint] } : {}),
  }));
}

function changeOf(category: PinCategory, pin: Pin): DefinitionChange | undefined {
  const held = pin.held ? { held: true } : {};
  if (pin.review) return { category, name: pin.name, kind: 'new', ...held, lines: [], hints: [] };
  if (!pin.changed) return undefined;
  return {
    category,
    name: pin.name,
    kind: 'changed',
    at: pin.changed.at,
    ...held,
    ...(pin.text === undefined ? { oldTextMissing: true } : {}),
    lines: diffOf(pin, pin.changed),
    hints: hintChanges(pin.hints, pin.changed.hints),
  };
}

/** Changed tools first, then prompts and resources; newest first within each; bounded. */
export function changesOf(config: Pick<McpServerConfig, 'pins'>): DefinitionChange[] {
  const out: DefinitionChange[] = [];
  for (const category of ['tools', 'prompts', 'resources'] as const) {
    const found = (config.pins?.[category] ?? []).flatMap((pin) => changeOf(category, pin) ?? []);
    out.push(...found.sort((a, b) => (b.at ?? 0) - (a.at ?? 0)));
  }
  return out.slice(0, MAX_CHANGES_SHOWN);
}
