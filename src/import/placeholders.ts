/**
 * Finds the values a pasted config expects its host tool to supply at run time: `${VAR}` and
 * `${VAR:-default}` (Claude Code), `${env:VAR}` (Windsurf, VS Code), `${input:id}` (VS Code)
 * and, in Gemini's settings, bare `$VAR`. A browser has no environment to read them from, so
 * each becomes a field the user fills in (SPEC B2) instead of being imported literally.
 */
import type { Placeholder } from './import-schema.js';
import { MAX_PLACEHOLDER_LENGTH } from './limits.js';

/** A VS Code `inputs[]` declaration: the prompt text and whether it is a password. */
export interface InputDeclaration {
  description?: string;
  password?: boolean;
}

export interface PlaceholderContext {
  inputs: ReadonlyMap<string, InputDeclaration>;
  /** Gemini CLI also expands `$VAR` without braces. */
  bareDollar: boolean;
}

export const EMPTY_CONTEXT: PlaceholderContext = { inputs: new Map(), bareDollar: false };

const BRACED = new RegExp(`\\$\\{([^{}]{1,${MAX_PLACEHOLDER_LENGTH}})\\}`, 'g');
const BRACED_OR_BARE = new RegExp(`\\$\\{([^{}]{1,${MAX_PLACEHOLDER_LENGTH}})\\}|\\$([A-Za-z_][A-Za-z0-9_]*)`, 'g');
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const WITH_DEFAULT = /^([A-Za-z_][A-Za-z0-9_]*):-([\s\S]*)$/;
const SECRET_WORDS = /token|secret|password|passwd|pass|key|auth|credential|pat\b|_pat|bearer/i;

/**
 * Every distinct placeholder in `text`, attributed to `field`. `secretField` marks fields whose
 * value is a credential (a bearer token, a header value) so the panel masks what is typed.
 */
export function findPlaceholders(text: string, field: string, context: PlaceholderContext, secretField: boolean): Placeholder[] {
  const found = new Map<string, Placeholder>();
  const pattern = new RegExp(context.bareDollar ? BRACED_OR_BARE : BRACED);
  for (const match of text.matchAll(pattern)) {
    const token = match[0];
    if (found.has(token)) continue;
    const inner = match[1] ?? match[2] ?? '';
    found.set(token, describe(token, inner, field, context, secretField));
  }
  return [...found.values()];
}

function describe(token: string, inner: string, field: string, context: PlaceholderContext, secretField: boolean): Placeholder {
  const base = { field, token };
  if (inner.startsWith('input:')) {
    const id = inner.slice('input:'.length).trim();
    const declared = context.inputs.get(id);
    const label = declared?.description?.trim() || id;
    return { ...base, label, secret: secretField || declared?.password === true || SECRET_WORDS.test(id) };
  }
  if (inner.startsWith('env:')) {
    const name = inner.slice('env:'.length).trim();
    return { ...base, label: name, secret: secretField || SECRET_WORDS.test(name) };
  }
  const withDefault = WITH_DEFAULT.exec(inner);
  if (withDefault) {
    const name = withDefault[1] ?? inner;
    return { ...base, label: name, secret: secretField || SECRET_WORDS.test(name), defaultValue: withDefault[2] ?? '' };
  }
  const label = VAR_NAME.test(inner) ? inner : inner.trim();
  return { ...base, label, secret: secretField || SECRET_WORDS.test(label) };
}

/**
 * Replaces `${VAR}` whose name is in `env` (an mcp-remote entry's `env` block, which the
 * proxy would have read from its own environment). Single pass: substituted text is not
 * scanned again.
 */
export function resolveFromEnv(text: string, env: ReadonlyMap<string, string>): string {
  if (env.size === 0) return text;
  return text.replace(new RegExp(BRACED), (token: string, inner: string) => {
    const name = inner.startsWith('env:') ? inner.slice(4) : inner;
    return env.get(name) ?? token;
  });
}

/**
 * Replaces each token by its value in one pass (longest token first, so `$AB` is not read as
 * `$A` + `B`); inserted values are never re-scanned.
 */
export function substitute(text: string, values: ReadonlyMap<string, string>): string {
  if (values.size === 0) return text;
  const tokens = [...values.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(tokens.map(escapeRegExp).join('|'), 'g');
  return text.replace(pattern, (token: string) => values.get(token) ?? token);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
