import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { sessionStoreUnavailableError, toErrorResponse } from "@/lib/errors";
import { getConfig } from "@/lib/env";
import type { Brand } from "@/lib/brand/brand";
import type { Locale } from "@/lib/i18n/locales";
import { requestTranslator } from "@/lib/i18n/request-translator";

/**
 * The answer while the session store cannot be reached: 503, the JSON error shape for API routes, else a small
 * self-contained page (the app's own pages read the session, so they cannot render). Nobody is signed out.
 */
export async function sessionStoreUnavailableResponse(req: NextRequest): Promise<NextResponse> {
  const retryAfter = { "retry-after": "5", "cache-control": "no-store" };
  if (req.nextUrl.pathname.startsWith("/api/")) {
    const res = toErrorResponse(sessionStoreUnavailableError());
    for (const [name, value] of Object.entries(retryAfter)) res.headers.set(name, value);
    return res;
  }
  const { locale, t } = await requestTranslator(req, "unavailable");
  const texts = { title: t("title"), heading: t("heading"), lines: [t("body"), t("retryLater")], tryAgain: t("tryAgain") };
  const contact = (label: string, link: (text: string) => string) => t.markup("contact", { label, link });
  return new NextResponse(statusPage(getConfig().brand, locale, texts, contact), {
    status: 503,
    headers: { "content-type": "text/html; charset=utf-8", ...retryAfter },
  });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The texts of a page the app writes itself (title, heading, paragraphs, the reload link's label). */
export type StatusPageTexts = { title: string; heading: string; lines: string[]; tryAgain: string };

/**
 * A small self-contained page for an answer that the app's own pages cannot render (the session store is down, a
 * budget is spent): the brand's name, the texts, the support contact through `contact` (the catalog's "contact"
 * markup), and a link that loads the page again.
 */
export function statusPage(
  brand: Brand,
  locale: Locale,
  texts: StatusPageTexts,
  contact: (label: string, link: (text: string) => string) => string,
): string {
  // The catalog's text is ours (trusted markup); the deployer's contact is escaped.
  const support = brand.support
    ? `<p>${contact(escapeHtml(brand.support.label), (text) => `<a class="plain" href="${escapeHtml(brand.support!.href)}">${text}</a>`)}</p>\n`
    : "";
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(texts.title)} · ${escapeHtml(brand.name)}</title>
<style>
  body { margin: 0; padding: 0 1rem; font-family: ui-sans-serif, system-ui, "Hiragino Sans", "Noto Sans JP", "Noto Sans CJK JP", "Yu Gothic UI", Meiryo, sans-serif; background: #f8fafc; color: #0f172a; }
  main { max-width: 32rem; margin: 12vh auto; padding: 2rem; background: #fff; border: 1px solid #e2e8f0; border-radius: 0.75rem; box-shadow: 0 1px 2px rgb(0 0 0 / 0.05); }
  h1 { font-size: 1.5rem; margin: 0 0 0.75rem; }
  p { color: #475569; line-height: 1.5; }
  :lang(ja) { word-break: auto-phrase; }
  a.plain { display: inline; margin: 0; padding: 0; background: none; color: #1e40af; text-decoration: underline; font-weight: 600; }
  a { display: inline-block; margin-top: 0.5rem; padding: 0.5rem 1rem; border-radius: 0.5rem; background: #0f172a; color: #fff; text-decoration: none; font-weight: 600; }
  a:focus-visible { outline: 2px solid #2563eb; outline-offset: 2px; }
</style>
</head>
<body>
<main>
  <h1>${escapeHtml(texts.heading)}</h1>
${texts.lines.map((line) => `  <p>${escapeHtml(line)}</p>\n`).join("")}${support}  <a href="">${escapeHtml(texts.tryAgain)}</a>
</main>
</body>
</html>`;
}
