/**
 * Asks for fresh data when an element is on screen and its data may be stale: when it is first
 * rendered, and after the worker said the data changed (an {@link ActivityChangedEvent}). An
 * element in a hidden view or a closed `<details>` asks nothing until it is shown, so opening the
 * panel does not send one request per hidden log.
 */
import { ActivityChangedEvent } from './events.js';

/**
 * A margin far beyond any side panel: the observer then tells "rendered or not" (a view shown or
 * hidden, a `<details>` opened), not "scrolled into the viewport".
 */
const WHOLE_PAGE = '100000px';

export class RefreshWhenShown {
  #shown = false;
  #stale = true;
  #observer: IntersectionObserver | undefined;
  readonly #onChanged = (e: ActivityChangedEvent) => {
    if (e.what === this.what) this.invalidate();
  };

  constructor(
    private readonly host: Element,
    private readonly what: ActivityChangedEvent['what'],
    private readonly ask: () => void,
  ) {}

  connect(): void {
    document.addEventListener(ActivityChangedEvent.type, this.#onChanged);
    this.#observer = new IntersectionObserver(
      (records) => {
        this.#shown = records.at(-1)?.isIntersecting ?? this.#shown;
        this.#maybeAsk();
      },
      { rootMargin: WHOLE_PAGE },
    );
    this.#observer.observe(this.host);
  }

  disconnect(): void {
    document.removeEventListener(ActivityChangedEvent.type, this.#onChanged);
    this.#observer?.disconnect();
    this.#observer = undefined;
    this.#shown = false;
    this.#stale = true;
  }

  /** The data may have changed: asked for now if shown, else when next shown. */
  invalidate(): void {
    this.#stale = true;
    this.#maybeAsk();
  }

  #maybeAsk() {
    if (!this.#shown || !this.#stale) return;
    this.#stale = false;
    this.ask();
  }
}
