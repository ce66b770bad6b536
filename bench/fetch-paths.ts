/**
 * `npx tsx bench/fetch-paths.ts [rounds]`: where the chat's time to first token goes before the
 * request reaches the provider (section P). The same POST to one loopback server from the panel
 * page, the service worker and the offscreen document, with and without the chat's fetch options
 * (`credentials: 'omit'`, no Referer), a small vs a chat-sized body, `priority: 'high'`,
 * `keepalive`, on a warm connection and on one the server just closed; and the first fetch of a
 * freshly woken worker. Each number is the time from `fetch()` to the request's headers (and
 * body) arriving at the server, in ms; variants interleaved round by round. Prints a table.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, WebWorker } from 'puppeteer-core';
import { addServers, offscreenPage, startRig, stopWorker, waitReady } from './extension.js';
import { summarize } from './stats.js';
import { until, waitFor } from '../test/support/browser.js';
import { openView } from '../test/support/panel-views.js';
import { startDemoServer } from '../test/support/demo-server.js';

const rounds = Number(process.argv[2] ?? 15);
const arrivals: { at: number; bodyAt: number; path: string }[] = [];
const server = createServer((req: IncomingMessage, res) => {
  const at = Date.now();
  req.resume();
  req.on('end', () => {
    arrivals.push({ at, bodyAt: Date.now(), path: req.url ?? '' });
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
    res.end('ok');
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

// A chat-sized body: the system prompt, a message and ~40 tools with schemas (about 30 KB).
const bigBody = JSON.stringify({
  model: 'm',
  stream: true,
  messages: [{ role: 'user', content: 'hello' }],
  tools: Array.from({ length: 40 }, (_, i) => ({
    type: 'function',
    function: {
      name: `mcp__s__tool_${i}`,
      description: 'x'.repeat(300),
      parameters: { type: 'object', properties: { a: { type: 'string', description: 'y'.repeat(300) } } },
    },
  })),
});
const OPTIONS: Record<string, string> = {
  plain: `{}`,
  chat: `{ credentials: 'omit', referrerPolicy: 'no-referrer', headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: 'Bearer sk-x' } }`,
  'chat+high': `{ credentials: 'omit', referrerPolicy: 'no-referrer', priority: 'high', headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: 'Bearer sk-x' } }`,
  'chat+keepalive': `{ credentials: 'omit', referrerPolicy: 'no-referrer', keepalive: true, headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: 'Bearer sk-x' } }`,
};
/**
 * `busyMs`: the thread stays busy that long right after `fetch()` returns (as a run's first push
 * did); negative: the same, after one `setTimeout(0)`.
 */
const code = (opts: string, body: 'small' | 'big', tag: string, busyMs = 0) => `(async () => {
  const body = ${body === 'big' ? JSON.stringify(bigBody) : `'{"model":"m"}'`};
  const t0 = Date.now();
  const pending = fetch(${JSON.stringify(url)} + '/' + ${JSON.stringify(tag)}, { method: 'POST', body, ...${opts} });
  ${busyMs < 0 ? 'await new Promise((r) => setTimeout(r, 0));' : ''}
  while (Date.now() - t0 < ${Math.abs(busyMs)});
  const r = await pending;
  await r.text();
  return t0;
})()`;

const demo = await startDemoServer();
const rig = await startRig();
try {
  // One MCP server, so the offscreen document exists.
  await addServers(rig, [{ id: 'demo', url: demo.url }]);
  await waitReady(rig, ['demo']);
  // The host permission for 127.0.0.1, granted the way a user does it: saving chat settings.
  const panel = rig.panel;
  await openView(panel, 'chat');
  await waitFor(panel, 'mcp-chat-view >>> input[name="base-url"]');
  await panel.type('mcp-chat-view >>> input[name="base-url"]', url);
  await panel.type('mcp-chat-view >>> input[name="model"]', 'm');
  await panel.click('mcp-chat-view >>> form.provider button[type="submit"]');
  await until('the provider form to close', async () => !(await panel.$('mcp-chat-view >>> form.provider')));
  const off = await offscreenPage(rig);
  const worker = async () => rig.ext.serviceWorker();
  const contexts: Record<string, () => Promise<Page | WebWorker>> = { panel: async () => panel, worker, offscreen: async () => off };

  const samples = new Map<string, { head: number[]; body: number[] }>();
  const measure = async (name: string, ctx: Page | WebWorker, opts: string, body: 'small' | 'big', cold: boolean, busyMs = 0) => {
    if (cold) server.closeAllConnections();
    const tag = `${name.replace(/[^a-z0-9+]/gi, '_')}-${arrivals.length}`;
    const t0 = (await ctx.evaluate(code(opts, body, tag, busyMs))) as number;
    const a = arrivals.find((x) => x.path.endsWith(tag))!;
    const s = samples.get(name) ?? { head: [], body: [] };
    s.head.push(a.at - t0);
    s.body.push(a.bodyAt - t0);
    samples.set(name, s);
  };
  const variants: [string, string, string, 'small' | 'big', boolean][] = [];
  for (const c of Object.keys(contexts))
    for (const o of Object.keys(OPTIONS)) for (const b of ['small', 'big'] as const) variants.push([`${c} ${o} ${b} warm`, c, o, b, false]);
  for (const c of Object.keys(contexts)) for (const o of ['plain', 'chat']) variants.push([`${c} ${o} big cold`, c, o, 'big', true]);
  for (const [, c, o, b] of variants) await measure('warm-up', await contexts[c]!(), OPTIONS[o]!, b, false);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...variants].reverse() : variants;
    for (const [name, c, o, b, cold] of order) await measure(name, await contexts[c]!(), OPTIONS[o]!, b, cold);
    for (const c of ['worker', 'panel'])
      for (const busy of [20, -20])
        await measure(
          `${c} chat big warm, thread busy 20 ms after fetch()${busy < 0 ? ' and a setTimeout(0)' : ''}`,
          await contexts[c]!(),
          OPTIONS.chat!,
          'big',
          false,
          busy,
        );
    // A freshly woken worker: its first fetch, then a second one.
    await stopWorker(rig);
    await panel.evaluate(`__bench.request('panel:chat-list', {})`);
    const w = await worker();
    await measure('worker chat big, first fetch after wake', w, OPTIONS.chat!, 'big', false);
    await measure('worker chat big, second fetch after wake', w, OPTIONS.chat!, 'big', false);
  }
  samples.delete('warm-up');
  console.log(`\n${rounds} rounds. fetch() → request headers / whole body at the server, ms (p50, p95)\n`);
  console.log('| variant | headers p50 | p95 | body p50 | p95 |\n|---|---:|---:|---:|---:|');
  for (const [name, s] of samples) {
    const h = summarize(s.head);
    const b = summarize(s.body);
    console.log(`| ${name} | ${h.p50.toFixed(1)} | ${h.p95.toFixed(1)} | ${b.p50.toFixed(1)} | ${b.p95.toFixed(1)} |`);
  }
} finally {
  await rig.close();
  await demo.close();
  server.close();
}
