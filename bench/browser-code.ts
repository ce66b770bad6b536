/**
 * Measuring code that runs unchanged in Node, in the offscreen document and in the panel page,
 * so "the same bare fetch" really is the same code everywhere. It is a plain-JS string installed
 * as `globalThis.__bench` (with `vm` in Node, DevTools `evaluate` in pages): a function passed to
 * Puppeteer would be transpiled by tsx first, and its helpers do not exist in the page.
 * Times are taken inside the measured context with `performance.now()`, so DevTools round trips
 * are never part of a sample.
 */
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
  /** n sequential tools/call echo over one initialized session; returns ms per call. */
  async fetchBatch(url, n) {
    const sid = await this.session(url);
    const out = [];
    for (let i = 0; i < n; i++) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } });
      const t0 = performance.now();
      const r = await fetch(url, { method: 'POST', headers: this.headers(sid), body });
      const text = await r.text();
      out.push(performance.now() - t0);
      if (!text.includes('echo: x')) throw new Error('unexpected answer: ' + text.slice(0, 200));
    }
    return out;
  },
  call(serverId, tool, args) {
    return chrome.runtime.sendMessage({ type: 'panel:call-tool', params: { serverId, tool, arguments: args } });
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
      const port = chrome.runtime.connect({ name: 'mcp-panel' });
      const timer = setTimeout(() => { port.disconnect(); reject(new Error('no approval card within 10 s')); }, 10000);
      port.onMessage.addListener(async (m) => {
        if (!m || m.type !== 'panel:approvals' || !m.approvals.length) return;
        const id = m.approvals[m.approvals.length - 1].id;
        const r = await chrome.runtime.sendMessage({ type: 'panel:answer-approval', params: { approvalId: id, decision: 'always' } });
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
  /** n sequential panel → worker round trips of a request the worker refuses before any work. */
  async msgBatch(n) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const r = await chrome.runtime.sendMessage({ type: 'panel:bench-no-such-method', params: {} });
      out.push(performance.now() - t0);
      if (!r || r.ok !== false) throw new Error('expected a refusal, got ' + JSON.stringify(r));
    }
    return out;
  },
  /** perServer calls in flight at once on every server; wall time and every outcome. */
  async panelConcurrent(serverIds, perServer, args) {
    const t0 = performance.now();
    const jobs = [];
    for (const id of serverIds) for (let i = 0; i < perServer; i++) {
      const s = performance.now();
      jobs.push(this.call(id, 'slow', args).then((r) => ({ ok: !!(r && r.ok), ms: performance.now() - s, error: r && r.ok ? undefined : JSON.stringify(r && r.error) }), (e) => ({ ok: false, ms: performance.now() - s, error: String(e) })));
    }
    const results = await Promise.all(jobs);
    return { wallMs: performance.now() - t0, ok: results.filter((r) => r.ok).length, latencies: results.map((r) => r.ms), errors: results.filter((r) => !r.ok).slice(0, 3).map((r) => r.error) };
  },
  /** The card's <mcp-tool-list> (inside the card's shadow root), and that list's shadow root. */
  toolList(card) {
    const list = card.shadowRoot && card.shadowRoot.querySelector('mcp-tool-list');
    return list && list.shadowRoot ? { list, root: list.shadowRoot } : null;
  },
  /** Rows the tool list has attached (it detaches rows a search does not match). */
  rowCount(card) {
    const t = this.toolList(card);
    return t ? t.root.querySelectorAll('ul > li').length : 0;
  },
  /** Resolves after the next frame was produced: a task queued from requestAnimationFrame runs after that frame's paint. */
  nextFrame() {
    return new Promise((r) => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); }));
  },
  /** A fresh <mcp-server-card> for a real server view, timed from assignment until its rows are attached and laid out. */
  async renderCard(serverId, reps) {
    const view = (await this.state()).servers.find((s) => s.id === serverId);
    const out = [];
    for (let i = 0; i < reps; i++) {
      const card = document.createElement('mcp-server-card');
      const t0 = performance.now();
      document.body.append(card);
      card.server = view;
      // The card and its tool list each render in a microtask; wait (bounded) until the rows are in.
      for (let k = 0; k < 50 && this.rowCount(card) < view.tools.length; k++) await new Promise((r) => setTimeout(r, 0));
      card.getBoundingClientRect(); document.body.offsetHeight;
      out.push(performance.now() - t0);
      if (i < reps - 1) card.remove(); else this.card = card;
    }
    return { ms: out, tools: view.tools.length, rows: this.rowCount(this.card) };
  },
  /**
   * n keystrokes in the tool list's search input (card → mcp-tool-list → input), typing
   * "tool_09" and clearing it, over and over. Each keystroke is timed twice: from dispatching the
   * input event until style and layout are done (forced), and until the next frame was painted
   * (which also includes waiting for that frame's vsync). null when the card has no filter.
   */
  async filterKeys(n) {
    const t = this.toolList(this.card);
    const input = t && t.root.querySelector('input[type=search]');
    if (!input) return null;
    const word = 'tool_09';
    const layout = [];
    const frame = [];
    const rows = [];
    const changed = [];
    let text = '';
    await this.nextFrame();
    for (let i = 0; i < n; i++) {
      text = text.length < word.length ? word.slice(0, text.length + 1) : '';
      const before = this.rowCount(this.card);
      const t0 = performance.now();
      input.value = text;
      input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: text ? 'insertText' : 'deleteContentBackward', data: text.slice(-1) || null }));
      t.list.getBoundingClientRect(); document.body.offsetHeight;
      layout.push(performance.now() - t0);
      await this.nextFrame();
      frame.push(performance.now() - t0);
      rows.push(this.rowCount(this.card));
      changed.push(rows[i] !== before);
    }
    return { ms: layout, frameMs: frame, changed, rowsMin: Math.min(...rows), rowsMax: Math.max(...rows), rowsAtEnd: this.rowCount(this.card), queryAtEnd: text };
  },
  async state() {
    const r = await chrome.runtime.sendMessage({ type: 'panel:get-state', params: {} });
    if (!r || !r.ok) throw new Error('get-state failed');
    return r.value;
  },
};
'installed';
`;
