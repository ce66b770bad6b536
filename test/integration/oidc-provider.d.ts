/**
 * Minimal types for the parts of `oidc-provider` the integration tests and test/support/oauth-*.ts use (the package ships
 * none and `@types/oidc-provider` is not installed).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: unknown };
    params: Record<string, unknown>;
    session?: { accountId: string };
    grantId?: string;
  }

  class Grant {
    constructor(init: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  class RefreshToken {
    constructor(init: Record<string, unknown>);
    generateTokenId(): string;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly Grant: typeof Grant & { find(id: string): Promise<Grant | undefined> };
    readonly RefreshToken: typeof RefreshToken;
    readonly Client: { adapter: { upsert(id: string, payload: Record<string, unknown>): Promise<void> } };
    on(event: string, listener: (ctx: { oidc?: { params?: Record<string, unknown> } }) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
