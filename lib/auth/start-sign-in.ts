import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getLocale } from "next-intl/server";
import { signIn } from "@/auth";
import { isAuthServerReachable } from "@/lib/auth/auth-server-status";
import { FRESH_LOGIN_COOKIE } from "@/lib/auth/sign-in-markers";
import { recordRateLimited } from "@/lib/metrics/rate-limits";
import { getRateLimiter } from "@/lib/rate-limit/budgets";
import { addressBudgetKey, CLIENT_ADDRESS_HEADER } from "@/lib/rate-limit/client-address";

/**
 * Sends the browser to the service's sign-in, returning to `redirectTo` (a same-origin path).
 * Asks for a fresh login (`prompt=login`) when the person chose another account, or signed out on
 * purpose and has not signed in since. The service's pages are asked for the app's language (`ui_locales`).
 * Each start spends the client address's "sign-in" budget (nobody is signed in yet to key it by): once spent, the
 * browser lands on the sign-in problem page instead of the service.
 * `onStarted` sees the service's authorization URL (with the new
 * flow's `state`) before the browser is sent there.
 */
export async function startSignIn(
  redirectTo: string,
  options: { anotherAccount?: boolean; onStarted?: (authorizationUrl: URL) => Promise<void> } = {},
): Promise<never> {
  // A redirect, not a 429: this runs in a Server Action or a page navigation, where the browser shows what it is sent to.
  if (!(await spendSignInBudget((await headers()).get(CLIENT_ADDRESS_HEADER)))) redirect(SIGN_IN_BUDGET_SPENT_PATH);
  if (!(await isAuthServerReachable())) redirect("/auth/error?error=ServiceUnavailable");
  const freshLogin = options.anotherAccount || (await cookies()).has(FRESH_LOGIN_COOKIE);
  const params = { ui_locales: await getLocale(), ...(freshLogin ? { prompt: "login" } : {}) };
  // Not redirecting inside signIn, so that the caller can see where the browser goes; its check
  // cookies are set all the same.
  const url: unknown = await signIn("esign", { redirectTo, redirect: false }, params);
  if (typeof url !== "string") throw new Error("signIn returned no authorization URL");
  await options.onStarted?.(new URL(url));
  redirect(url);
}

/** Where a browser whose address spent its "sign-in" budget is sent: the sign-in problem page, in words. */
export const SIGN_IN_BUDGET_SPENT_PATH = "/auth/error?error=TooManySignIns";

/**
 * Spends one sign-in start of the client address's "sign-in" budget (the address the server hook put in
 * CLIENT_ADDRESS_HEADER; an IPv6 client's whole /64 shares one); false once it is spent, counted in the metrics.
 */
export async function spendSignInBudget(address: string | null): Promise<boolean> {
  if ((await getRateLimiter().consume("sign-in", addressBudgetKey(address ?? "unknown"))).allowed) return true;
  recordRateLimited("sign-in", "sign-in");
  return false;
}

/** Only same-origin paths: never let a form field or query send the user to another site after sign-in. */
export function sameOriginPath(requested: unknown, fallback = "/account"): string {
  return typeof requested === "string" && /^\/(?![/\\])/.test(requested) ? requested : fallback;
}
