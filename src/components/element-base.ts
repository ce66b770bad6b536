/**
 * What every panel element shares: one {@link update} per microtask however many properties
 * changed in it, and typed events that report whether a listener vetoed them.
 */
import type { PanelEvent } from './events.js';

export abstract class ElementBase extends HTMLElement {
  /** Registers the class under `tag` unless the registry already has it; define.ts names the tags. */
  static define<T extends CustomElementConstructor>(this: T, tag: string, registry = customElements): T {
    if (!registry.get(tag)) registry.define(tag, this);
    return this;
  }

  #queued = false;

  /** Brings the shadow DOM in line with the element's state; form-like elements that render once keep this no-op. */
  protected update(): void {}

  /** Asks for one {@link update} at the end of this microtask; more asks meanwhile share it. */
  protected requestUpdate(): void {
    if (this.#queued) return;
    this.#queued = true;
    queueMicrotask(() => {
      this.#queued = false;
      this.update();
    });
  }

  /** Dispatches a panel event; false when it is cancelable and a listener prevented it. */
  protected emit(event: PanelEvent): boolean {
    return this.dispatchEvent(event);
  }
}
