/**
 * Tiny DOM helpers. Server-provided strings only ever become text nodes (SPEC K5, N9): there is
 * deliberately no helper that takes HTML.
 */
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
 * Shared look: system colors follow light/dark (`prefers-color-scheme`), visible focus rings.
 * `[hidden]` must win over the `display` rules below (a `label { display: grid }` otherwise kept a
 * hidden bearer-token field on screen, seen in the e2e screenshots).
 */
export const baseCss = `
:host { display: block; font: 13px/1.4 system-ui, sans-serif; color: var(--fg, CanvasText); }
:host([hidden]), [hidden] { display: none !important; }
button, input, select, textarea { font: inherit; }
button { border: 1px solid var(--border, #8888); border-radius: 6px; background: var(--btn, ButtonFace); color: inherit; padding: 3px 10px; cursor: pointer; }
button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 2px solid var(--accent, #1a73e8); outline-offset: 1px; }
.muted { opacity: .75; }
.error { color: var(--danger, #b3261e); }
@media (prefers-color-scheme: dark) { .error { color: #f2b8b5; } }
`;

export function sheet(css: string): CSSStyleSheet {
  const s = new CSSStyleSheet();
  s.replaceSync(baseCss + css);
  return s;
}
