import type { Server } from 'node:net';

/**
 * Binds a test server to 127.0.0.1 and resolves with its port, rejecting on a bind error (Express 5's
 * `app.listen` callback receives the error instead of throwing, and a bare `server.listen` callback
 * never runs: either way a taken port used to surface later as a null address or a hang).
 * A fixed port (the upgrade fixture's stored URLs) that is briefly taken is retried for a while;
 * fixed ports are chosen below Linux's ephemeral range (32768–60999), so no outgoing connection
 * or `listen(0)` elsewhere can take them.
 */
export async function listenOn(server: Server, port = 0, retryForMs = port ? 15_000 : 0): Promise<number> {
  const deadline = Date.now() + retryForMs;
  for (;;) {
    try {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        server.once('error', onError);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', onError);
          resolve();
        });
      });
      const address = server.address();
      if (!address || typeof address === 'string') throw new Error(`listen on 127.0.0.1:${port}: no address`);
      return address.port;
    } catch (error) {
      const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!inUse || Date.now() >= deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
