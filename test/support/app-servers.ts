/**
 * Published MCP Apps example servers (`@modelcontextprotocol/server-basic-vanillajs`,
 * `-budget-allocator`, `-sheet-music` (multi-line default input), `-system-monitor` (a view that
 * polls an app-only tool, U1)) for the end-to-end tests, run as they ship (Streamable HTTP, stateless,
 * `/mcp`) but on loopback only: they listen on all interfaces, so the child process's
 * `net.Server.prototype.listen` is pinned to 127.0.0.1 before the server's own code runs, and
 * reports the port it got (`PORT=0` picks a free one).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

const PACKAGES = {
  'basic-vanillajs': require.resolve('@modelcontextprotocol/server-basic-vanillajs'),
  'budget-allocator': require.resolve('@modelcontextprotocol/server-budget-allocator'),
  'sheet-music': require.resolve('@modelcontextprotocol/server-sheet-music'),
  'system-monitor': require.resolve('@modelcontextprotocol/server-system-monitor'),
} as const;

export interface AppServer {
  url: string;
  close(): Promise<void>;
}

const PIN_TO_LOOPBACK = `
import net from 'node:net';
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number') args.splice(1, typeof args[1] === 'string' ? 1 : 0, '127.0.0.1');
  this.once('listening', () => console.log('LOOPBACK_PORT ' + this.address().port));
  return listen.apply(this, args);
};
await import(process.env.APP_SERVER_MAIN);
`;

export async function startAppServer(name: keyof typeof PACKAGES): Promise<AppServer> {
  // Each package's main is dist/server.js; the runnable entry (its bin, dist/index.js) sits beside it.
  const main = pathToFileURL(join(dirname(PACKAGES[name]), 'index.js')).href;
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', PIN_TO_LOOPBACK], {
    env: { ...process.env, PORT: '0', APP_SERVER_MAIN: main },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${out}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /LOOPBACK_PORT (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}): ${out}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
