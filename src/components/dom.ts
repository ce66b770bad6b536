/**
 * Tiny DOM helpers. Server-provided strings only ever become text nodes (SPEC K5, N9): there is
 * deliberately no helper that takes HTML.
 */
import { darkTokenDeclarations, tokenDeclarations } from './tokens.js';

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string | boolean>> = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === false || value === undefined) continue;
    node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

/**
 * Shared look: the design tokens (docs/ui.md), colours that follow light/dark, visible focus
 * rings, and one button style per role — `data-role="primary"`, `"danger"`, `"quiet"`; a button
 * without a role is secondary. `[hidden]` must win over the `display` rules below (a
 * `label { display: grid }` otherwise kept a hidden bearer-token field on screen).
 */
export const baseCss = `
:host { ${tokenDeclarations} display: block; font: var(--text-body)/1.4 system-ui, sans-serif; color: var(--fg); }
@media (prefers-color-scheme: dark) { :host { ${darkTokenDeclarations} } }
:host([hidden]), [hidden] { display: none !important; }
button, input, select, textarea { font: inherit; }
input, select, textarea { color: var(--fg); background: var(--bg); border: 1px solid var(--border); border-radius: var(--radius); padding: 4px 6px; }
button { border: 1px solid var(--border); border-radius: var(--radius); background: var(--bg); color: var(--accent); padding: 4px 12px; cursor: pointer; font-weight: 500; }
button:hover { background: var(--bg-hover); }
button[data-role="primary"] { background: var(--accent); border-color: var(--accent); color: var(--accent-fg); }
button[data-role="primary"]:hover { filter: brightness(1.08); }
button[data-role="danger"] { color: var(--danger); border-color: var(--danger); }
button[data-role="quiet"] { border-color: transparent; background: transparent; }
button[data-role="quiet"]:hover { background: var(--bg-hover); }
button:disabled, button[aria-disabled="true"] { opacity: 0.6; cursor: default; }
button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible, a:focus-visible, [tabindex]:focus-visible { outline: 2px solid var(--focus); outline-offset: 1px; }
.muted { color: var(--fg-muted); }
.error { color: var(--danger); }
`;

export function sheet(css: string): CSSStyleSheet {
  const s = new CSSStyleSheet();
  s.replaceSync(baseCss + css);
  return s;
}
