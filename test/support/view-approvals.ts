/**
 * The per-view approval checks shared by the MCP App e2e tests (U1): a polling view raises one
 * coalesced card that offers the "while this view is open" grant, and once granted it polls with
 * no card at any point.
 */
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { textOf, until } from './browser.js';

/** An approval card still waiting for the user (not one left by a previous worker). */
export const OPEN_CARD = 'mcp-approval-card:not([status="gone"])';

export const openCards = async (panel: Page): Promise<number> => (await panel.$$(OPEN_CARD)).length;

/**
 * Waits until `count` rose by `more`, with no approval card at any point after the one just
 * answered has gone (the panel removes it once the worker has the decision).
 */
export async function pollsWithoutCard(panel: Page, count: () => number | Promise<number>, more: number): Promise<void> {
  await until('the answered card to go', async () => (await openCards(panel)) === 0);
  const target = (await count()) + more;
  await until(
    `${more} more polls`,
    async () => {
      assert.equal(await openCards(panel), 0, 'a granted view’s poll raised a card');
      return (await count()) >= target;
    },
    30_000,
  );
}

/** The polling view's first card: only ever one, however often it asks; it offers the per-view grant for `toolTitle`. */
export async function oneCoalescedCard(panel: Page, toolTitle: string): Promise<void> {
  await until(
    'the coalesced card to count repeats',
    async () => {
      assert.ok((await openCards(panel)) <= 1, 'the view’s repeated calls queued more than one card');
      return panel.$(`${OPEN_CARD} >>> .repeats`);
    },
    30_000,
  );
  assert.equal(await openCards(panel), 1);
  assert.match(await textOf(panel, `${OPEN_CARD} >>> .repeats`), /^The view asked \d+ times with the same arguments/);
  assert.equal(
    await textOf(panel, `${OPEN_CARD} >>> button[data-decision="view"]`),
    `Allow this view to call ${toolTitle} while it is open`,
  );
}
