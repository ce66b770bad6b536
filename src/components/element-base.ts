/**
 * What every panel element shares: one {@link update} per microtask however many properties
 * changed in it, told which ones changed; an {@link updateComplete} promise to wait on instead of
 * guessing with timers; and typed events that report whether a listener vetoed them.
 */
import type { PanelEvent } from './events.js';

export abstract class ElementBase extends HTMLElement {
  /** Registers the class under `tag` unless the registry already has it; define.ts names the tags. */
  static define<T extends CustomElementConstructor>(this: T, tag: string, registry = customElements): T {
    if (!registry.get(tag)) registry.define(tag, this);
    return this;
  }

  /** The update waiting for the end of this microtask, if one is asked for. */
  #queued: Promise<void> | undefined;
  /** Keys named by the asks since the last update. */
  #changed = new Set<string>();

  /**
   * Brings the shadow DOM in line with the element's state; `changed` holds the keys named by the
   * {@link requestUpdate} calls since the last update (empty when none named one), so a big view
   * can leave alone the parts whose inputs did not change. Form-like elements that render once
   * keep this no-op.
   */
  protected update(_changed: ReadonlySet<string>): void {}

  /** Asks for one {@link update} at the end of this microtask, naming what changed; more asks meanwhile share it. */
  protected requestUpdate(key?: string): void {
    if (key !== undefined) this.#changed.add(key);
    if (this.#queued) return;
    this.#queued = new Promise<void>((resolve) =>
      queueMicrotask(() => {
        const changed = this.#changed;
        this.#changed = new Set();
        this.#queued = undefined;
        try {
          this.update(changed);
        } finally {
          resolve();
        }
      }),
    );
  }

  /**
   * Resolves once no update is pending: after the asked-for one ran (and any it asked for in
   * turn), and after those of the {@link updateParts} it feeds. Resolves at the next microtask
   * when nothing is pending.
   */
  get updateComplete(): Promise<void> {
    return this.#settle();
  }

  async #settle(): Promise<void> {
    while (this.#queued) await this.#queued;
    await Promise.all(this.updateParts().map((part) => part.updateComplete));
    if (this.#queued) return this.#settle();
  }

  /** The child elements whose updates this one's {@link updateComplete} waits for too. */
  protected updateParts(): readonly ElementBase[] {
    return [];
  }

  /** Dispatches a panel event; false when it is cancelable and a listener prevented it. */
  protected emit(event: PanelEvent): boolean {
    return this.dispatchEvent(event);
  }
}
