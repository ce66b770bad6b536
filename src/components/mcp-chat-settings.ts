/**
 * The Chat view's provider settings: which model provider the chat uses (OpenAI-compatible,
 * Anthropic, or Chrome's built-in model where the worker found it), its URL, model (typed, or
 * picked from the provider's model list), API key, step limit, system prompt and the two waits
 * of T1. Without a provider it says how to add one and always shows the form; with one, only
 * while {@link open}. It rebuilds the form only when its own inputs change, so pushes about the
 * chat or its history never wipe what the user is typing. Renders into its own children (no
 * shadow root), so the Chat view's styles and selectors reach it unchanged.
 */
import { ElementBase } from './element-base.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { ChatActionEvent } from './chat-events.js';
import {
  DEFAULT_TOOL_LIMITS,
  MAX_SYSTEM_PROMPT,
  MAX_TOOL_LIMIT,
  MIN_TOOL_LIMIT,
  type ProviderSettingsView,
} from '../protocol/panel-chat.js';

export const chatSettingsCss = `
mcp-chat-settings { display: contents; }
form.provider { display: grid; gap: 4px; border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-2); }
form.provider label { display: grid; gap: 2px; }
form.provider .models { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }
`;

const OPENAI_PLACEHOLDER = 'http://127.0.0.1:11434/v1';
/** The worker's defaults (src/sw/chat/providers/stall-guard.ts), shown in the form. */
const DEFAULT_FIRST_BYTE_MS = 120_000;
const DEFAULT_IDLE_MS = 60_000;
/** The keys whose change makes an open form stale. */
const FORM_INPUTS = ['provider', 'builtinAvailable'];

const field = (label: string, input: HTMLElement) => el('label', {}, label, input);

/** The provider form's inputs, filled from the provider set now (if any). */
function providerInputs(p: ProviderSettingsView | undefined, builtinAvailable: boolean) {
  const kind = el(
    'select',
    { name: 'kind' },
    el('option', { value: 'openai' }, t('chatKindOpenai')),
    el('option', { value: 'anthropic' }, t('chatKindAnthropic')),
    // Offered only where the worker found Chrome's model (Prompt API): no URL, key or tools.
    builtinAvailable || p?.kind === 'builtin' ? el('option', { value: 'builtin' }, t('chatKindBuiltin')) : null,
  );
  kind.value = p?.kind ?? 'openai';
  const baseUrl = el('input', { name: 'base-url', type: 'url', required: true, placeholder: OPENAI_PLACEHOLDER });
  baseUrl.value = p?.baseUrl ?? '';
  const model = el('input', { name: 'model', required: true, placeholder: 'llama3.1' });
  model.value = p?.model ?? '';
  const apiKey = el('input', { name: 'api-key', type: 'password', autocomplete: 'off' });
  const steps = el('input', { name: 'max-steps', type: 'number', min: '1', max: '100' });
  steps.value = String(p?.maxSteps ?? 20);
  // T2: empty keeps the stored limit, or the kind's default (the placeholder).
  const toolLimit = el('input', { name: 'tool-limit', type: 'number', min: String(MIN_TOOL_LIMIT), max: String(MAX_TOOL_LIMIT) });
  toolLimit.placeholder = String(DEFAULT_TOOL_LIMITS.openai);
  toolLimit.value = p?.toolLimit !== undefined ? String(p.toolLimit) : '';
  return { kind, baseUrl, model, apiKey, steps, toolLimit, ...extraInputs(p) };
}

/** The system prompt and the two waits (T1, T5), the waits in seconds. */
function extraInputs(p: ProviderSettingsView | undefined) {
  const systemPrompt = el('textarea', { name: 'system-prompt', rows: '3', maxlength: String(MAX_SYSTEM_PROMPT) });
  systemPrompt.value = p?.systemPrompt ?? '';
  const seconds = (name: string, ms: number | undefined, fallback: number) => {
    const input = el('input', { name, type: 'number', min: '1', max: '1800' });
    input.value = String(Math.round((ms ?? fallback) / 1000));
    return input;
  };
  return {
    systemPrompt,
    firstByte: seconds('first-byte-timeout', p?.firstByteTimeoutMs, DEFAULT_FIRST_BYTE_MS),
    idle: seconds('idle-timeout', p?.idleTimeoutMs, DEFAULT_IDLE_MS),
  };
}

/** Seconds typed → ms the worker accepts (1 s … 30 min); empty or nonsense keeps the default. */
function msOf(input: HTMLInputElement, fallback: number): number {
  const s = Number(input.value);
  return Number.isFinite(s) && s >= 1 ? Math.min(1800, Math.round(s)) * 1000 : fallback;
}

type ProviderInputs = ReturnType<typeof providerInputs>;

/** What the form asks to save. */
function providerFrom({ kind, baseUrl, model, apiKey, steps, toolLimit, systemPrompt, firstByte, idle }: ProviderInputs) {
  const limit = Math.round(Number(toolLimit.value));
  return {
    ...(toolLimit.value.trim() && limit ? { toolLimit: Math.min(MAX_TOOL_LIMIT, Math.max(MIN_TOOL_LIMIT, limit)) } : {}),
    systemPrompt: systemPrompt.value.trim(),
    firstByteTimeoutMs: msOf(firstByte, DEFAULT_FIRST_BYTE_MS),
    idleTimeoutMs: msOf(idle, DEFAULT_IDLE_MS),
    kind: kind.value === 'anthropic' ? ('anthropic' as const) : kind.value === 'builtin' ? ('builtin' as const) : ('openai' as const),
    baseUrl: baseUrl.value.trim(),
    model: model.value.trim(),
    maxSteps: Math.min(100, Math.max(1, Number(steps.value) || 20)),
    ...(apiKey.value.trim() ? { apiKey: apiKey.value.trim() } : {}),
  };
}

/** The `<datalist>` behind the model input: the saved provider's models, the typed name still possible. */
function fillModels(list: HTMLDataListElement, models: readonly string[]) {
  list.replaceChildren(...models.map((m) => el('option', { value: m })));
}

export class McpChatSettingsElement extends ElementBase {
  #provider: ProviderSettingsView | undefined | null = null;
  #builtinAvailable = false;
  #open = false;
  /** Always there, empty when hidden: the Chat view's grid keeps its rows. */
  readonly #box = el('div', { class: 'settings' });

  /** `null` while unknown; `undefined` when no provider is set. */
  set provider(value: ProviderSettingsView | undefined | null) {
    this.#provider = value;
    this.requestUpdate('provider');
  }
  set builtinAvailable(value: boolean) {
    this.#builtinAvailable = value;
    this.requestUpdate('builtinAvailable');
  }
  /** The user asked to see the form (it shows regardless while no provider is set). */
  set open(value: boolean) {
    this.#open = value;
    this.requestUpdate('open');
  }

  connectedCallback() {
    if (this.#box.parentNode !== this) this.append(this.#box);
  }

  protected override update(changed: ReadonlySet<string>) {
    if (this.#provider === null || (this.#provider && !this.#open)) {
      this.#box.replaceChildren();
      return;
    }
    // Keep what the user is typing unless the form itself is out of date.
    if (this.#box.querySelector('form') && !FORM_INPUTS.some((key) => changed.has(key))) return;
    const p = this.#provider;
    this.#box.replaceChildren(...(p ? [] : [el('p', { class: 'no-provider' }, t('chatNoProvider'))]), this.#form(p));
  }

  /** "Load the model list": asks the worker (the saved provider's list) and fills the model input's datalist. */
  #modelPicker(model: HTMLInputElement): HTMLElement {
    const list = el('datalist', { id: 'chat-models' });
    model.setAttribute('list', 'chat-models');
    const status = el('span', { class: 'muted', role: 'status' });
    const load = el('button', { type: 'button', name: 'load-models' }, t('chatLoadModels'));
    load.addEventListener('click', () => {
      status.textContent = t('chatModelsLoading');
      const answer = (r: { models: string[] } | { error: string }) => {
        if ('error' in r) status.textContent = r.error;
        else {
          fillModels(list, r.models);
          status.textContent = t('chatModelsLoaded', String(r.models.length));
        }
      };
      this.dispatchEvent(new ChatActionEvent({ action: 'list-models', answer }));
    });
    return el('div', { class: 'models' }, load, status, list);
  }

  #form(p: ProviderSettingsView | undefined): HTMLFormElement {
    const inputs = providerInputs(p, this.#builtinAvailable);
    const { kind, baseUrl, model, apiKey, steps, toolLimit } = inputs;
    const remote = [
      field(t('chatBaseUrl'), baseUrl),
      field(t('chatModel'), model),
      ...(p && p.kind !== 'builtin' ? [this.#modelPicker(model)] : []),
      field(t('chatApiKey'), apiKey),
      ...(p?.hasKey ? [el('p', { class: 'muted' }, t('chatApiKeyKept'))] : []),
      field(t('chatToolLimit'), toolLimit),
    ];
    const remoteWaits = [field(t('chatFirstByteTimeout'), inputs.firstByte), field(t('chatIdleTimeout'), inputs.idle)];
    const showRemote = () => {
      const builtin = kind.value === 'builtin';
      for (const node of [...remote, ...remoteWaits]) node.hidden = builtin;
      baseUrl.required = model.required = !builtin;
    };
    kind.addEventListener('change', () => {
      if (!baseUrl.value) baseUrl.placeholder = kind.value === 'anthropic' ? 'https://api.anthropic.com' : OPENAI_PLACEHOLDER;
      toolLimit.placeholder = String(kind.value === 'anthropic' ? DEFAULT_TOOL_LIMITS.anthropic : DEFAULT_TOOL_LIMITS.openai);
      showRemote();
    });
    const form = el(
      'form',
      { class: 'provider' },
      field(t('chatProviderKind'), kind),
      ...remote,
      field(t('chatMaxSteps'), steps),
      field(t('chatSystemPrompt'), inputs.systemPrompt),
      ...remoteWaits,
      el('button', { type: 'submit', 'data-role': 'primary' }, t('chatSave')),
    );
    // Submitted in the click: the wiring asks Chrome for the provider origin before awaiting anything (SPEC L1).
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.dispatchEvent(new ChatActionEvent({ action: 'save-provider', provider: providerFrom(inputs) }));
    });
    showRemote();
    return form;
  }
}
