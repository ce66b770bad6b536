/**
 * A tool result, readable (SPEC H1, K5): each part of the result labelled by what it is
 * — text, structured content as a collapsible JSON tree, an image or audio from base64 data of an
 * allow-listed MIME type only (as a `data:` URL), a resource link that can be read (the
 * {@link ReadResourceEvent} is answered with {@link McpResultViewElement.showResource}) or, for
 * http(s) only, opened in a new tab by the user's click, an embedded resource (text shown, binary
 * summarized) — with a copy button per part, a bounded height with an Expand toggle, and an
 * error result marked. Every server string is set as text. A tool with an MCP App view gets it
 * (`mcp-app-view`) above the parts.
 */
import { ElementBase } from './element-base.js';
import type { CallToolResult, Tool } from '../protocol/mcp-shapes.js';
import { toolUi } from '../protocol/mcp-apps.js';
import type { McpAppViewElement } from './mcp-app-view.js';
import { asText } from '../common/as-text.js';
import { el, sheet } from './dom.js';
import { ReadResourceEvent } from './events.js';
import { t } from './i18n.js';
import { jsonTree, jsonTreeCss } from './json-tree.js';
import type { ShownResourcePart } from '../protocol/panel-composer.js';

const css = sheet(`
.output { display: grid; gap: var(--space-2); }
.parts { display: grid; gap: var(--space-2); max-height: 24rem; overflow: auto; }
.parts.expanded { max-height: none; overflow: visible; }
:host([error]) .parts { border-left: 3px solid var(--danger); padding-left: var(--space-2); }
.part { display: grid; gap: var(--space-1); min-width: 0; }
.part-head { display: flex; gap: var(--space-2); align-items: center; min-width: 0; }
.part-head .label { font-size: var(--text-small); font-weight: 600; color: var(--fg-muted); flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.part-head button, .part-head a { padding: 0 var(--space-2); font-size: var(--text-small); }
a.open { color: var(--accent); }
pre { white-space: pre-wrap; overflow-wrap: anywhere; border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-1) var(--space-2); margin: 0; background: var(--bg-raised); }
.structured { border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-1) var(--space-2); }
.link-uri, .resource-uri { overflow-wrap: anywhere; font-family: ui-monospace, monospace; font-size: var(--text-small); }
img { max-width: 100%; height: auto; }
/* A tiny image (an icon, a 1-px test pixel) is still seen: shown at least 48 px, its shape kept. */
img.image { min-width: 48px; min-height: 48px; object-fit: contain; border: 1px solid var(--border); border-radius: var(--radius); }
audio { width: 100%; }
.toggle { justify-self: start; }
.read-out { display: grid; gap: var(--space-1); min-width: 0; }
.resource-part { display: grid; gap: 2px; min-width: 0; }
.as-model summary { cursor: pointer; font-size: var(--text-small); color: var(--fg-muted); }
.as-model pre { margin-top: var(--space-1); font-size: var(--text-small); }
p { margin: 0; }
${jsonTreeCss}
`);

const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp|bmp|avif)$/i;
const AUDIO_TYPES = /^audio\/(wav|x-wav|mpeg|mp3|ogg|webm|flac|aac|mp4)$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A media part's data URL, only for an allow-listed MIME type and base64 data. */
function dataUrl(block: Record<string, unknown>, allowed: RegExp): string | undefined {
  const mime = block.mimeType;
  const data = block.data;
  if (typeof mime !== 'string' || typeof data !== 'string') return undefined;
  if (!allowed.test(mime) || !BASE64.test(data)) return undefined;
  return `data:${mime.toLowerCase()};base64,${data}`;
}

/** A byte count in words the user reads. */
function bytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** The size of base64 data, decoded, in words the user reads. */
function size(base64: string): string {
  return bytes(Math.floor((base64.replace(/=+$/, '').length * 3) / 4));
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const isHttp = (uri: string) => /^https?:\/\//i.test(uri);

export class McpResultViewElement extends ElementBase {
  /** The server the result came from, for reading its resource links. */
  #serverId: string | undefined;
  readonly #status = el('div', { class: 'status' });
  readonly #parts = el('div', { class: 'parts' });
  readonly #toggle = el(
    'button',
    { type: 'button', class: 'toggle', 'data-role': 'quiet', 'aria-expanded': 'false', hidden: true },
    t('expandResult'),
  );
  readonly #output = el(
    'div',
    { class: 'output', role: 'region', 'aria-live': 'polite', 'aria-label': t('result') },
    this.#status,
    this.#parts,
  );

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    this.#toggle.addEventListener('click', () => this.#setExpanded(!this.#parts.classList.contains('expanded')));
    root.append(this.#output, this.#toggle);
  }

  /** The view of the tool whose result is shown (MCP Apps), above its parts. */
  #app: McpAppViewElement | undefined;

  /** Nothing shown (the runner's tool changed). */
  clear() {
    this.#serverId = undefined;
    // The view is asked to tear down (bounded wait) and removes itself.
    const app = this.#app;
    this.#app = undefined;
    if (app) {
      app.hidden = true;
      void app.close().then(() => app.remove());
    }
    this.removeAttribute('error');
    this.#status.replaceChildren();
    this.#parts.replaceChildren();
    // Tests (and nothing else) may have emptied the output region from outside: put its two slots back.
    this.#output.replaceChildren(this.#status, ...(app ? [app] : []), this.#parts);
    this.#fit();
  }

  /** A short state line in place of a result ("Running…", "Waiting for your answer"). */
  showStatus(text: string) {
    this.clear();
    this.#status.replaceChildren(el('p', { class: 'muted' }, text));
  }

  /** A call that failed without a result (the message is already in plain words). */
  showError(message: string) {
    this.clear();
    this.setAttribute('error', '');
    this.#status.replaceChildren(el('p', { class: 'error' }, message));
  }

  /**
   * A tool result from `serverId` (whose resource links can then be read). With `call`, a tool
   * that has an MCP App view gets it rendered above the parts, with this input and result.
   */
  showResult(result: CallToolResult, serverId: string | undefined, call?: { tool: Tool; arguments: Record<string, unknown> }) {
    this.clear();
    this.#serverId = serverId;
    if (serverId && call && toolUi(call.tool).resourceUri) {
      const app = document.createElement('mcp-app-view');
      this.#app = app;
      this.#output.insertBefore(app, this.#parts);
      app.show({ serverId, tool: call.tool, arguments: call.arguments, result });
    }
    this.toggleAttribute('error', result.isError === true);
    if (result.isError) this.#status.append(el('p', { class: 'error' }, t('toolReportedError')));
    const parts = result.content.map((block) => this.#block(block));
    if (result.structuredContent) {
      const json = JSON.stringify(result.structuredContent, null, 2);
      parts.push(
        this.#part(t('resultStructured'), 'structured', el('div', { class: 'structured' }, jsonTree(result.structuredContent)), json),
      );
    }
    if (!parts.length) this.#status.append(el('p', { class: 'muted empty' }, t('resultEmpty')));
    this.#parts.replaceChildren(...parts);
    this.#fit();
  }

  /**
   * What reading a resource link gave, or why it failed; shown under that link. The person reads
   * the content itself (with its MIME type and a copy button); the fenced form an agent would get
   * stays folded under "As the model received it" (K5, N9).
   */
  showResource(uri: string, outcome: { parts: ShownResourcePart[]; fenced: string } | { error: string }) {
    for (const part of this.#parts.querySelectorAll<HTMLElement>('.part-resource_link')) {
      if (part.dataset.uri !== uri) continue;
      const name = part.dataset.name ?? uri;
      part
        .querySelector('.read-out')!
        .replaceChildren(...('error' in outcome ? [el('p', { class: 'error' }, outcome.error)] : this.#read(name, outcome)));
      part.querySelector<HTMLButtonElement>('button.read')!.disabled = false;
    }
    this.#fit();
  }

  #read(name: string, outcome: { parts: ShownResourcePart[]; fenced: string }): HTMLElement[] {
    const shown = outcome.parts.map((p) => {
      const mime = el('span', { class: 'label mime' }, p.mimeType ? t('resourceMime', p.mimeType) : t('resourceMimeUnknown'));
      const body =
        p.text !== undefined
          ? el('pre', { class: 'resource-text' }, p.text)
          : el('p', { class: 'muted binary' }, t('resourceBinary', p.mimeType ?? '?', bytes(p.blobBytes ?? 0)));
      const head = el('div', { class: 'part-head' }, mime);
      if (p.text !== undefined) head.append(this.#copyButton(name, p.text));
      return el('div', { class: 'resource-part', role: 'group', 'aria-label': t('resourceContent', name) }, head, body);
    });
    if (!shown.length) shown.push(el('p', { class: 'muted resource-empty' }, t('resourceEmpty')));
    const asModel = el(
      'details',
      { class: 'as-model' },
      el('summary', {}, t('resourceAsModel')),
      el('pre', { class: 'fenced' }, outcome.fenced),
    );
    return [...shown, asModel];
  }

  #setExpanded(on: boolean) {
    this.#parts.classList.toggle('expanded', on);
    this.#toggle.setAttribute('aria-expanded', String(on));
    this.#toggle.textContent = t(on ? 'collapseResult' : 'expandResult');
  }

  /** Collapses to the bounded height, and offers Expand once the parts are laid out taller than it. */
  #fit() {
    this.#setExpanded(false);
    this.#toggle.hidden = true;
    requestAnimationFrame(() => {
      if (this.#parts.scrollHeight > this.#parts.clientHeight + 1) this.#toggle.hidden = false;
    });
  }

  /** One labelled part: its label, a copy button when there is text to copy, actions, and its body. */
  #part(name: string, type: string, body: Node, copy?: string, ...actions: Node[]): HTMLElement {
    const head = el('div', { class: 'part-head' }, el('span', { class: 'label' }, name), ...actions);
    if (copy !== undefined) head.append(this.#copyButton(name, copy));
    // A group, not a section: several parts may share a label, and sections named alike are ambiguous landmarks.
    return el('div', { class: `part part-${type}`, role: 'group', 'aria-label': name }, head, body);
  }

  #copyButton(part: string, text: string) {
    const button = el('button', { type: 'button', class: 'copy', 'data-role': 'quiet', 'aria-label': t('copyPart', part) }, t('copy'));
    button.addEventListener('click', () => {
      void navigator.clipboard.writeText(text).then(
        () => this.#flash(button, t('copied')),
        () => this.#flash(button, t('copyFailed')),
      );
    });
    return button;
  }

  #flash(button: HTMLButtonElement, text: string) {
    button.textContent = text;
    setTimeout(() => (button.textContent = t('copy')), 1500);
  }

  #block(block: Record<string, unknown> & { type: string }): HTMLElement {
    switch (block.type) {
      case 'text': {
        const text = str(block.text);
        // truncateToolResult's markers start with "[… truncated" or "[… N … omitted".
        const truncated = /\[\u2026 (truncated|.*omitted)/.test(text);
        return this.#part(t('resultText'), 'text', el('pre', { class: truncated ? 'text truncated' : 'text' }, text), text);
      }
      case 'image':
      case 'audio': {
        const image = block.type === 'image';
        const src = dataUrl(block, image ? IMAGE_TYPES : AUDIO_TYPES);
        const mime = asText(block.mimeType ?? '?');
        const body = !src
          ? el(
              'p',
              { class: 'muted media-placeholder image-placeholder' },
              t('resultMediaUnsupported', t(image ? 'resultImage' : 'resultAudio'), mime),
            )
          : image
            ? el('img', { class: 'image', src, alt: t('resultImageAlt', mime) })
            : el('audio', { class: 'audio', src, controls: true });
        return this.#part(t(image ? 'resultImage' : 'resultAudio'), block.type, body);
      }
      case 'resource': {
        const r = (block.resource ?? {}) as Record<string, unknown>;
        const uri = str(r.uri);
        const body =
          typeof r.text === 'string'
            ? el('pre', { class: 'resource-text' }, r.text)
            : el('p', { class: 'muted binary' }, t('resultBinary', asText(r.mimeType ?? '?'), size(str(r.blob))));
        return this.#part(
          t('resultResource'),
          'resource',
          el('figure', { class: 'resource' }, el('figcaption', { class: 'resource-uri' }, uri), body),
          typeof r.text === 'string' ? r.text : uri,
        );
      }
      case 'resource_link':
        return this.#link(block);
      default:
        return this.#part(t('resultUnknown', block.type), 'unknown', el('p', { class: 'muted' }, `[${block.type}]`));
    }
  }

  #link(block: Record<string, unknown>): HTMLElement {
    const uri = str(block.uri);
    const name = str(block.title) || str(block.name) || uri;
    const actions: Node[] = [];
    if (this.#serverId && uri) {
      const serverId = this.#serverId;
      const read = el('button', { type: 'button', class: 'read', 'aria-label': t('readResourceOf', name) }, t('readResource'));
      read.addEventListener('click', () => {
        read.disabled = true;
        part.querySelector('.read-out')!.replaceChildren(el('p', { class: 'muted' }, t('readingResource')));
        this.emit(new ReadResourceEvent(serverId, uri));
      });
      actions.push(read);
    }
    if (isHttp(uri)) {
      // Only the user's click opens it, in a new tab that cannot reach back to the panel.
      actions.push(
        el(
          'a',
          { class: 'open', href: uri, target: '_blank', rel: 'noopener noreferrer', 'aria-label': t('openLinkOf', name) },
          t('openLink'),
        ),
      );
    }
    const body = el(
      'div',
      { class: 'resource-link' },
      el('p', {}, name),
      el('p', { class: 'link-uri muted' }, uri),
      block.description ? el('p', { class: 'muted' }, str(block.description)) : null,
      el('div', { class: 'read-out' }),
    );
    const part = this.#part(t('resultLink'), 'resource_link', body, uri, ...actions);
    part.dataset.uri = uri;
    part.dataset.name = name;
    return part;
  }
}
