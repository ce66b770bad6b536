/**
 * The chat's model provider (section P), in `chrome.storage.local` under {@link PROVIDER_KEY}:
 * kind, base URL, model, step limit, system prompt, first-byte and idle timeouts, and the API key sealed like a bearer token (SPEC F2) with a
 * purpose naming the provider's origin, so a key stored for one origin cannot be opened for a
 * request to another. The key is opened only in the worker, for the request. Chrome's built-in
 * model (`builtin`) has neither URL nor key.
 */
import * as z from 'zod/mini';
import { lazySchema } from '../protocol/lazy-schema.js';
import { SealedBlobSchema } from './config-schema.js';
import type { KeyValueArea } from './ports.js';
import { open, purposeFor, seal } from './seal.js';
import { DEFAULT_MAX_STEPS, MAX_SYSTEM_PROMPT, PROVIDER_KINDS, type ProviderSettingsView } from '../protocol/panel-chat.js';

export const PROVIDER_KEY = 'mcp_chat_provider';

/** What T1/T5 added to a provider: its system prompt and its two timeouts (all optional: older records lack them). */
const ProviderExtrasShape = () => ({
  systemPrompt: z.optional(z.string().check(z.maxLength(MAX_SYSTEM_PROMPT))),
  firstByteTimeoutMs: z.optional(z.number()),
  idleTimeoutMs: z.optional(z.number()),
});

export interface ProviderExtras {
  systemPrompt?: string | undefined;
  firstByteTimeoutMs?: number | undefined;
  idleTimeoutMs?: number | undefined;
}

/** The extras that are set (an empty system prompt is none). */
function extrasOf(p: ProviderExtras): ProviderExtras {
  const prompt = p.systemPrompt?.trim();
  return {
    ...(prompt ? { systemPrompt: prompt } : {}),
    ...(p.firstByteTimeoutMs !== undefined ? { firstByteTimeoutMs: p.firstByteTimeoutMs } : {}),
    ...(p.idleTimeoutMs !== undefined ? { idleTimeoutMs: p.idleTimeoutMs } : {}),
  };
}

const StoredProviderSchema = lazySchema(() =>
  z.object({
    kind: z.enum(PROVIDER_KINDS),
    baseUrl: z.string().check(z.maxLength(2048)),
    model: z.string().check(z.maxLength(256)),
    apiKey: z.optional(SealedBlobSchema),
    maxSteps: z.number(),
    toolLimit: z.optional(z.number()),
    ...ProviderExtrasShape(),
  }),
);
type StoredProvider = z.infer<typeof StoredProviderSchema>;

export interface ProviderInput extends ProviderExtras {
  kind: (typeof PROVIDER_KINDS)[number];
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  maxSteps?: number | undefined;
  /** T2: the most tools one request may offer; absent keeps the stored one (or the kind's default). */
  toolLimit?: number | undefined;
}

/** The provider as the worker calls it: with the key opened. */
export interface OpenedProvider extends ProviderExtras {
  kind: (typeof PROVIDER_KINDS)[number];
  baseUrl: string;
  model: string;
  apiKey?: string;
  maxSteps: number;
  toolLimit?: number;
}

/** T2: the stored tool limit, as an optional field. */
const toolLimitOf = (p: { toolLimit?: number | undefined }) => (p.toolLimit !== undefined ? { toolLimit: p.toolLimit } : {});

const keyPurpose = (baseUrl: string) => purposeFor('provider-key', { providerOrigin: new URL(baseUrl).origin });

function view(p: StoredProvider): ProviderSettingsView {
  return {
    kind: p.kind,
    baseUrl: p.baseUrl,
    model: p.model,
    hasKey: p.apiKey !== undefined,
    maxSteps: p.maxSteps,
    ...toolLimitOf(p),
    ...extrasOf(p),
  };
}

export class ProviderSettingsStore {
  constructor(private readonly area: KeyValueArea) {}

  async #read(): Promise<StoredProvider | undefined> {
    const parsed = StoredProviderSchema.safeParse((await this.area.get(PROVIDER_KEY))[PROVIDER_KEY]);
    return parsed.success ? parsed.data : undefined;
  }

  async view(): Promise<ProviderSettingsView | undefined> {
    const p = await this.#read();
    return p ? view(p) : undefined;
  }

  /** A new key is sealed; no key keeps the stored one when the origin is unchanged, and drops it otherwise. */
  async save(input: ProviderInput): Promise<ProviderSettingsView> {
    const old = await this.#read();
    if (input.kind === 'builtin') {
      const stored: StoredProvider = {
        kind: 'builtin',
        baseUrl: '',
        model: '',
        maxSteps: input.maxSteps ?? old?.maxSteps ?? DEFAULT_MAX_STEPS,
        ...toolLimitOf({ toolLimit: input.toolLimit ?? old?.toolLimit }),
        ...extrasOf(input),
      };
      await this.area.set({ [PROVIDER_KEY]: stored });
      return view(stored);
    }
    const origin = new URL(input.baseUrl).origin;
    const key = input.apiKey?.trim();
    const apiKey = key
      ? await seal(key, keyPurpose(input.baseUrl))
      : old?.apiKey && new URL(old.baseUrl).origin === origin
        ? old.apiKey
        : undefined;
    const stored: StoredProvider = {
      kind: input.kind,
      baseUrl: input.baseUrl.replace(/\/+$/, ''),
      model: input.model.trim(),
      ...(apiKey ? { apiKey } : {}),
      maxSteps: input.maxSteps ?? old?.maxSteps ?? DEFAULT_MAX_STEPS,
      ...toolLimitOf({ toolLimit: input.toolLimit ?? old?.toolLimit }),
      ...extrasOf(input),
    };
    await this.area.set({ [PROVIDER_KEY]: stored });
    return view(stored);
  }

  /** The settings with the key opened; undefined when no provider is set. Throws `SealError` on a key that cannot be opened. */
  async opened(): Promise<OpenedProvider | undefined> {
    const p = await this.#read();
    if (!p) return undefined;
    return {
      kind: p.kind,
      baseUrl: p.baseUrl,
      model: p.model,
      maxSteps: p.maxSteps,
      ...toolLimitOf(p),
      ...extrasOf(p),
      ...(p.apiKey ? { apiKey: await open(p.apiKey, keyPurpose(p.baseUrl)) } : {}),
    };
  }
}
