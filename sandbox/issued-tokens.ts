/**
 * Every token value the auth server has handed out, so e2e tests can prove none of them ever reaches
 * the browser. Kept across resets (a leak of an old token is still a leak); bounded so a long demo
 * cannot grow it without limit.
 */
export class IssuedTokens {
  private readonly tokens = new Set<string>();

  constructor(private readonly limit = 50_000) {}

  add(response: Record<string, unknown>): void {
    for (const key of ["access_token", "refresh_token", "id_token"]) {
      const value = response[key];
      if (typeof value !== "string" || !value) continue;
      if (this.tokens.size >= this.limit) {
        const oldest = this.tokens.values().next().value;
        if (oldest !== undefined) this.tokens.delete(oldest);
      }
      this.tokens.add(value);
    }
  }

  has(value: string): boolean {
    return this.tokens.has(value);
  }

  list(): string[] {
    return [...this.tokens];
  }
}
