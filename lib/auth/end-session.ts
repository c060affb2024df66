import "server-only";
import { headers } from "next/headers";
import { getLocale } from "next-intl/server";
import { appOrigin } from "@/lib/app-origin";
import { getConfig } from "@/lib/env";
import { getDiscovery } from "@/lib/auth/discovery";
import { getLogger } from "@/lib/logging/logger";
import { SIGNED_OUT_STATE } from "@/lib/auth/signed-out";
import type { SessionRecord } from "@/lib/session/session-record";

/**
 * Where to send the browser after the app's own sign-out so that the service ends its session too (OIDC
 * RP-Initiated Logout): the discovery document's `end_session_endpoint` with `id_token_hint` (kept in the
 * server-side session for this), the app's start page as `post_logout_redirect_uri`, which must be
 * registered with the service, a `state` the service hands back so that the start page says "You're signed out", and
 * the app's language for the service's pages (`ui_locales`). Null when the service publishes no endpoint, discovery fails (sign-out must
 * work without it: the spec names no such operation), or the session holds no id_token.
 */
export async function endSessionUrl(record: SessionRecord | null): Promise<string | null> {
  if (!record?.idToken) return null;
  const found = await getDiscovery().then(
    (d) => d.end_session_endpoint ?? null,
    (error: unknown) => {
      getLogger().warn({ msg: `end_session_endpoint not known, signing out of the app only: ${error instanceof Error ? error.message : String(error)}` });
      return null;
    },
  );
  if (!found) return null;
  const origin = appOrigin({ headers: await headers() });
  const url = new URL(found);
  url.searchParams.set("id_token_hint", record.idToken);
  url.searchParams.set("client_id", getConfig().clientId);
  url.searchParams.set("post_logout_redirect_uri", `${origin}/`);
  url.searchParams.set("state", SIGNED_OUT_STATE);
  url.searchParams.set("ui_locales", await getLocale());
  return url.href;
}
