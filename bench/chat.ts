/**
 * The chat rows of the bench (section P), against a scripted OpenAI-compatible provider on
 * loopback (test/support/provider-server.ts):
 * - time to first streamed token: the panel's own fetch to the provider, read until the first
 *   token, vs a message typed in the chat view (Enter) until that token shows in the
 *   conversation; interleaved A B B A round by round; also when each request reached the provider;
 * - per tool step: from the end of the provider's tool-call answer to the arrival of the next
 *   provider request, minus the MCP call itself (the run loop's own cost).
 */
import type { ElementHandle, Page } from 'puppeteer-core';
import { until, waitFor } from '../test/support/browser.js';
import { openView } from '../test/support/panel-views.js';
import { startProviderServer, type ProviderServer } from '../test/support/provider-server.js';
import { ratioOf, summarize, type Summary } from './stats.js';

/** A provider as far as a real one: 40 ms round trip and 200 ms to the first token. */
export const REMOTE_FIRST_BYTE_MS = 40 + 200;

export interface ChatBench {
  firstToken: { direct: Summary; extension: Summary };
  /** The same against a provider {@link REMOTE_FIRST_BYTE_MS} away: what a user feels. */
  remote: { direct: Summary; extension: Summary; ratio: { ratio: number; min: number; max: number } };
  /** From the start (fetch call or key press) to the request's arrival at the provider. */
  requestArrives: { direct: Summary; extension: Summary };
  ratio: { ratio: number; min: number; max: number };
  toolStepOverhead: Summary;
  mcpCall: Summary;
  tool: string;
}

const V = 'mcp-chat-view >>> ';

/** The panel's own fetch, read until the first token: [ms, epoch ms of the start]. */
const directFetch = (base: string) => `(async () => {
  const t0 = performance.now();
  const r = await fetch(${JSON.stringify(`${base}/chat/completions`)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', stream: true, messages: [] }) });
  const reader = r.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('"content":"Hi"')) { const { value, done } = await reader.read(); if (done) break; text += decoder.decode(value, { stream: true }); }
  const ms = performance.now() - t0;
  await reader.cancel();
  return [ms, performance.timeOrigin + t0];
})()`;

/** Enter in the chat view until the first token shows: [ms, epoch ms of the key press]. */
const viaChat = `new Promise((resolve) => {
  const root = document.querySelector('mcp-chat-view').shadowRoot;
  const textarea = root.querySelector('mcp-composer').shadowRoot.querySelector('textarea');
  const observer = new MutationObserver(() => {
    const answer = [...root.querySelectorAll('li.assistant')].at(-1);
    if (answer && answer.textContent.includes('Hi')) { observer.disconnect(); resolve([performance.now() - t0, performance.timeOrigin + t0]); }
  });
  observer.observe(root, { subtree: true, childList: true, characterData: true });
  textarea.value = 'bench';
  const t0 = performance.now();
  textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
})`;

const lastAssistantText = (panel: Page) => panel.$$eval(`${V}li.assistant`, (els) => els.at(-1)?.textContent ?? '');
const idle = (panel: Page) => panel.evaluate(`document.querySelector('mcp-chat-view').chat?.status !== 'running'`) as Promise<boolean>;

async function newChat(panel: Page) {
  await until('no run in progress', async () => (await idle(panel)) || undefined);
  await panel.click(`${V}button.new`);
  await until('an empty chat', async () => (await panel.$$(`${V}ol.log > li`)).length === 0 || undefined);
}

/** `tool`: an agent tool name the model may call (an echo taking `{text}`). */
export async function benchChat(panel: Page, tool: string, p: { rounds: number; steps: number; stepRuns: number }): Promise<ChatBench> {
  const provider: ProviderServer = await startProviderServer();
  try {
    await openView(panel, 'chat');
    await waitFor(panel, `${V}input[name="base-url"]`);
    await panel.type(`${V}input[name="base-url"]`, provider.openAiBase);
    await panel.type(`${V}input[name="model"]`, 'bench-model');
    await panel.type(`${V}input[name="api-key"]`, 'sk-bench');
    await panel.click(`${V}form.provider button[type="submit"]`);
    await until('the provider form to close', async () => !(await panel.$(`${V}form.provider`)));

    const direct = async (firstByteMs = 0) => {
      provider.script({ kind: 'stream', text: ['Hi', ' there'], firstByteMs });
      const [ms, start] = (await panel.evaluate(directFetch(provider.openAiBase))) as [number, number];
      return [ms, provider.requests.at(-1)!.receivedAt - start] as const;
    };
    const via = async (firstByteMs = 0) => {
      await newChat(panel);
      provider.script({ kind: 'stream', text: ['Hi', ' there'], firstByteMs });
      const [ms, start] = (await panel.evaluate(viaChat)) as [number, number];
      await until(
        'the answer to end',
        async () => ((await lastAssistantText(panel)).includes('there') && (await idle(panel))) || undefined,
      );
      return [ms, provider.requests.at(-1)!.receivedAt - start] as const;
    };
    // Warm-up: the provider connection, the view's first renders, the worker's caches.
    for (let i = 0; i < 2; i++) {
      await direct();
      await via();
    }
    const d: (readonly [number, number])[] = [];
    const v: (readonly [number, number])[] = [];
    for (let r = 0; r < p.rounds; r++) {
      if (r % 2 === 0) {
        d.push(await direct());
        v.push(await via());
      } else {
        v.push(await via());
        d.push(await direct());
      }
    }

    // The same, against a provider as far away as a real one.
    const rd: (readonly [number, number])[] = [];
    const rv: (readonly [number, number])[] = [];
    for (let r = 0; r < Math.max(2, Math.ceil(p.rounds / 2)); r++) {
      if (r % 2 === 0) {
        rd.push(await direct(REMOTE_FIRST_BYTE_MS));
        rv.push(await via(REMOTE_FIRST_BYTE_MS));
      } else {
        rv.push(await via(REMOTE_FIRST_BYTE_MS));
        rd.push(await direct(REMOTE_FIRST_BYTE_MS));
      }
    }

    // Tool steps: "always" for the tool once (if the user had not), then runs of `steps` calls each.
    const overhead: number[] = [];
    const calls: number[] = [];
    for (let run = -1; run < p.stepRuns; run++) {
      await newChat(panel);
      const steps = run < 0 ? 1 : p.steps;
      provider.script(
        ...Array.from({ length: steps }, (_, i) => ({
          kind: 'stream' as const,
          toolCalls: [{ id: `b${run + 1}_${i}`, name: tool, arguments: `{"text":"step ${i}"}` }],
        })),
        { kind: 'stream', text: ['Bench done.'] },
      );
      const before = provider.requests.length;
      await panel.type(`${V}mcp-composer >>> textarea`, 'Echo');
      await panel.keyboard.press('Enter');
      await until(
        'the steps to finish',
        async () => {
          const card = (await panel.$(`${V}mcp-approval-card`)) as ElementHandle<Element> | null;
          const always = await card?.$('>>> button[data-decision="always"]');
          if (always) await always.click().catch(() => undefined);
          return ((await lastAssistantText(panel)).includes('Bench done.') && (await idle(panel))) || undefined;
        },
        60_000,
      );
      if (run < 0) continue;
      const requests = provider.requests.slice(before);
      const durations = (await panel.evaluate(
        `document.querySelector('mcp-chat-view').chat.entries.filter((e) => e.kind === 'tool').map((e) => e.durationMs ?? 0)`,
      )) as number[];
      durations.forEach((ms, i) => {
        overhead.push(requests[i + 1]!.receivedAt - requests[i]!.endedAt! - ms);
        calls.push(ms);
      });
    }
    return {
      firstToken: { direct: summarize(d.map((x) => x[0])), extension: summarize(v.map((x) => x[0])) },
      requestArrives: { direct: summarize(d.map((x) => x[1])), extension: summarize(v.map((x) => x[1])) },
      remote: {
        direct: summarize(rd.map((x) => x[0])),
        extension: summarize(rv.map((x) => x[0])),
        ratio: ratioOf(
          rv.map((x) => x[0]),
          rd.map((x) => x[0]),
        ),
      },
      ratio: ratioOf(
        v.map((x) => x[0]),
        d.map((x) => x[0]),
      ),
      toolStepOverhead: summarize(overhead),
      mcpCall: summarize(calls.length ? calls : [NaN]),
      tool,
    };
  } finally {
    await provider.close();
  }
}
