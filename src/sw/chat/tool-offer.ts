/**
 * Which tools each request of a run offers (T2), never more than the provider's limit:
 * - the chat's selection as it is, when it fits the limit and the chat did not choose tool search;
 * - otherwise tool search: the search tool, plus the tools the turn's searches loaded (the most
 *   recent {@link MAX_LOADED}, and always fewer than the limit). Going over the limit mid-run (a
 *   server brought more tools) turns tool search on for the rest of the turn, and the chat says so.
 * A call is run only for a tool this run offers: a name the model makes up, or one the user
 * switched off for this chat, is refused before it reaches the registry; the search searches
 * the selection only, so it cannot reach a switched-off tool either.
 */
import type { ChatEntry, ChatView, PROVIDER_KINDS, ToolBudget } from '../../protocol/panel-chat.js';
import type { AgentTool } from '../use/tool-registry.js';
import type { ToolSpec } from './providers/types.js';
import { measureTools, requestToolSpecs, toolLimitOf } from './tool-budget.js';
import { queryOf, rankTools, SEARCH_RESULTS, SEARCH_TOOL_NAME, searchResultText, searchToolSpec } from './tool-search.js';
import { selectedTools, type ToolSelection } from './tool-selection.js';

/** Most tools a turn's searches keep loaded at once. */
export const MAX_LOADED = 32;

type ToolEntry = Extract<ChatEntry, { kind: 'tool' }>;
type SearchReason = 'chosen' | 'over-limit';

/** The tools the chat answers itself (the search tool): what the run loop asks of them. */
export interface LocalTools {
  /** Their definitions, offered after the server tools in the next request. */
  specs(): ToolSpec[];
  /** Settles the step when it calls one of them (and may add a line to the chat); false for a server tool. */
  answer(chat: ChatView, step: ToolEntry): boolean;
}

export interface ToolOffer extends LocalTools {
  /** The server tools of the next request (may add the "tool search is on" line to the chat). */
  tools(): AgentTool[];
  /** Whether the run offers this tool, so a call to it may go to the registry. */
  callable(name: string): boolean;
}

export interface OfferDeps {
  /** The registry's enabled tools now. */
  list(): AgentTool[];
  limit: number;
  newId(): string;
}

/** Why the turn uses tool search, or undefined when the selection goes out as it is. */
export function searchReason(selected: number, limit: number, chosen: boolean | undefined): SearchReason | undefined {
  if (chosen) return 'chosen';
  return selected > limit ? 'over-limit' : undefined;
}

const displayName = (t: AgentTool) => `${t.title ?? t.toolName} · ${t.serverName}`;

type OfferChat = Pick<ChatView, 'disabledTools' | 'disabledServers' | 'toolSearch' | 'entries'>;

/** The offer of one run; `chat` is the run's chat, its selection read at every request. */
export function createToolOffer(chat: OfferChat, deps: OfferDeps): ToolOffer {
  const cap = Math.max(0, Math.min(MAX_LOADED, deps.limit - 1));
  let mode: SearchReason | undefined;
  let loaded: string[] = [];
  let offered = new Set<string>();
  const selection = () => selectedTools(deps.list(), chat);

  function decide(selected: readonly AgentTool[]) {
    if (mode) return;
    mode = searchReason(selected.length, deps.limit, chat.toolSearch);
    if (mode) chat.entries.push({ kind: 'tool-search', id: deps.newId(), reason: mode, offered: selected.length, limit: deps.limit });
  }

  function answerSearch(chat: ChatView, step: ToolEntry) {
    const query = queryOf(step.arguments);
    if (query === undefined) {
      step.status = 'error';
      step.result = `${SEARCH_TOOL_NAME} needs its arguments as {"query": "a few words"}.`;
      return;
    }
    const found = rankTools(selection(), query, Math.min(SEARCH_RESULTS, cap));
    const names = found.map((t) => t.name);
    loaded = cap ? [...loaded.filter((n) => !names.includes(n)), ...names].slice(-cap) : [];
    step.status = 'done';
    step.result = searchResultText(query, found);
    chat.entries.push({ kind: 'tools-loaded', id: deps.newId(), query, tools: found.map(displayName) });
  }

  return {
    tools() {
      const selected = selection();
      decide(selected);
      const kept = mode ? selected.filter((t) => loaded.includes(t.name)) : selected;
      offered = new Set(kept.map((t) => t.name));
      return kept;
    },
    specs: () => (mode ? [searchToolSpec(selection().length)] : []),
    answer(chat, step) {
      if (!mode || step.name !== SEARCH_TOOL_NAME) return false;
      answerSearch(chat, step);
      step.durationMs = 0;
      return true;
    },
    // Offered in a request of this run, or loaded by a search since (called in the same step).
    callable: (name) => offered.has(name) || (mode !== undefined && loaded.includes(name) && selection().some((t) => t.name === name)),
  };
}

/**
 * What the first request of a turn would offer now, measured as the adapter sends it: the same
 * offer a run makes, on a copy of the chat's selection.
 */
export function toolBudget(
  all: AgentTool[],
  selection: ToolSelection,
  provider: { kind: (typeof PROVIDER_KINDS)[number]; toolLimit?: number | undefined } | undefined,
): ToolBudget {
  const limit = toolLimitOf(provider);
  const scratch: OfferChat = {
    disabledTools: [...selection.disabledTools],
    ...(selection.disabledServers ? { disabledServers: [...selection.disabledServers] } : {}),
    ...(selection.toolSearch ? { toolSearch: true } : {}),
    entries: [],
  };
  const offer = createToolOffer(scratch, { list: () => all, limit, newId: () => 'estimate' });
  const builtin = provider?.kind === 'builtin';
  const specs = builtin ? [] : requestToolSpecs(offer.tools(), offer.specs());
  const search = builtin ? undefined : searchReason(selectedTools(all, selection).length, limit, selection.toolSearch);
  return {
    selected: selectedTools(all, selection).length,
    offered: specs.length,
    ...measureTools(provider?.kind ?? 'openai', specs),
    limit,
    ...(search ? { search } : {}),
    ...(provider ? { kind: provider.kind } : {}),
  };
}
