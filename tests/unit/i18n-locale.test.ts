import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/env";
import { matchAcceptLanguage, parseAcceptLanguage, resolveLocale, resolveTimeZone } from "@/lib/i18n/resolve-locale";

const SECRET = "x".repeat(32);

describe("choosing the language", () => {
  it("takes the language menu's cookie over Accept-Language and the default", () => {
    expect(resolveLocale({ cookie: "en", acceptLanguage: "ja-JP,ja;q=0.9", fallback: "ja" })).toBe("en");
    expect(resolveLocale({ cookie: "ja", acceptLanguage: "en-US", fallback: "en" })).toBe("ja");
  });

  it("ignores a cookie naming a language the app does not have", () => {
    expect(resolveLocale({ cookie: "fr", acceptLanguage: "ja-JP", fallback: "en" })).toBe("ja");
  });

  it("takes the best-rated language the app has from Accept-Language, matching ja-JP to ja", () => {
    expect(matchAcceptLanguage("fr-FR,ja-JP;q=0.8,en;q=0.5")).toBe("ja");
    expect(matchAcceptLanguage("en;q=0.2, ja;q=0.9")).toBe("ja");
    expect(matchAcceptLanguage("ja;q=0, en")).toBe("en");
    expect(parseAcceptLanguage("da, en-GB;q=0.8, *;q=0.1")).toEqual(["da", "en-GB"]);
  });

  it("falls back to APP_DEFAULT_LOCALE when neither names a language the app has", () => {
    expect(resolveLocale({ cookie: undefined, acceptLanguage: "de-DE,fr;q=0.8", fallback: "ja" })).toBe("ja");
    expect(resolveLocale({ cookie: undefined, acceptLanguage: null, fallback: "en" })).toBe("en");
  });
});

describe("the time zone", () => {
  it("uses the zone the browser reported, and UTC until then or for a zone this runtime does not know", () => {
    expect(resolveTimeZone("Asia/Tokyo")).toBe("Asia/Tokyo");
    expect(resolveTimeZone(undefined)).toBe("UTC");
    expect(resolveTimeZone("Mars/Olympus_Mons")).toBe("UTC");
  });
});

describe("APP_DEFAULT_LOCALE", () => {
  it("defaults to English and accepts Japanese", () => {
    expect(parseConfig({ AUTH_SECRET: SECRET }).defaultLocale).toBe("en");
    expect(parseConfig({ AUTH_SECRET: SECRET, APP_DEFAULT_LOCALE: "ja" }).defaultLocale).toBe("ja");
  });

  it("refuses a language without a catalog, listing the ones there are", () => {
    expect(() => parseConfig({ AUTH_SECRET: SECRET, APP_DEFAULT_LOCALE: "fr" })).toThrow(ConfigError);
    expect(() => parseConfig({ AUTH_SECRET: SECRET, APP_DEFAULT_LOCALE: "fr" })).toThrow(
      "APP_DEFAULT_LOCALE must be one of en, ja (the languages with a catalog in messages/)",
    );
  });
});
