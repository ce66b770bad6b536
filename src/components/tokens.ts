/**
 * The panel's design tokens (docs/ui.md): spacing, type scale, radius and the colours of light
 * and dark. One string, declared on every element's `:host` through `baseCss` and on the page's
 * `:root` by the panel entry, so elements look the same in the panel and in component tests.
 */
export const tokenDeclarations = `
  --space-1: 4px; --space-2: 8px; --space-3: 12px; --space-4: 16px;
  --text-small: 12px; --text-body: 13px; --text-title: 14px; --text-heading: 16px;
  --radius: 6px; --radius-pill: 999px;
  --fg: #1f1f1f; --fg-muted: #5f6368; --bg: #ffffff; --bg-raised: #f1f3f4; --bg-hover: #e8eaed;
  --border: #dadce0; --accent: #0b57d0; --accent-fg: #ffffff; --accent-soft: #d3e3fd;
  --danger: #b3261e; --danger-soft: #fce8e6; --ok: #137333; --ok-soft: #e6f4ea;
  --warn: #8a5a00; --warn-soft: #fef7e0; --focus: #0b57d0;
`;

export const darkTokenDeclarations = `
  --fg: #e3e3e3; --fg-muted: #a8abaf; --bg: #202124; --bg-raised: #2d2e31; --bg-hover: #3c3d40;
  --border: #5f6368; --accent: #a8c7fa; --accent-fg: #062e6f; --accent-soft: #0842a0;
  --danger: #f2b8b5; --danger-soft: #5c1a17; --ok: #81c995; --ok-soft: #0d3a1c;
  --warn: #fdd663; --warn-soft: #4a3800; --focus: #a8c7fa;
`;
