import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";

/**
 * The live oidc-provider instance. The library fixes its signing keys and client metadata at construction, so
 * changing either builds a new instance — on the same store and cookie keys, so grants, tokens and sessions
 * carry over — and swaps it in at once: requests under way finish on the old one, the next go to the new one.
 */
export class ProviderSlot {
  current: Provider;
  private handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>;

  constructor(private readonly build: () => Provider) {
    this.current = build();
    this.handler = this.current.callback();
  }

  rebuild(): void {
    const next = this.build();
    const handler = next.callback();
    this.current = next;
    this.handler = handler;
  }

  handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    return this.handler(req, res);
  }
}
