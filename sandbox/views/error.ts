import { escapeHtml, renderPage } from "./layout";
import type { PageLanguage } from "./language";
import { pageTexts, type ErrorMessage } from "./texts";

/**
 * The sandbox's error page: one of its own messages in the page's language, or (`detail`) the auth library's
 * description, which is English only: a Japanese page then says in Japanese that the request failed and shows the
 * description below it, marked as English, for whoever reports the problem.
 */
export function renderErrorPage(language: PageLanguage, message: ErrorMessage, options: { code?: string; detail?: string } = {}): string {
  const t = pageTexts[language].error;
  const { code, detail } = options;
  const lead = detail && language === "en" ? detail : t[message];
  const english = detail && language !== "en" ? `<p lang="en">${escapeHtml(detail)}</p>\n` : "";
  const codeLine = code ? `<p>${t.code} <code>${escapeHtml(code)}</code></p>` : "";
  return renderPage(language, t.title, `<h1>${t.heading}</h1>\n<p role="alert">${escapeHtml(lead)}</p>\n${english}${codeLine}`);
}
