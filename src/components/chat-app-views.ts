/**
 * MCP App views in the chat's conversation (section Q): a tool step whose tool names a view gets
 * it under the step. A step the panel sees start gets its view at once, with the tool input;
 * the result follows when the worker pushes it ({@link ChatStepViews.result}), or
 * `tool-cancelled` when the call ends without one. A step first seen finished (history, a panel
 * opened later) offers "Show the app" instead: browsing history loads nothing from the server.
 * At most {@link MAX_LIVE_VIEWS} views live in one conversation; starting another tears the
 * oldest down to its button. Each step's list item is kept across renders (the chat view must
 * not move it: moving an iframe reloads it).
 */
import { el } from './dom.js';
import { t } from './i18n.js';
import type { McpAppViewElement } from './mcp-app-view.js';
import type { ChatEntry } from '../protocol/panel-chat.js';
import { stepInFlight } from '../protocol/panel-chat.js';
import type { CallToolResult, Tool } from '../protocol/mcp-shapes.js';
import { BoundedMap } from '../common/bounded-map.js';

export const MAX_LIVE_VIEWS = 3;
/** Results kept for views shown again in this panel (the oldest go first). */
const KEPT_RESULTS = 20;

type ToolEntry = Extract<ChatEntry, { kind: 'tool' }>;

interface Step {
  entry: ToolEntry;
  tool: Tool;
  serverId: string;
  li: HTMLLIElement;
  slot: HTMLElement;
  app?: McpAppViewElement;
}

function argumentsOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export class ChatStepViews {
  readonly #steps = new Map<string, Step>();
  /** Entry ids of the live views, oldest first. */
  #live: string[] = [];
  readonly #results = new BoundedMap<string, CallToolResult>(KEPT_RESULTS);

  /** The step's list item: its `details`, then its live view or a "Show the app" button. */
  item(entry: ToolEntry, tool: Tool, serverId: string, details: HTMLElement): HTMLLIElement {
    let step = this.#steps.get(entry.id);
    if (step) {
      step.entry = entry;
      step.li.firstElementChild!.replaceWith(details);
    } else {
      const slot = el('div', { class: 'app-slot' });
      step = { entry, tool, serverId, li: el('li', { class: 'step-with-app' }, details, slot), slot };
      this.#steps.set(entry.id, step);
      if (stepInFlight(entry.status)) this.#start(step);
      else this.#offer(step);
    }
    if (step.app && !stepInFlight(entry.status) && !this.#results.has(entry.id)) step.app.cancelled(entry.status);
    return step.li;
  }

  /** A step's result for its view (pushed by the worker, never stored with the chat). */
  result(entryId: string, result: CallToolResult) {
    this.#results.delete(entryId);
    this.#results.set(entryId, result);
    this.#steps.get(entryId)?.app?.deliverResult(result);
  }

  /** Another conversation is shown: every view is torn down. */
  reset() {
    for (const id of this.#live) this.#teardown(this.#steps.get(id)!);
    this.#live = [];
    this.#steps.clear();
  }

  #start(step: Step) {
    const app = document.createElement('mcp-app-view');
    step.app = app;
    step.slot.replaceChildren(app);
    this.#live.push(step.entry.id);
    while (this.#live.length > MAX_LIVE_VIEWS) {
      const oldest = this.#steps.get(this.#live.shift()!);
      if (oldest) {
        this.#teardown(oldest);
        this.#offer(oldest);
      }
    }
    const { entry } = step;
    // A finished step shown again: the result this panel was given, else what the model was told.
    const result =
      this.#results.get(entry.id) ??
      (!stepInFlight(entry.status) && entry.result !== undefined
        ? { content: [{ type: 'text', text: entry.result }], ...(entry.status === 'done' ? {} : { isError: true }) }
        : undefined);
    const call = { serverId: step.serverId, tool: step.tool, arguments: argumentsOf(entry.arguments), ...(result ? { result } : {}) };
    // Shown once the item is in the document: the view finds its host by a bubbling event.
    queueMicrotask(() => app.show(call));
  }

  #offer(step: Step) {
    const button = el('button', { type: 'button', class: 'show-app', 'data-role': 'quiet' }, t('chatShowApp'));
    button.addEventListener('click', () => this.#start(step));
    step.slot.append(button);
  }

  #teardown(step: Step) {
    const app = step.app;
    step.app = undefined;
    if (!app) return;
    app.hidden = true;
    void app.close().then(() => app.remove());
  }
}
