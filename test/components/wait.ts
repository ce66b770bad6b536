/**
 * Waits that are not a render. For a render, `await el.updateComplete` (ElementBase): it resolves
 * once the element's pending update, and those of the parts it feeds, ran. These are for what
 * comes later by design: a timer, a clipboard promise, a slot change, a frame of layout, rows
 * attached in later chunks (chunked-children.ts), an iframe's handshake.
 */
import { nextFrame } from '@open-wc/testing';

/** One macrotask (after `ms`): settled promises, queued events and earlier timers run first. */
export const nextTask = (ms = 0) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The later chunks of a page of rows (each attached in a task of its own), then a frame to lay them out. */
export async function laterChunks(): Promise<void> {
  await nextTask();
  await nextTask();
  await nextFrame();
}

/** Polls every `ms` until `done` holds, at most `tries` times; says whether it held. */
export async function pollUntil(done: () => boolean, tries: number, ms: number): Promise<boolean> {
  for (let i = 0; i < tries && !done(); i++) await nextTask(ms);
  return done();
}
