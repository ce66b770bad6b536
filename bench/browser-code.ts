/**
 * Measuring code that runs unchanged in Node, in the offscreen document and in the panel page,
 * so "the same bare fetch" really is the same code everywhere. It is a plain-JS string installed
 * as `globalThis.__bench` (with `vm` in Node, DevTools `evaluate` in pages): a function passed to
 * Puppeteer would be transpiled by tsx first, and its helpers do not exist in the page.
 * Times are taken inside the measured context with `performance.now()`, so DevTools round trips
 * are never part of a sample.
 */
import { PANEL_PORT } from '../src/protocol/panel.js';
import { PANEL_REQUESTER } from '../test/support/panel-request.js';

export const BENCH_CODE = String.raw`
globalThis.__bench = globalThis.__bench || {
  sessions: new Map(),
  headers(sid) {
    const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (sid) { h['mcp-session-id'] = sid; h['mcp-protocol-version'] = '2025-06-18'; }
    return h;
  },
  async session(url) {
    if (this.sessions.has(url)) return this.sessions.get(url);
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-fetch', version: '1' } } };
    const r = await fetch(url, { method: 'POST', headers: this.headers(), body: JSON.stringify(init) });
    await r.text();
    const sid = r.headers.get('mcp-session-id');
    if (!sid) throw new Error('no session id from ' + url);
    const n = await fetch(url, { method: 'POST', headers: this.headers(sid), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    await n.text();
    this.sessions.set(url, sid);
    return sid;
  },
  /** The body of the bare tools/call echo every floor sends (fetchBatch, serveRelay). */
  echoBody(id) {
    return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } });
  },
  /** n sequential tools/call echo over one initialized session; returns ms per call. */
  async fetchBatch(url, n) {
    const sid = await this.session(url);
    const out = [];
    for (let i = 0; i < n; i++) {
      const body = this.echoBody(i + 1);
      const t0 = performance.now();
      const r = await fetch(url, { method: 'POST', headers: this.headers(sid), body });
      const text = await r.text();
      out.push(performance.now() - t0);
      if (!text.includes('echo: x')) throw new Error('unexpected answer: ' + text.slice(0, 200));
    }
    return out;
  },
  panelRequester: null,
  /**
   * Panel page: a request as the panel sends it (src/panel/port-requests.ts), on a panel Port of
   * the bench's own, connected when down (which wakes a stopped worker, as the panel's does); the
   * requester is the e2e tests' (test/support/panel-request.ts).
   */
  request(type, params) {
    // The cold phase (run.ts) swaps runtime.connect for a dead Port so that the panel's own
    // reconnects wake nothing; the measured request keeps the real one (benchConnect).
    this.panelRequester = this.panelRequester || (${PANEL_REQUESTER})((name) =>
      (chrome.runtime.benchConnect || chrome.runtime.connect).call(chrome.runtime, { name }));
    return this.panelRequester.request(type, params);
  },
  call(serverId, tool, args) {
    return this.request('panel:call-tool', { serverId, tool, arguments: args });
  },
  /** n sequential panel:call-tool echo (panel → worker → offscreen → server); ms per call. */
  async panelBatch(serverId, n) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const r = await this.call(serverId, 'echo', { text: 'x' });
      out.push(performance.now() - t0);
      if (!r || !r.ok) throw new Error('call failed: ' + JSON.stringify(r && r.error));
    }
    return out;
  },
  /**
   * Panel side of an "always" grant: the next approval card pushed on a panel Port of its own is
   * answered 'always' (the worker then runs that tool without asking, as after a user's choice).
   */
  grantAlwaysNext() {
    return new Promise((resolve, reject) => {
      const port = chrome.runtime.connect({ name: '${PANEL_PORT}' });
      const timer = setTimeout(() => { port.disconnect(); reject(new Error('no approval card within 10 s')); }, 10000);
      port.onMessage.addListener(async (m) => {
        if (!m || m.type !== 'panel:approvals' || !m.approvals.length) return;
        const id = m.approvals[m.approvals.length - 1].id;
        const r = await this.request('panel:answer-approval', { approvalId: id, decision: 'always' });
        clearTimeout(timer);
        port.disconnect();
        if (r && r.ok) resolve(id); else reject(new Error('answer-approval failed: ' + JSON.stringify(r)));
      });
    });
  },
  /** Worker side: n sequential AgentTool.call of the named tool, as an agent engine makes them; ms per call. */
  async agentBatch(name, n) {
    const tools = globalThis.remoteMcp.agentTools;
    const out = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const r = await tools.call(name, { text: 'x' });
      out.push(performance.now() - t0);
      if (!JSON.stringify(r.result).includes('echo: x')) throw new Error('unexpected agent answer: ' + JSON.stringify(r).slice(0, 200));
    }
    return out;
  },
  /**
   * Offscreen document: serves a MessageChannel the worker hands it (see relayBatch): each message
   * names a URL, and is answered with the text of the same bare tools/call fetch as fetchBatch's
   * (echoBody), or, for \`sdk\`, of the SDK's own Client.callTool (bench/sdk-floor-entry.ts).
   * Bench code only: the extension's document takes no such port.
   */
  serveRelay() {
    if (this.relaying) return true;
    this.relaying = true;
    navigator.serviceWorker.addEventListener('message', (e) => {
      if (!e.data || e.data.benchRelay !== true || !e.ports[0]) return;
      const port = e.ports[0];
      let id = 1e6;
      port.onmessage = async (m) => {
        const url = m.data.url;
        if (m.data.sdk) {
          port.postMessage({ kind: 'response', id: m.data.id, text: await globalThis.__sdkFloor.once(url) });
          return;
        }
        const sid = await this.session(url);
        const r = await fetch(url, { method: 'POST', headers: this.headers(sid), body: this.echoBody(id++) });
        port.postMessage({ kind: 'response', id: m.data.id, text: await r.text() });
      };
    });
    return true;
  },
  /**
   * Worker: n sequential calls of the agent path's shape with none of the extension's code: the
   * worker asks the offscreen document on a MessageChannel of the bench's own, the document makes
   * the bare fetch (or, with \`sdk\`, the SDK's callTool) and answers. Over the bare fetch alone,
   * this is the browser's cost of the two hops between the worker and the document under the same
   * idle gaps; with the SDK, the floor of the whole path before any of the extension's code; ms per call.
   */
  async relayBatch(url, n, sdk) {
    if (!this.relayPort) {
      const [doc] = (await clients.matchAll({ includeUncontrolled: true })).filter((c) => c.url.endsWith('/offscreen.html'));
      if (!doc) throw new Error('no offscreen document');
      const ch = new MessageChannel();
      doc.postMessage({ benchRelay: true }, [ch.port2]);
      this.relayPort = ch.port1;
    }
    const port = this.relayPort;
    const once = (id) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer from the offscreen document within 5 s')), 5000);
      port.onmessage = (m) => { clearTimeout(timer); resolve(m.data); };
      port.postMessage({ id, url, sdk: !!sdk });
    });
    const out = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const answer = await once(i);
      out.push(performance.now() - t0);
      if (!answer.text.includes('echo: x')) throw new Error('unexpected relay answer: ' + answer.text.slice(0, 200));
    }
    return out;
  },
  /** n sequential panel → worker round trips of a request the worker refuses before any work. */
  async msgBatch(n) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const r = await this.request('panel:bench-no-such-method', {});
      out.push(performance.now() - t0);
      if (!r || r.ok !== false) throw new Error('expected a refusal, got ' + JSON.stringify(r));
    }
    return out;
  },
  /**
   * The browser's own floor for panelConcurrent: the same perServer tools/call of \`slow\` in flight at
   * once on every server, as bare fetches over one initialized session per server (no extension code).
   * Each asks for progress as the extension's calls do (a progress token: the panel shows progress and
   * it keeps a long call from timing out), so the server sends the same progress event first.
   */
  async fetchConcurrent(urls, perServer, args) {
    const sids = await Promise.all(urls.map((u) => this.session(u)));
    const t0 = performance.now();
    const jobs = [];
    let id = 1000;
    urls.forEach((url, k) => {
      for (let i = 0; i < perServer; i++) {
        const s = performance.now();
        const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: args, _meta: { progressToken: id } } });
        id++;
        jobs.push(fetch(url, { method: 'POST', headers: this.headers(sids[k]), body })
          .then((r) => r.text())
          .then((text) => ({ ok: text.includes('"result"'), ms: performance.now() - s, error: text.includes('"result"') ? undefined : text.slice(0, 200) }),
            (e) => ({ ok: false, ms: performance.now() - s, error: String(e) })));
      }
    });
    return this.settled(t0, jobs);
  },
  /** perServer calls in flight at once on every server; wall time and every outcome. */
  async panelConcurrent(serverIds, perServer, args) {
    const t0 = performance.now();
    const jobs = [];
    for (const id of serverIds) for (let i = 0; i < perServer; i++) {
      const s = performance.now();
      jobs.push(this.call(id, 'slow', args).then((r) => ({ ok: !!(r && r.ok), ms: performance.now() - s, error: r && r.ok ? undefined : JSON.stringify(r && r.error) }), (e) => ({ ok: false, ms: performance.now() - s, error: String(e) })));
    }
    return this.settled(t0, jobs);
  },
  /**
   * Worker side of panelConcurrent: perServer AgentTool.call of each named tool in flight at once,
   * as an agent running many calls would make them (each tool needs a standing "always" grant).
   */
  async agentConcurrent(names, perServer, args) {
    const tools = globalThis.remoteMcp.agentTools;
    const t0 = performance.now();
    const jobs = [];
    for (const name of names) for (let i = 0; i < perServer; i++) {
      const s = performance.now();
      jobs.push(tools.call(name, args).then(() => ({ ok: true, ms: performance.now() - s }), (e) => ({ ok: false, ms: performance.now() - s, error: String(e && e.message || e) })));
    }
    return this.settled(t0, jobs);
  },
  async settled(t0, jobs) {
    const results = await Promise.all(jobs);
    return { wallMs: performance.now() - t0, ok: results.filter((r) => r.ok).length, latencies: results.map((r) => r.ms), errors: results.filter((r) => !r.ok).slice(0, 3).map((r) => r.error) };
  },
  /**
   * The places a big catalog is listed: the server detail (mcp-server-detail → mcp-tool-list,
   * which attaches one page of rows) and the Tools view (mcp-tools-view, every row), the latter
   * handed one server (\`tools\`) or many (\`tools10k\`: 20 servers × 500 tools, kept as an element
   * of its own). For each: the element, how to hand it the servers, the shadow root holding its
   * rows and search.
   */
  targets: {
    detail: {
      tag: 'mcp-server-detail',
      set(node, views) { node.server = views[0]; },
      root(node) { const l = node.shadowRoot && node.shadowRoot.querySelector('mcp-tool-list'); return l && l.shadowRoot; },
    },
    tools: {
      tag: 'mcp-tools-view',
      set(node, views) { node.servers = views; },
      root(node) { return node.shadowRoot; },
    },
    get tools10k() { return this.tools; },
  },
  /** The servers' views from a fresh get-state, in the order of \`ids\` (one id or a list). */
  async views(ids) {
    const servers = (await this.state()).servers;
    return [].concat(ids).map((id) => servers.find((s) => s.id === id));
  },
  rows(kind, node) {
    const root = this.targets[kind].root(node);
    return root ? [...root.querySelectorAll('ul > li')] : [];
  },
  /** Long tasks (> 50 ms of main-thread work) seen until stop() is called: their durations in ms. */
  longTasks() {
    const seen = [];
    const obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) seen.push(e.duration); });
    obs.observe({ type: 'longtask' });
    return () => { for (const e of obs.takeRecords()) seen.push(e.duration); obs.disconnect(); return seen; };
  },
  /** Resolves after the next frame was produced: a task queued from requestAnimationFrame runs after that frame's paint. */
  nextFrame() {
    return new Promise((r) => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); }));
  },
  /**
   * reps fresh elements of one kind, each timed from handing it the server until the next frame
   * was painted (and, separately, until every row it will attach is in: the Tools view may add
   * rows in later frames). The last element stays for filterKeys and samePush.
   */
  async firstRender(kind, serverIds, reps) {
    const views = await this.views(serverIds);
    const target = this.targets[kind];
    const tools = views.reduce((n, v) => n + v.tools.length, 0);
    const want = kind === 'detail' ? Math.min(100, tools) : tools;
    const frame = [];
    const complete = [];
    let rowsAtFrame = 0;
    const stop = this.longTasks();
    if (this[kind]) this[kind].remove();
    for (let i = 0; i < reps; i++) {
      const node = document.createElement(target.tag);
      document.body.append(node);
      await this.nextFrame();
      const t0 = performance.now();
      target.set(node, views);
      await this.nextFrame();
      frame.push(performance.now() - t0);
      rowsAtFrame = this.rows(kind, node).length;
      await this.rowsAtLeast(kind, node, want);
      complete.push(performance.now() - t0);
      if (i < reps - 1) node.remove(); else this[kind] = node;
    }
    return { frameMs: frame, completeMs: complete, longTasks: stop(), tools, servers: views.length, rows: rowsAtFrame };
  },
  /**
   * Hides the other list elements firstRender left in the page, as the panel shows one view at a
   * time: their laid-out rows would otherwise add to every frame measured on this one.
   */
  showOnly(kind) {
    for (const k of ['detail', 'tools', 'tools10k']) if (k !== kind && this[k]) this[k].hidden = true;
  },
  /** Polls every 5 ms until the element holds \`want\` rows (10,000 rows take many chunks), for at most 30 s. */
  async rowsAtLeast(kind, node, want) {
    const until = performance.now() + 30000;
    while (this.rows(kind, node).length < want && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
  },
  /**
   * n keystrokes in the element's search input, typing \`word\` and clearing it, over and over.
   * Each keystroke is timed twice: from dispatching the input event until style and layout are
   * done (forced), and until the next frame was painted (which includes the wait for vsync).
   */
  async filterKeys(kind, n, word = 'tool_09') {
    const node = this[kind];
    const root = this.targets[kind].root(node);
    const input = root && root.querySelector('input[type=search]');
    if (!input) return null;
    const full = this.rows(kind, node).length;
    const layout = [];
    const frame = [];
    const rows = [];
    const changed = [];
    let text = '';
    await this.nextFrame();
    const stop = this.longTasks();
    for (let i = 0; i < n; i++) {
      text = text.length < word.length ? word.slice(0, text.length + 1) : '';
      const before = this.rows(kind, node).length;
      const t0 = performance.now();
      input.value = text;
      input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: text ? 'insertText' : 'deleteContentBackward', data: text.slice(-1) || null }));
      node.getBoundingClientRect(); document.body.offsetHeight;
      layout.push(performance.now() - t0);
      await this.nextFrame();
      frame.push(performance.now() - t0);
      rows.push(this.rows(kind, node).length);
      changed.push(rows[i] !== before);
    }
    // Leave the element unfiltered and fully built for samePush.
    input.value = '';
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'deleteContentBackward' }));
    for (let k = 0; k < 200; k++) await new Promise((r) => setTimeout(r, 5));
    await this.rowsAtLeast(kind, node, full);
    return { ms: layout, frameMs: frame, changed, longTasks: stop(), rowsMin: Math.min(...rows), rowsMax: Math.max(...rows) };
  },
  /**
   * reps state pushes that change nothing visible (a fresh get-state: equal content, new objects),
   * each timed until the next frame, counting the row elements that are not the ones shown before.
   */
  async samePush(kind, serverIds, reps) {
    const node = this[kind];
    const ms = [];
    let replaced = 0;
    let rows = 0;
    for (let i = 0; i < reps; i++) {
      const views = await this.views(serverIds);
      const before = new Set(this.rows(kind, node));
      const t0 = performance.now();
      this.targets[kind].set(node, views);
      await this.nextFrame();
      ms.push(performance.now() - t0);
      const after = this.rows(kind, node);
      rows = after.length;
      replaced += after.filter((li) => !before.has(li)).length;
    }
    return { ms, replaced, rows };
  },
  /**
   * An answer streamed into a fresh <mcp-chat-view> through its public API: seconds × rate tokens,
   * one setText (the whole text so far, as the worker pushes it) every 1000/rate ms, with Markdown
   * (paragraphs, a list, code) in the text. Reports every long task seen meanwhile. The list elements
   * firstRender left in the page (detail, tools) are hidden meanwhile, as the panel shows one
   * view at a time: their ~1,100 laid-out rows (11,000 layout objects) otherwise made every
   * streamed frame's pre-paint and paint dearer than the chat's own work (timer lateness p50
   * 7–15 ms instead of 0.3–1 ms, measured back to back).
   */
  async chatStream(seconds, rate) {
    const others = [this.detail, this.tools, this.tools10k].filter((e) => e && !e.hidden);
    for (const e of others) e.hidden = true;
    // Their removal from layout is its own (long) frame: done before the stream is measured.
    await this.nextFrame();
    await new Promise((r) => setTimeout(r, 100));
    try {
      return await this.streamInto(seconds, rate);
    } finally {
      for (const e of others) e.hidden = false;
    }
  },
  async streamInto(seconds, rate) {
    const chat = document.createElement('mcp-chat-view');
    document.body.append(chat);
    const view = { id: 'bench', title: 'Bench', createdAt: 0, updatedAt: 0, disabledTools: [], status: 'running', entries: [
      { kind: 'user', id: 'u1', text: 'Explain', blocks: [] },
      { kind: 'assistant', id: 'a1', text: '', toolCalls: [], streaming: true },
    ] };
    chat.chat = view;
    await this.nextFrame();
    const words = ['the', 'server', '**returns**', 'a', 'list', 'of', '\`tools\`', 'and', 'each', 'one', 'has', 'a', 'schema.'];
    let text = '';
    const n = Math.round(seconds * rate);
    const stop = this.longTasks();
    const late = [];
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const due = t0 + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      late.push(Math.max(0, performance.now() - due));
      text += (i % 40 === 39 ? '\n\n' : i % 97 === 96 ? '\n\n- item\n- item\n\n' : i % 151 === 150 ? '\n\n\`\`\`\ncode()\n\`\`\`\n\n' : ' ') + words[i % words.length];
      chat.setText('bench', 'a1', text);
    }
    await this.nextFrame();
    const wallMs = performance.now() - t0;
    const tasks = stop();
    const shown = chat.shadowRoot.querySelector('li.assistant').textContent.length;
    chat.remove();
    return { tokens: n, chars: text.length, shownChars: shown, wallMs, longTasks: tasks, lateP50: late.sort((a, b) => a - b)[Math.floor(late.length / 2)] };
  },
  async state() {
    const r = await this.request('panel:get-state', {});
    if (!r || !r.ok) throw new Error('get-state failed');
    return r.value;
  },
};
'installed';
`;
