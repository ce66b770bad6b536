/**
 * What waits for the user, for the toolbar badge (K7): the open questions counted here (the
 * approval broker counts its own cards), and listeners told whenever either may have changed.
 */
export class WaitingForUser {
  #questions = 0;
  readonly #listeners = new Set<() => void>();

  /** Open (pending) elicitation questions. */
  get questions(): number {
    return this.#questions;
  }

  setQuestions(count: number): void {
    this.#questions = count;
    this.changed();
  }

  /** Approvals or questions may have changed. */
  changed(): void {
    for (const listener of this.#listeners) listener();
  }

  onChange(listener: () => void): void {
    this.#listeners.add(listener);
  }
}
