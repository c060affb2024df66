"use server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { signOut } from "@/auth";
import { endSessionUrl } from "@/lib/auth/end-session";
import { SIGNED_OUT_HOME } from "@/lib/auth/signed-out";
import { servesHttps } from "@/lib/app-origin";
import { readPageSession } from "@/lib/auth/page-access-token";
import { FRESH_LOGIN_COOKIE, markerCookieOptions } from "@/lib/auth/sign-in-markers";
import { sameOriginPath, startSignIn } from "@/lib/auth/start-sign-in";
import { endSessions } from "@/lib/session/end-sessions";
import { readSessionById } from "@/lib/session/sessions";

/** Starts the authorization code flow with the service; returns to `/account` (or a same-origin path). */
export async function signInWithEsign(formData: FormData) {
  await startSignIn(sameOriginPath(formData.get("callbackUrl")));
}

/** Sign-in that asks the service for a fresh login, whoever is signed in there. */
export async function signInWithAnotherAccount() {
  await startSignIn("/account", { anotherAccount: true });
}

/**
 * Signs out of the app: ends the server-side session (its refresh token revoked where the service allows), then
 * the service's session too where it offers RP-initiated logout. Either way the next sign-in in this browser
 * asks the service for a fresh login, and the start page says "You're signed out".
 */
export async function signOutOfApp() {
  const state = await readPageSession();
  const session = state?.status === "active" ? await readSessionById(state.id) : null;
  const endSession = await endSessionUrl(session?.record ?? null);
  if (session) await endSessions([session], "signed out");
  await signOut({ redirect: false });
  (await cookies()).set(FRESH_LOGIN_COOKIE, "1", markerCookieOptions(FRESH_LOGIN_COOKIE, servesHttps({ headers: await headers() })));
  redirect(endSession ?? SIGNED_OUT_HOME);
}
