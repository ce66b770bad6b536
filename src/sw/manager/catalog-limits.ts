/**
 * Limits on a tool catalog received from a server (SPEC N8).
 *
 * A hostile or broken server can list a million tools, names that cannot be addressed,
 * novel-length descriptions or megabyte schemas. Everything that exceeds a limit is dropped,
 * truncated or replaced *visibly*: each rule adds one warning that names how many tools it
 * touched, so the panel can say why a tool is missing or odd.
 *
 * Tools that can only run as tasks (`execution.taskSupport: "required"`, MCP 2025-11-25) are
 * offered like the others: a call of one runs as a task in the offscreen document (task-call.ts).
 *
 * A name over 128 characters (of the tool-name character set, at most {@link MAX_ALIASED_NAME_LENGTH})
 * is not left out: the tool is offered under an alias — the name's first characters, `_` and a
 * hash of the whole name — and keeps its own name in `wireName`, which a call sends. The alias
 * depends on the name alone (the same across listings and worker restarts) unless another tool
 * already has it; the warning says which alias stands for which tool.
 */
import { truncateUtf8, utf8Length } from '../use/utf8.js';
import { fnv1a32 } from '../use/tool-names.js';
import { say, type Said } from '../../protocol/wording.js';

export const MAX_TOOLS = 1000;
const MAX_TOOL_NAME_LENGTH = 128;
/** Same character set as the MCP 2025-11-25 tool-name guidance. */
const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
/** Longer names (same characters) get an alias; beyond this they are left out as invalid. */
export const MAX_ALIASED_NAME_LENGTH = 1024;
const ALIASABLE_NAME_PATTERN = /^[A-Za-z0-9_.-]+$/;
const ALIAS_HASH_LENGTH = 8;
export const MAX_DESCRIPTION_LENGTH = 4096;
export const DESCRIPTION_TRUNCATED_MARKER = ' \u2026[description truncated]';
/** Serialized size of `inputSchema` in UTF-8 bytes. */
export const MAX_SCHEMA_BYTES = 64 * 1024;
/** Stands in for a schema that was too large: any object, the server validates (SPEC G1). */
export const PLACEHOLDER_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({ type: 'object' });

/** How many offending names a warning lists before summarizing the rest. */
const NAMES_IN_WARNING = 10;
const NAME_SHOWN_LENGTH = 64;

interface SanitizedTool {
  name: string;
  /** The server's own name, when `name` is an alias for it; calls send this one. */
  wireName?: string;
  description?: string;
  inputSchema: unknown;
  /** Set when the server's schema was over {@link MAX_SCHEMA_BYTES} and was replaced. */
  schemaTooLarge?: true;
  /** Set when the description was cut to {@link MAX_DESCRIPTION_LENGTH}. */
  descriptionTruncated?: true;
  [key: string]: unknown;
}

export interface SanitizedCatalog {
  tools: SanitizedTool[];
  warnings: Said[];
}

/** The names each limit touched, for its warning. */
interface Tally {
  invalid: string[];
  duplicates: string[];
  truncated: string[];
  oversized: string[];
  /** `"alias" for "original"`, one per aliased tool. */
  aliased: string[];
  refused: number;
}

/** The name a call sends to the server: the tool's own, also when it is offered under an alias. */
/** Whether the tool can only be called as a task (2025-11-25 `execution.taskSupport: "required"`). */
export function runsOnlyAsTask(tool: { [key: string]: unknown }): boolean {
  return isRecord(tool.execution) && tool.execution.taskSupport === 'required';
}

export function wireNameOf(tool: { name: string; [key: string]: unknown }): string {
  return typeof tool.wireName === 'string' ? tool.wireName : tool.name;
}

function isAliasable(name: string): boolean {
  return name.length > MAX_TOOL_NAME_LENGTH && name.length <= MAX_ALIASED_NAME_LENGTH && ALIASABLE_NAME_PATTERN.test(name);
}

/** The alias of a long name: its first characters, `_` and a hash (re-hashed with a counter while taken). */
function aliasOf(name: string, taken: ReadonlySet<string>): string {
  const prefix = name.slice(0, MAX_TOOL_NAME_LENGTH - ALIAS_HASH_LENGTH - 1);
  for (let salt = 0; ; salt++) {
    const alias = `${prefix}_${fnv1a32(salt === 0 ? name : `${name}\u0000${salt}`)}`;
    if (!taken.has(alias)) return alias;
  }
}

/** Applies every limit; the order of surviving tools is the server's order. */
export function sanitizeTools(raw: readonly unknown[]): SanitizedCatalog {
  const tally: Tally = { invalid: [], duplicates: [], truncated: [], oversized: [], aliased: [], refused: 0 };
  const seen = new Set<string>();
  const tools: SanitizedTool[] = [];
  for (const entry of raw) {
    const admitted = admit(entry, seen, tools.length, tally);
    if (admitted) tools.push(trimmed(admitted, tally));
  }
  giveAliases(tools, tally);
  return { tools, warnings: warningsOf(tally) };
}

/** Long names get their alias once every short name is known, so an alias never takes a real name. */
function giveAliases(tools: SanitizedTool[], tally: Tally): void {
  const taken = new Set(tools.map((t) => t.name));
  for (const tool of tools) {
    if (tool.name.length <= MAX_TOOL_NAME_LENGTH) continue;
    const alias = aliasOf(tool.name, taken);
    taken.add(alias);
    tally.aliased.push(`${JSON.stringify(alias)} for ${JSON.stringify(truncateUtf8(tool.name, NAME_SHOWN_LENGTH).text)}`);
    tool.wireName = tool.name;
    tool.name = alias;
  }
}

/** The entry if it may be offered at all, else undefined with the reason tallied. */
function admit(entry: unknown, seen: Set<string>, kept: number, tally: Tally): (Record<string, unknown> & { name: string }) | undefined {
  if (!isRecord(entry) || typeof entry.name !== 'string' || !(TOOL_NAME_PATTERN.test(entry.name) || isAliasable(entry.name))) {
    tally.invalid.push(!isRecord(entry) ? '(not an object)' : typeof entry.name === 'string' ? entry.name : '(no name)');
    return undefined;
  }
  const name = entry.name;
  if (seen.has(name)) {
    tally.duplicates.push(name);
    return undefined;
  }
  seen.add(name);
  if (kept >= MAX_TOOLS) {
    tally.refused += 1;
    return undefined;
  }
  return { ...entry, name };
}

/** An admitted tool with its description cut and an oversized schema replaced, each tallied. */
function trimmed(entry: Record<string, unknown> & { name: string }, tally: Tally): SanitizedTool {
  const name = entry.name;
  const tool: SanitizedTool = { ...entry, name, inputSchema: entry.inputSchema ?? PLACEHOLDER_SCHEMA };
  if (typeof entry.description === 'string') {
    if (entry.description.length > MAX_DESCRIPTION_LENGTH) {
      tool.description =
        cutChars(entry.description, MAX_DESCRIPTION_LENGTH - DESCRIPTION_TRUNCATED_MARKER.length) + DESCRIPTION_TRUNCATED_MARKER;
      tool.descriptionTruncated = true;
      tally.truncated.push(name);
    }
  } else {
    delete tool.description;
  }
  if (!schemaFits(entry.inputSchema)) {
    tool.inputSchema = PLACEHOLDER_SCHEMA;
    tool.schemaTooLarge = true;
    tally.oversized.push(name);
  }
  return tool;
}

/** One warning per limit that touched any tool, in a fixed order. */
function warningsOf(tally: Tally): Said[] {
  const { invalid, duplicates, truncated, oversized, aliased, refused } = tally;
  const warnings: Said[] = [];
  if (refused > 0) warnings.push(say('reasonToolsRefused', { count: refused, max: MAX_TOOLS }));
  if (invalid.length > 0) {
    warnings.push(say('reasonToolNamesInvalid', { count: invalid.length, max: MAX_TOOL_NAME_LENGTH, names: listNames(invalid) }));
  }
  if (aliased.length > 0) {
    const shown = aliased.slice(0, NAMES_IN_WARNING).join(', ');
    const aliases = aliased.length > NAMES_IN_WARNING ? `${shown} (+${aliased.length - NAMES_IN_WARNING})` : shown;
    warnings.push(say('reasonToolNamesAliased', { count: aliased.length, max: MAX_TOOL_NAME_LENGTH, aliases }));
  }
  if (duplicates.length > 0) warnings.push(say('reasonToolNamesDuplicate', { count: duplicates.length, names: listNames(duplicates) }));
  if (truncated.length > 0) {
    warnings.push(
      say('reasonDescriptionsTruncated', { count: truncated.length, max: MAX_DESCRIPTION_LENGTH, names: listNames(truncated) }),
    );
  }
  if (oversized.length > 0) {
    warnings.push(say('reasonSchemasReplaced', { count: oversized.length, kib: MAX_SCHEMA_BYTES / 1024, names: listNames(oversized) }));
  }
  return warnings;
}

function schemaFits(schema: unknown): boolean {
  if (schema === undefined) return true;
  let json: string | undefined;
  try {
    json = JSON.stringify(schema);
  } catch {
    return false;
  }
  return json === undefined || utf8Length(json) <= MAX_SCHEMA_BYTES;
}

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair. */
function cutChars(text: string, max: number): string {
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

function listNames(names: readonly string[]): string {
  const shown = names.slice(0, NAMES_IN_WARNING).map((n) => JSON.stringify(truncateUtf8(n, NAME_SHOWN_LENGTH).text));
  const rest = names.length - shown.length;
  // Names are server strings, quoted as they came; only the "and N more" is a word to translate.
  return rest > 0 ? `${shown.join(', ')} (+${rest})` : shown.join(', ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
