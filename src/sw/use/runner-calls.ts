/**
 * The calls the panel's tool runner started in this worker instance. Their progress is the only
 * progress a panel shows (the runner ignores any other operation, SPEC H1), so only theirs is
 * pushed: an agent's, the chat's or a view's progress would cost a message to every open panel
 * for nothing, and a server flooding progress on those calls would flood the panels' Ports (N5).
 * A call of an earlier worker instance is no longer the runner's: its request ended with the Port.
 */
export class RunnerCalls {
  readonly #ids = new Set<string>();

  /** Runs one runner call, known as the runner's until it settles. */
  async track<T>(operationId: string, run: () => Promise<T>): Promise<T> {
    this.#ids.add(operationId);
    try {
      return await run();
    } finally {
      this.#ids.delete(operationId);
    }
  }

  has(operationId: string): boolean {
    return this.#ids.has(operationId);
  }
}
