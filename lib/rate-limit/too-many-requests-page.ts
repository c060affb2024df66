import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { getConfig } from "@/lib/env";
import { requestTranslator } from "@/lib/i18n/request-translator";
import { rateLimitHeaders } from "@/lib/rate-limit/budgets";
import type { Decision } from "@/lib/rate-limit/rate-limiter";
import { statusPage } from "@/lib/session/unavailable-response";

/** A page's 429: a small page in the visitor's language saying how long to wait, with the budget's headers. */
export async function tooManyRequestsPage(req: NextRequest, decision: Decision): Promise<NextResponse> {
  const { locale, t } = await requestTranslator(req, "rateLimited");
  const texts = { title: t("title"), heading: t("heading"), lines: [t("body"), t("retryLater", { seconds: decision.resetS })], tryAgain: t("tryAgain") };
  const contact = (label: string, link: (text: string) => string) => t.markup("contact", { label, link });
  return new NextResponse(statusPage(getConfig().brand, locale, texts, contact), {
    status: 429,
    headers: { "content-type": "text/html; charset=utf-8", ...rateLimitHeaders(decision) },
  });
}
