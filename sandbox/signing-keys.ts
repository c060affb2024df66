import { generateKeyPair, randomBytes } from "node:crypto";
import { promisify } from "node:util";

export type PrivateJwk = Record<string, unknown> & { kid: string };

async function generateSigningKey(): Promise<PrivateJwk> {
  const { privateKey } = await promisify(generateKeyPair)("rsa", { modulusLength: 2048 });
  // 32 upper-case hex digits, the form of IdentityServer's automatically managed key ids.
  return { ...privateKey.export({ format: "jwk" }), kid: randomBytes(16).toString("hex").toUpperCase(), alg: "RS256", use: "sig" };
}

const privateMembers = new Set(["d", "p", "q", "dp", "dq", "qi"]);

/** The auth server's RS256 keys, the signing key first; older keys stay published until retired. */
export class SigningKeys {
  private constructor(private keys: PrivateJwk[]) {}

  static async create(): Promise<SigningKeys> {
    return new SigningKeys([await generateSigningKey()]);
  }

  get current(): PrivateJwk {
    return this.keys[0] as PrivateJwk;
  }

  /**
   * A new key becomes the signing key. The old ones stay published, as IdentityServer keeps a retired key in
   * its discovery document so tokens it signed still verify; `retireOld` drops them at once.
   */
  async rotate({ retireOld }: { retireOld: boolean }): Promise<void> {
    const next = await generateSigningKey();
    this.keys = retireOld ? [next] : [next, ...this.keys];
  }

  summary(): { signingKid: string; publishedKids: string[] } {
    return { signingKid: this.current.kid, publishedKids: this.keys.map((key) => key.kid) };
  }

  /** What oidc-provider is built with; it signs with the first key that fits. */
  privateJwks(): { keys: PrivateJwk[] } {
    return { keys: this.keys.map((key) => ({ ...key })) };
  }

  /** The published set (`/connect/jwks`), which resource servers verify against. */
  publicJwks(): { keys: Record<string, unknown>[] } {
    return { keys: this.keys.map((key) => Object.fromEntries(Object.entries(key).filter(([name]) => !privateMembers.has(name)))) };
  }
}
