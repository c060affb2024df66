import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { signIn } from "@/auth";
import { isAuthServerReachable } from "@/lib/auth/auth-server-status";
import { FRESH_LOGIN_COOKIE } from "@/lib/auth/sign-in-markers";

/**
 * Sends the browser to the service's sign-in, returning to `redirectTo` (a same-origin path).
 * Asks for a fresh login (`prompt=login`) when the person chose another account, or signed out on
 * purpose and has not signed in since.
 */
export async function startSignIn(redirectTo: string, options: { anotherAccount?: boolean } = {}): Promise<never> {
  if (!(await isAuthServerReachable())) redirect("/auth/error?error=ServiceUnavailable");
  const freshLogin = options.anotherAccount || (await cookies()).has(FRESH_LOGIN_COOKIE);
  await signIn("esign", { redirectTo }, freshLogin ? { prompt: "login" } : undefined);
  // signIn redirects (it throws Next's redirect); reaching here would be a library change.
  throw new Error("signIn did not redirect");
}

/** Only same-origin paths: never let a form field or query send the user to another site after sign-in. */
export function sameOriginPath(requested: unknown, fallback = "/account"): string {
  return typeof requested === "string" && /^\/(?![/\\])/.test(requested) ? requested : fallback;
}
