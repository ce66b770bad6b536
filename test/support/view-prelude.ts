/**
 * The script every scripted MCP App view of the tests starts with (escape-app-server.ts,
 * polling-app-server.ts): `rpc(method, params)` sends a JSON-RPC request to the host and settles
 * with its answer, and `say(key, value)` writes what happened into `document.body.dataset`, where
 * the e2e tests read it.
 */
export const VIEW_PRELUDE = `
let next = 0;
const waiting = new Map();
const rpc = (method, params) => new Promise((resolve) => {
  const id = ++next;
  waiting.set(id, resolve);
  parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
});
addEventListener('message', (e) => {
  const m = e.data;
  if (m && waiting.has(m.id)) { waiting.get(m.id)(m); waiting.delete(m.id); }
});
const say = (key, value) => { document.body.dataset[key] = typeof value === 'string' ? value : JSON.stringify(value); };
`;
