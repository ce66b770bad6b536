/**
 * Resource templates (RFC 6570, the levels MCP servers use): the variables a template names, and
 * the URI it stands for once the user filled them (SPEC G3, R8). Values are percent-encoded
 * (reserved characters kept only for `{+var}` and `{#var}`); an empty value leaves its part out
 * where the operator allows (`?`, `&`, `;`). The template is the server's text: it is only parsed.
 */
const EXPRESSION = /\{([+#./;?&]?)([^{}]*)\}/g;
const MAX_VARIABLES = 16;

/** The variable names, in order, without repeats (explode `*` and prefix `:n` modifiers dropped). */
export function templateVariables(template: string): string[] {
  const names = new Set<string>();
  for (const m of template.matchAll(EXPRESSION))
    for (const spec of m[2]!.split(',')) {
      const name = spec.replace(/\*$|:\d+$/, '').trim();
      if (/^[A-Za-z0-9_.%]+$/.test(name)) names.add(name);
      if (names.size >= MAX_VARIABLES) return [...names];
    }
  return [...names];
}

export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_all, op: string, list: string) => {
    const specs = list.split(',').map((s) => s.replace(/\*$|:\d+$/, '').trim());
    const encode = op === '+' || op === '#' ? encodeURI : encodeURIComponent;
    const named = op === ';' || op === '?' || op === '&';
    const parts = specs.flatMap((name) => {
      const v = values[name] ?? '';
      if (named) return v === '' ? [] : [`${name}=${encode(v)}`];
      return [encode(v)];
    });
    if (parts.length === 0) return '';
    const first = { '': '', '+': '', '#': '#', '.': '.', '/': '/', ';': ';', '?': '?', '&': '&' }[op] ?? '';
    const sep = { '': ',', '+': ',', '#': ',', '.': '.', '/': '/', ';': ';', '?': '&', '&': '&' }[op] ?? ',';
    return first + parts.join(sep);
  });
}
