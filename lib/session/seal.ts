import "server-only";
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

type SealKey = { id: string; key: Buffer };

/** AES-256-GCM keys derived from each AUTH_SECRET (HKDF), with a short public id so a sealed value names its key. */
function deriveKeys(secrets: string[]): SealKey[] {
  return secrets.map((secret) => {
    const key = Buffer.from(hkdfSync("sha256", secret, "", "esign session store v1", 32));
    return { id: createHash("sha256").update(key).digest("base64url").slice(0, 8), key };
  });
}

export type Sealer = {
  /** Encrypts under the first secret's key: `v1.<key id>.<base64url(iv ‖ tag ‖ ciphertext)>`. */
  seal(plaintext: string): string;
  /** Decrypts under whichever listed secret's key sealed it; null when none did or the value was altered. */
  open(sealed: string): { plaintext: string; underOldSecret: boolean } | null;
};

/**
 * Encryption at rest for the session store, under keys derived from the AUTH_SECRET list: the first encrypts, all
 * decrypt, so a secret rotation (README, "Rotating AUTH_SECRET") keeps every stored session readable.
 */
export function createSealer(secrets: string[]): Sealer {
  const keys = deriveKeys(secrets);
  const current = keys[0]!;
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", current.key, iv);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return `v1.${current.id}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    },
    open(sealed) {
      const [version, keyId, payload] = sealed.split(".");
      const index = keys.findIndex((k) => k.id === keyId);
      if (version !== "v1" || index < 0 || !payload) return null;
      try {
        const bytes = Buffer.from(payload, "base64url");
        const decipher = createDecipheriv("aes-256-gcm", keys[index]!.key, bytes.subarray(0, 12));
        decipher.setAuthTag(bytes.subarray(12, 28));
        const plaintext = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
        return { plaintext, underOldSecret: index > 0 };
      } catch {
        return null;
      }
    },
  };
}
