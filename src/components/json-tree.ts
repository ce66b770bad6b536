/**
 * A collapsible tree of a JSON value (a tool's structured content), built with DOM APIs: objects
 * and arrays are `<details>` whose `<summary>` is operated with the keyboard like any button
 * (Enter/Space toggle it), leaves are text. Keys and values are the server's and only ever
 * become text nodes. The first levels start open; node count and depth are bounded so a huge or
 * deeply nested value cannot build a huge tree (the part's copy button still gives all of it).
 */
import { el } from './dom.js';
import { t } from './i18n.js';
import { asText } from '../common/as-text.js';

const OPEN_LEVELS = 2;
const MAX_NODES = 2000;
const MAX_DEPTH = 32;

type Budget = { left: number };

function leaf(value: unknown): HTMLElement {
  if (typeof value === 'string') return el('span', { class: 'v-string' }, JSON.stringify(value));
  if (value === null) return el('span', { class: 'v-null' }, 'null');
  return el('span', { class: `v-${typeof value}` }, JSON.stringify(value) ?? asText(value));
}

function keyLabel(key: string | undefined): (HTMLElement | string)[] {
  return key === undefined ? [] : [el('span', { class: 'key' }, key), ': '];
}

function node(key: string | undefined, value: unknown, depth: number, budget: Budget): HTMLElement {
  budget.left--;
  if (value === null || typeof value !== 'object') return el('li', {}, ...keyLabel(key), leaf(value));
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const count = t(isArray ? 'jsonItems' : 'jsonKeys', String(entries.length));
  const summary = el('summary', {}, ...keyLabel(key), el('span', { class: 'muted count' }, isArray ? `[ ${count} ]` : `{ ${count} }`));
  if (depth >= MAX_DEPTH) return el('li', {}, ...keyLabel(key), el('span', { class: 'muted' }, '…'));
  const children: HTMLElement[] = [];
  for (const [k, v] of entries) {
    if (budget.left <= 0) {
      children.push(el('li', { class: 'muted more' }, '…'));
      break;
    }
    children.push(node(k, v, depth + 1, budget));
  }
  const details = el('details', {}, summary, el('ul', {}, ...children));
  details.open = depth < OPEN_LEVELS;
  return el('li', {}, details);
}

/** The tree of `value`, a `ul` labelled for assistive technology. */
export function jsonTree(value: unknown): HTMLElement {
  return el('ul', { class: 'json-tree', 'aria-label': t('jsonTree') }, node(undefined, value, 0, { left: MAX_NODES }));
}

/** Styles of the tree, for the element that hosts it. */
export const jsonTreeCss = `
.json-tree, .json-tree ul { list-style: none; margin: 0; padding-left: var(--space-3); font-family: ui-monospace, monospace; font-size: var(--text-small); }
.json-tree { padding-left: 0; }
.json-tree li { overflow-wrap: anywhere; }
.json-tree summary { cursor: pointer; }
.json-tree .key { color: var(--accent); }
.json-tree .v-string { color: var(--ok); }
.json-tree .v-number, .json-tree .v-boolean { color: var(--warn); }
.json-tree .v-null { color: var(--fg-muted); }
`;
