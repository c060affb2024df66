"use server";
import { redirect } from "next/navigation";
import { signIn, signOut } from "@/auth";
import { isAuthServerReachable } from "@/lib/auth/auth-server-status";

/** Starts the authorization code flow with the service; returns to `/account` (or a same-origin path). */
export async function signInWithEsign(formData: FormData) {
  const requested = formData.get("callbackUrl");
  // Only same-origin paths: never let a form field send the user to another site after sign-in.
  const redirectTo = typeof requested === "string" && /^\/(?![/\\])/.test(requested) ? requested : "/account";
  if (!(await isAuthServerReachable())) redirect("/auth/error?error=ServiceUnavailable");
  await signIn("esign", { redirectTo });
}

export async function signOutOfApp() {
  await signOut({ redirectTo: "/" });
}
