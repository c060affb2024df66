import { createCipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSealer } from "@/lib/session/seal";

const OLD = "old-secret-0123456789abcdef0123456789abcdef";
const NEW = "new-secret-fedcba9876543210fedcba9876543210";
const ID = "session-store-name-of-alice";

/** A value as the sealer wrote it before the store name was bound (v1: AES-GCM without associated data). */
function sealV1(secret: string, plaintext: string): string {
  const key = Buffer.from(hkdfSync("sha256", secret, "", "esign session store v1", 32));
  const keyId = createHash("sha256").update(key).digest("base64url").slice(0, 8);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `v1.${keyId}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

describe("the session store's sealer", () => {
  it("opens what it sealed, and the sealed text does not hold the plaintext", () => {
    const sealer = createSealer([NEW]);
    const sealed = sealer.seal("refresh-token-abc", ID);
    expect(sealed).not.toContain("refresh-token-abc");
    expect(sealer.open(sealed, ID)).toEqual({ plaintext: "refresh-token-abc", resealDue: false });
  });

  it("does not open a record copied under another session's name", () => {
    const sealer = createSealer([NEW]);
    const victims = sealer.seal("victim's tokens", ID);
    expect(sealer.open(victims, "attacker-session-store-name")).toEqual({ refused: "altered" });
  });

  it("opens a record sealed before the name was bound, once, asking for it to be sealed again", () => {
    const sealer = createSealer([NEW]);
    expect(sealer.open(sealV1(NEW, "from before the upgrade"), ID)).toEqual({ plaintext: "from before the upgrade", resealDue: true });
  });

  it("seals under the first secret and opens under any listed one, saying which", () => {
    const before = createSealer([OLD]).seal("x", ID);
    const during = createSealer([NEW, OLD]);
    expect(during.open(before, ID)).toEqual({ plaintext: "x", resealDue: true });
    // What an instance on the new list writes, one still on the old list (step 1 of the rotation) reads.
    expect(createSealer([OLD, NEW]).open(during.seal("y", ID), ID)).toEqual({ plaintext: "y", resealDue: true });
    expect(createSealer([NEW]).open(during.seal("z", ID), ID)).toEqual({ plaintext: "z", resealDue: false });
  });

  it("opens nothing under a secret no longer listed, altered or malformed, and says which", () => {
    const sealed = createSealer([OLD]).seal("x", ID);
    expect(createSealer([NEW]).open(sealed, ID)).toEqual({ refused: "unknown-key" });
    const last = sealed.at(-2) === "A" ? "B" : "A";
    expect(createSealer([OLD]).open(`${sealed.slice(0, -2)}${last}${sealed.at(-1)}`, ID)).toEqual({ refused: "altered" });
    for (const bad of ["", "v1", "v1..", "v3.abc.def"]) expect(createSealer([OLD]).open(bad, ID)).toEqual({ refused: "altered" });
    expect(createSealer([OLD]).open("v2.nokey.AAAA", ID)).toEqual({ refused: "unknown-key" });
  });
});
