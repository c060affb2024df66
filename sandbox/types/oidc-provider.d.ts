// oidc-provider ships no type declarations; these cover only what the sandbox uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface AccessToken {
    accountId: string;
    clientId: string;
    scope?: string;
    grantId: string;
    readonly isExpired: boolean;
  }

  export interface RefreshToken {
    consumed?: number;
  }

  export interface Client {
    clientId: string;
    /** `client_name`: the display name shown on the sign-in, consent and sign-out pages. */
    clientName?: string;
    backchannelLogoutUri?: string;
    backchannelLogout(accountId: string, sid: string): Promise<void>;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface Interaction {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, string | undefined>;
    session?: { accountId: string };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
  }

  export interface OidcError extends Error {
    error: string;
    error_description?: string;
    error_detail?: string;
  }

  export const errors: { InvalidTarget: new (description?: string) => OidcError };

  export default class Provider {
    constructor(issuer: string, configuration: object);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: object,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: never[]) => void): this;
    AccessToken: { find(token: string): Promise<AccessToken | undefined> };
    RefreshToken: { find(token: string): Promise<RefreshToken | undefined> };
    Client: { find(id: string): Promise<Client | undefined> };
    Grant: { new (properties: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
  }
}
