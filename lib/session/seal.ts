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

/** Why a sealed value did not open: its key is not among the listed secrets, or it does not authenticate. */
export type SealRefusal = "unknown-key" | "altered";

export type Opened = {
  plaintext: string;
  /**
   * Opened, but not as the current seal would close it: under a previous AUTH_SECRET, or in the format from
   * before the store name was bound (v1). The caller seals it again (see session-refresh.ts).
   */
  resealDue: boolean;
};

export type Sealer = {
  /**
   * Encrypts under the first secret's key, bound to `name` (the session's store name) as associated data:
   * `v2.<key id>.<base64url(iv ‖ tag ‖ ciphertext)>`. A value copied under another name does not open.
   */
  seal(plaintext: string, name: string): string;
  /** Decrypts a value sealed for `name` under any listed secret's key; otherwise says why not. */
  open(sealed: string, name: string): Opened | { refused: SealRefusal };
};

/**
 * Encryption at rest for the session store, under keys derived from the AUTH_SECRET list: the first encrypts, all
 * decrypt, so a secret rotation (README, "Rotating AUTH_SECRET") keeps every stored session readable.
 *
 * The store name is bound as AES-GCM associated data, so someone who can write to the store cannot move a
 * victim's sealed record under a handle of their own. Values sealed before that (v1, no associated data) still
 * open, flagged `resealDue`, so the upgrade signs nobody out; each is sealed again as v2 on its next read.
 */
export function createSealer(secrets: string[]): Sealer {
  const keys = deriveKeys(secrets);
  const current = keys[0]!;
  return {
    seal(plaintext, name) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", current.key, iv);
      cipher.setAAD(Buffer.from(name, "utf8"));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return `v2.${current.id}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    },
    open(sealed, name) {
      const [version, keyId, payload] = sealed.split(".");
      if ((version !== "v1" && version !== "v2") || !payload) return { refused: "altered" };
      const index = keys.findIndex((k) => k.id === keyId);
      if (index < 0) return { refused: "unknown-key" };
      try {
        const bytes = Buffer.from(payload, "base64url");
        const decipher = createDecipheriv("aes-256-gcm", keys[index]!.key, bytes.subarray(0, 12));
        if (version === "v2") decipher.setAAD(Buffer.from(name, "utf8"));
        decipher.setAuthTag(bytes.subarray(12, 28));
        const plaintext = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
        return { plaintext, resealDue: index > 0 || version === "v1" };
      } catch {
        return { refused: "altered" };
      }
    },
  };
}
