/**
 * What a send needs before its request, kept off the stored copies (time to first token): the
 * opened provider (its key decrypted) and Chrome's host-permission answers, each asked once and
 * kept until the provider settings or the grants change. A failed answer is not kept.
 */
import type { OpenedProvider, ProviderSettingsStore } from '../../storage/provider-settings.js';

export class ProviderAccess {
  #provider: Promise<OpenedProvider | undefined> | undefined;
  readonly #permitted = new Map<string, Promise<boolean>>();
  readonly #providers: Pick<ProviderSettingsStore, 'opened'>;
  readonly #hasHostPermission: (url: string) => Promise<boolean>;

  constructor(providers: Pick<ProviderSettingsStore, 'opened'>, hasHostPermission: (url: string) => Promise<boolean>) {
    this.#providers = providers;
    this.#hasHostPermission = hasHostPermission;
  }

  /** The stored provider with its key opened, or undefined when none is set up. */
  opened(): Promise<OpenedProvider | undefined> {
    const opening = (this.#provider ??= this.#providers.opened());
    opening.catch(() => this.#provider === opening && (this.#provider = undefined));
    return opening;
  }

  /** Whether Chrome lets the extension reach this URL's origin. */
  permitted(url: string): Promise<boolean> {
    let answer = this.#permitted.get(url);
    if (!answer) this.#permitted.set(url, (answer = this.#hasHostPermission(url)));
    answer.catch(() => this.#permitted.delete(url));
    return answer;
  }

  /** The provider settings changed: open them again at the next send. */
  forgetProvider(): void {
    this.#provider = undefined;
  }

  /** The settings or the grants changed: ask both again. */
  forget(): void {
    this.#provider = undefined;
    this.#permitted.clear();
  }
}
