import { NextResponse, type NextRequest } from "next/server";
import { appOrigin, servesHttps } from "@/lib/app-origin";
import { sameOriginPath } from "@/lib/auth/start-sign-in";
import { isLocale, LOCALE_COOKIE } from "@/lib/i18n/locales";
import { withErrorHandling } from "@/lib/route-handler";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * The language menu's form (components/language-menu.tsx) posts here: the choice is remembered in a cookie and the
 * browser goes back to the page it was on, signed in as before. A plain form post and a redirect, so it works
 * without JavaScript. Cross-site posts are refused (withErrorHandling).
 */
export const POST = withErrorHandling(async (req: NextRequest) => {
  const form = await req.formData().catch(() => null);
  const locale = form?.get("locale");
  const back = new URL(sameOriginPath(form?.get("returnTo"), "/"), appOrigin(req));
  const res = NextResponse.redirect(back, 303);
  if (isLocale(locale)) {
    res.cookies.set(LOCALE_COOKIE, locale, {
      path: "/",
      maxAge: ONE_YEAR_SECONDS,
      sameSite: "lax",
      httpOnly: true,
      secure: servesHttps(req),
    });
  }
  return res;
});
