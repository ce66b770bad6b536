/**
 * Builds `sdk-floor-entry.ts` into one script for a page (esbuild, IIFE, browser conditions) and
 * installs it in the offscreen document; see that file for what the floor measures.
 */
import { build } from 'esbuild';
import type { Page } from 'puppeteer-core';

let code: Promise<string> | undefined;

function bundle(): Promise<string> {
  code ??= build({
    entryPoints: [new URL('./sdk-floor-entry.ts', import.meta.url).pathname],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    logLevel: 'warning',
  }).then((r) => r.outputFiles[0]!.text);
  return code;
}

/** The offscreen document with `globalThis.__sdkFloor` installed (once per document). */
export async function withSdkFloor(page: Page): Promise<Page> {
  const installed = await page.evaluate(() => '__sdkFloor' in globalThis);
  if (!installed) await page.evaluate(await bundle());
  return page;
}

/** n sequential SDK `callTool` echo in the document; ms per call. */
export const sdkFloorBatch = (page: Page, url: string, n: number) =>
  page.evaluate(
    (u: string, k: number) =>
      (globalThis as unknown as { __sdkFloor: { batch(u: string, k: number): Promise<number[]> } }).__sdkFloor.batch(u, k),
    url,
    n,
  );

/** The SDK's own Client at the concurrency of the h2 phase, in the document. */
export const sdkFloorConcurrent = (page: Page, urls: string[], perServer: number, args: Record<string, unknown>) =>
  page.evaluate(
    (u: string[], k: number, a: Record<string, unknown>) =>
      (
        globalThis as unknown as {
          __sdkFloor: {
            concurrent(
              u: string[],
              k: number,
              a: Record<string, unknown>,
            ): Promise<{ wallMs: number; ok: number; latencies: number[]; errors?: string[] }>;
          };
        }
      ).__sdkFloor.concurrent(u, k, a),
    urls,
    perServer,
    args,
  );
