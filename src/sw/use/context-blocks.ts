/**
 * Untrusted context blocks for prompt and resource content, and fenced tool-result text for the
 * agent (SPEC G2, G3, N9).
 *
 * What a server returns is data, not instructions. Before it reaches a model it is flattened
 * to bounded text and fenced between an opening and a closing line that carry a fresh random
 * id (128 bits from `crypto.getRandomValues`). A server cannot close the fence early because
 * it cannot know the id: the id is generated after the content is known, and regenerated if
 * the content happens to contain it. Text that merely *looks* like a fence (`<<mcp-untrusted`
 * or `<</mcp-untrusted`, any case) is defanged so a model is not misled by a forged one.
 * The provenance label sits outside the fence and is built from our own config and
 * single-line, bounded copies of server strings.
 */
import { fenceBlock } from '../../common/untrusted-fence.js';
import { flattenToOneLine } from '../../common/control-chars.js';
import { formatBytes, truncateUtf8 } from './utf8.js';

/** Bound on the fenced content, in UTF-8 bytes. */
export const MAX_CONTEXT_TEXT_BYTES = 100 * 1024;
const DELIMITER_PREFIX = 'mcp-untrusted-';
const ID_BYTES = 16;
const MAX_LABEL_LENGTH = 200;
const LOOKALIKE_FENCE = /<<(\s*\/?\s*)(mcp-untrusted)/gi;

interface ContextProvenance {
  serverId: string;
  serverName: string;
  uri?: string;
  prompt?: string;
}

export interface ContextBlock {
  kind: 'prompt' | 'resource';
  provenance: ContextProvenance;
  untrusted: true;
  /** The fence id, e.g. `mcp-untrusted-7f3a…` (32 hex digits after the prefix). */
  delimiter: string;
  /** Label, opening fence, content, closing fence. */
  text: string;
}

/** Source of randomness; injectable so tests can force a collision. */
export type RandomFill = (bytes: Uint8Array) => Uint8Array;

export interface BlockOptions {
  random?: RandomFill;
  maxBytes?: number;
}

/** A message of a `prompts/get` result, loosely typed: it is validated upstream. */
interface PromptMessageLike {
  role?: unknown;
  content?: unknown;
}

export interface PromptResultLike {
  description?: unknown;
  messages?: readonly PromptMessageLike[];
}

/** One item of a `resources/read` result. */
export interface ResourceContentsLike {
  uri?: unknown;
  mimeType?: unknown;
  text?: unknown;
  blob?: unknown;
}

const defaultRandom: RandomFill = (bytes) => crypto.getRandomValues(bytes);

export function buildPromptBlock(
  source: { serverId: string; serverName: string; prompt: string; result: PromptResultLike },
  options: BlockOptions = {},
): ContextBlock {
  const sections: string[] = [];
  if (typeof source.result.description === 'string' && source.result.description) {
    sections.push(`(description) ${source.result.description}`);
  }
  for (const message of source.result.messages ?? []) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    sections.push(`[${role}]\n${describeContent(message.content)}`);
  }
  const provenance: ContextProvenance = { serverId: source.serverId, serverName: source.serverName, prompt: source.prompt };
  const label = `Prompt "${oneLine(source.prompt)}" from MCP server "${oneLine(source.serverName)}" (id ${oneLine(source.serverId)})`;
  return { kind: 'prompt', provenance, untrusted: true, ...fence(label, sections.join('\n\n'), options) };
}

export function buildResourceBlock(
  source: { serverId: string; serverName: string; uri: string; contents: readonly ResourceContentsLike[] },
  options: BlockOptions = {},
): ContextBlock {
  const sections = source.contents.map((item) => {
    const head = `[${typeof item.uri === 'string' ? item.uri : source.uri}${typeof item.mimeType === 'string' ? ` (${item.mimeType})` : ''}]`;
    return `${head}\n${describeResourceContents(item)}`;
  });
  const provenance: ContextProvenance = { serverId: source.serverId, serverName: source.serverName, uri: source.uri };
  const label = `Resource ${oneLine(source.uri)} from MCP server "${oneLine(source.serverName)}" (id ${oneLine(source.serverId)})`;
  return { kind: 'resource', provenance, untrusted: true, ...fence(label, sections.join('\n\n'), options) };
}

/** A `tools/call` result, loosely typed: it is validated and truncated upstream. */
interface ToolResultLike {
  content?: unknown;
  isError?: boolean;
  structuredContent?: unknown;
  [key: string]: unknown;
}

interface ToolProvenance {
  serverId: string;
  serverName: string;
  tool: string;
}

/**
 * THE one place a server's tool result becomes what the model reads (N9, T4): every field the
 * server wrote — text, embedded resource text, mime types, URIs, link names and descriptions,
 * and `structuredContent` when no text came with it — described inside ONE fence whose label
 * (outside) holds only our provenance words and bounded single-line copies of names.
 */
export function toolResultForModel(
  source: ToolProvenance & { result: ToolResultLike },
  options: Pick<BlockOptions, 'random'> = {},
): string {
  const { result } = source;
  const parts = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const sections = parts.map(describeContent);
  const hasText = parts.some((p) => isRecord(p) && p.type === 'text');
  if (!hasText && result.structuredContent !== undefined) sections.push(`(structured content)\n${jsonOf(result.structuredContent)}`);
  const body = sections.join('\n\n') || '(the tool returned no content)';
  return fence(toolLabel(source, result.isError ? 'Error result of' : 'Result of'), body, { ...options, maxBytes: Number.MAX_SAFE_INTEGER })
    .text;
}

/** A failed call's message as the model reads it: it may be the server's own words, so it is fenced too (T4). */
export function toolFailureForModel(source: ToolProvenance, message: string, options: Pick<BlockOptions, 'random'> = {}): string {
  return fence(toolLabel(source, 'Failure of'), message, options).text;
}

function toolLabel({ serverId, serverName, tool }: ToolProvenance, what: string): string {
  return `${what} tool "${oneLine(tool)}" from MCP server "${oneLine(serverName)}" (id ${oneLine(serverId)})`;
}

/**
 * Fences every piece of server text in a tool result for an agent (N9): each `text` part, and the
 * text of each embedded `resource` part, becomes label + random fence around the original text,
 * like a resource block. Runs after truncation (H4), so it cuts nothing; media, links and
 * `structuredContent` are left as they are (structured data stays structured). A model reads
 * {@link toolResultForModel} instead, which fences those too.
 */
export function fenceToolResult<R extends ToolResultLike>(
  source: ToolProvenance & { result: R },
  options: Pick<BlockOptions, 'random'> = {},
): R {
  const { result } = source;
  if (!Array.isArray(result.content)) return result;
  const label = toolLabel(source, result.isError ? 'Error result of' : 'Result of');
  const fenced = (text: string) => fence(label, text, { ...options, maxBytes: Number.MAX_SAFE_INTEGER }).text;
  const content = (result.content as unknown[]).map((part) => {
    if (!isRecord(part)) return part;
    if (part.type === 'text' && typeof part.text === 'string') return { ...part, text: fenced(part.text) };
    if (part.type === 'resource' && isRecord(part.resource) && typeof part.resource.text === 'string')
      return { ...part, resource: { ...part.resource, text: fenced(part.resource.text) } };
    return part;
  });
  return { ...result, content };
}

function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value, null, 1) ?? String(value);
  } catch {
    return '[structured content that is not JSON]';
  }
}

function describeResourceContents(item: ResourceContentsLike): string {
  if (typeof item.text === 'string') return item.text;
  if (typeof item.blob === 'string') return `[binary content, ${formatBytes(approxDecodedBytes(item.blob))}, not included]`;
  return '[empty resource content]';
}

function describeContent(content: unknown): string {
  if (!isRecord(content)) return '[unsupported content]';
  switch (content.type) {
    case 'text':
      return typeof content.text === 'string' ? content.text : '';
    case 'image':
    case 'audio': {
      const mime = typeof content.mimeType === 'string' ? content.mimeType : 'unknown type';
      const size = typeof content.data === 'string' ? formatBytes(approxDecodedBytes(content.data)) : 'unknown size';
      return `[${content.type} (${oneLine(mime)}), ${size}, not included]`;
    }
    case 'resource':
      if (isRecord(content.resource)) {
        const uri = typeof content.resource.uri === 'string' ? content.resource.uri : 'unknown uri';
        const mime = typeof content.resource.mimeType === 'string' ? ` (${oneLine(content.resource.mimeType)})` : '';
        return `[embedded resource ${oneLine(uri)}${mime}]\n${describeResourceContents(content.resource)}`;
      }
      return '[embedded resource]';
    case 'resource_link':
      return describeLink(content);
    default:
      return '[unsupported content]';
  }
}

/** A resource link with what the server said of it (all of it inside the fence it is described in). */
function describeLink(link: Record<string, unknown>): string {
  const uri = typeof link.uri === 'string' ? link.uri : 'unknown uri';
  const name = typeof link.name === 'string' ? `${oneLine(link.name)} ` : '';
  const extra = [
    typeof link.title === 'string' ? `title: ${oneLine(link.title)}` : '',
    typeof link.mimeType === 'string' ? `type: ${oneLine(link.mimeType)}` : '',
    typeof link.description === 'string' ? `description: ${link.description}` : '',
  ].filter(Boolean);
  return `[resource link: ${name}<${oneLine(uri)}>]${extra.length ? `\n${extra.join('\n')}` : ''}`;
}

function fence(label: string, body: string, options: BlockOptions): Pick<ContextBlock, 'delimiter' | 'text'> {
  const random = options.random ?? defaultRandom;
  const bounded = truncateUtf8(defang(body), options.maxBytes ?? MAX_CONTEXT_TEXT_BYTES);
  const content = bounded.cutBytes > 0 ? `${bounded.text}\n[\u2026 truncated: ${formatBytes(bounded.cutBytes)} cut]` : bounded.text;
  const delimiter = freshDelimiter(random, `${label}\n${content}`);
  return { delimiter, text: fenceBlock(label, delimiter, content) };
}

/** Draws ids until one does not occur in `haystack` (in practice, the first one). */
function freshDelimiter(random: RandomFill, haystack: string): string {
  const lower = haystack.toLowerCase();
  for (let tries = 0; tries < 16; tries++) {
    const bytes = random(new Uint8Array(ID_BYTES));
    const id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    if (!lower.includes(id)) return `${DELIMITER_PREFIX}${id}`;
  }
  throw new Error('Could not draw a delimiter absent from the content; the random source is broken.');
}

/** Breaks anything shaped like our fence so a forged one reads as plain text. */
function defang(text: string): string {
  return text.replace(LOOKALIKE_FENCE, '< <$1$2');
}

/** Single line, no control characters, bounded; for labels built from server strings. */
function oneLine(value: string): string {
  const flat = flattenToOneLine(value);
  const cut = truncateUtf8(flat, MAX_LABEL_LENGTH);
  return defang(cut.cutBytes > 0 ? `${cut.text}\u2026` : cut.text);
}

function approxDecodedBytes(base64: string): number {
  return Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Server text that is none of the above (the chat's tool-search hits, T2): our label, then the fenced text. */
export function fenceServerText(label: string, body: string, options: BlockOptions = {}): string {
  return fence(label, body, options).text;
}
