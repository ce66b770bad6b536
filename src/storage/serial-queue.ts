/**
 * Runs tasks one after another, in call order. Read-modify-write over `chrome.storage`
 * has no transactions; without this, two overlapping updates would each read the old
 * value and the later write would silently erase the earlier one.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** A failing task rejects its own promise only; the queue keeps going. */
  run<T>(task: () => T | Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
