import { describe, expect, it } from "vitest";
import type { KeyboardEvent } from "react";
import { ignoreEnterWhileComposing } from "@/lib/input/ime";
import { normalizeFileName } from "@/lib/input/normalize";

function keydown(key: string, isComposing: boolean, keyCode = 13) {
  let prevented = false;
  const event = { key, keyCode, nativeEvent: { isComposing }, preventDefault: () => (prevented = true) };
  ignoreEnterWhileComposing(event as unknown as KeyboardEvent<HTMLElement>);
  return prevented;
}

describe("Japanese input", () => {
  it("ignores Enter while an IME is composing, and only then", () => {
    expect(keydown("Enter", true)).toBe(true);
    expect(keydown("Enter", false, 229)).toBe(true);
    expect(keydown("Enter", false)).toBe(false);
    expect(keydown("a", true)).toBe(false);
  });

  it("gives file names in NFC, so a macOS name equals the typed one", () => {
    const decomposed = "ハ\u3099ンク.pdf"; // バンク as macOS hands it over
    expect(decomposed).not.toBe("バンク.pdf");
    expect(normalizeFileName(decomposed)).toBe("バンク.pdf");
  });
});
