import { describe, expect, it } from "vitest";
import { createSealer } from "@/lib/session/seal";

const OLD = "old-secret-0123456789abcdef0123456789abcdef";
const NEW = "new-secret-fedcba9876543210fedcba9876543210";

describe("the session store's sealer", () => {
  it("opens what it sealed, and the sealed text does not hold the plaintext", () => {
    const sealer = createSealer([NEW]);
    const sealed = sealer.seal("refresh-token-abc");
    expect(sealed).not.toContain("refresh-token-abc");
    expect(sealer.open(sealed)).toEqual({ plaintext: "refresh-token-abc", underOldSecret: false });
  });

  it("seals under the first secret and opens under any listed one, saying which", () => {
    const before = createSealer([OLD]).seal("x");
    const during = createSealer([NEW, OLD]);
    expect(during.open(before)).toEqual({ plaintext: "x", underOldSecret: true });
    // What an instance on the new list writes, one still on the old list (step 1 of the rotation) reads.
    expect(createSealer([OLD, NEW]).open(during.seal("y"))).toEqual({ plaintext: "y", underOldSecret: true });
    expect(createSealer([NEW]).open(during.seal("z"))).toEqual({ plaintext: "z", underOldSecret: false });
  });

  it("opens nothing under a secret no longer listed, altered or malformed", () => {
    const sealed = createSealer([OLD]).seal("x");
    expect(createSealer([NEW]).open(sealed)).toBeNull();
    const last = sealed.at(-2) === "A" ? "B" : "A";
    expect(createSealer([OLD]).open(`${sealed.slice(0, -2)}${last}${sealed.at(-1)}`)).toBeNull();
    for (const bad of ["", "v1", "v1..", "v2.abc.def", "v1.nokey.AAAA"]) expect(createSealer([OLD]).open(bad)).toBeNull();
  });
});
