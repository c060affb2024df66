"use server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { signOut } from "@/auth";
import { endSessionUrl } from "@/lib/auth/end-session";
import { servesHttps } from "@/lib/app-origin";
import { FRESH_LOGIN_COOKIE, markerCookieOptions } from "@/lib/auth/sign-in-markers";
import { sameOriginPath, startSignIn } from "@/lib/auth/start-sign-in";

/** Starts the authorization code flow with the service; returns to `/account` (or a same-origin path). */
export async function signInWithEsign(formData: FormData) {
  await startSignIn(sameOriginPath(formData.get("callbackUrl")));
}

/** Sign-in that asks the service for a fresh login, whoever is signed in there. */
export async function signInWithAnotherAccount() {
  await startSignIn("/account", { anotherAccount: true });
}

/**
 * Signs out of the app, then of the service too where it offers RP-initiated logout. Either way the
 * next sign-in in this browser asks the service for a fresh login.
 */
export async function signOutOfApp() {
  const endSession = await endSessionUrl();
  await signOut({ redirect: false });
  (await cookies()).set(FRESH_LOGIN_COOKIE, "1", markerCookieOptions(FRESH_LOGIN_COOKIE, servesHttps({ headers: await headers() })));
  redirect(endSession ?? "/");
}
