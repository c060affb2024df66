/**
 * The sandbox's pages speak the languages the app does. The language comes from the request's `ui_locales` (OIDC:
 * space-separated tags in order of preference, which the app sends with the language it shows), then from the
 * browser's `Accept-Language`, then English.
 */
export const pageLanguages = ["en", "ja"] as const;
export type PageLanguage = (typeof pageLanguages)[number];

function supported(tag: string): PageLanguage | undefined {
  const primary = tag.trim().toLowerCase().split("-")[0];
  return pageLanguages.find((language) => language === primary);
}

/** Accept-Language's tags by quality (highest first, ties in the order given); `*` and q=0 dropped. */
function acceptedTags(header: string): string[] {
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.split(";").map((piece) => piece.trim());
      const q = params.find((param) => param.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag, quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter(({ tag, quality }) => tag !== "" && tag !== "*" && quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map(({ tag }) => tag);
}

export function choosePageLanguage(uiLocales: unknown, acceptLanguage: string | string[] | undefined): PageLanguage {
  const fromUiLocales = typeof uiLocales === "string" ? uiLocales.split(" ").filter(Boolean) : [];
  const accept = Array.isArray(acceptLanguage) ? acceptLanguage.join(",") : acceptLanguage ?? "";
  for (const tag of [...fromUiLocales, ...acceptedTags(accept)]) {
    const language = supported(tag);
    if (language) return language;
  }
  return "en";
}
