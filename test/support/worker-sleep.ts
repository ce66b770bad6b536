/**
 * The worker-sleep step of the matrix (test/e2e/worker-sleep-*.test.ts): with the panel open, the
 * worker is stopped as Chrome's idle timer stops it (no DevTools on it, worker-lifecycle.ts) and
 * waited for until it is really gone, while the panel's document stays as it was. A feature used
 * next then runs against a new worker instance, which `assertNewWorker` proves.
 */
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { until, type ExtensionBrowser } from './browser.js';
import { evaluateInWorker, stopWorker, workerRunning } from './worker-lifecycle.js';
import { LOG_BATCH_WINDOW_MS } from '../../src/sw/offscreen-link/request-log-batch.js';

/**
 * Chrome stops an idle worker only after ~30 s without events, never within the few milliseconds
 * after one; the matrix stops it much sooner, but not inside the work the last event started (the
 * request log stores a short window's rows at once, request-log-batch.ts). Ten windows of quiet.
 */
const QUIET_MS = 10 * LOG_BATCH_WINDOW_MS;

const WORKER_MARK = 'globalThis.__beforeSleep';
const PANEL_MARK = 'globalThis.__panelBeforeSleep';

/** Stops the worker, waits until it is gone, and checks that the panel's document is the one that was open. */
export async function sleepWorker(ext: ExtensionBrowser, panel: Page): Promise<void> {
  // Only the instance that goes to sleep carries the mark; a worker already stopped has nothing to mark.
  if (await workerRunning(ext)) await evaluateInWorker(ext, `${WORKER_MARK} = true`).catch(() => undefined);
  await panel.evaluate(`${PANEL_MARK} = true`);
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  await stopWorker(ext);
  await until('the worker to be gone', async () => !(await workerRunning(ext)));
  assert.equal(panel.isClosed(), false, 'the panel stays open');
  assert.equal(await panel.evaluate(`${PANEL_MARK} === true`), true, 'the same panel document, not a reload');
}

/** The worker that answered since `sleepWorker` is a new instance (or has already stopped again). */
export async function assertNewWorker(ext: ExtensionBrowser): Promise<void> {
  if (!(await workerRunning(ext))) return;
  const marked = await evaluateInWorker<boolean>(ext, `${WORKER_MARK} === true`).catch(() => false);
  assert.equal(marked, false, 'a new worker instance did the work after the sleep');
}
