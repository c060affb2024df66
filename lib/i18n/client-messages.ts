import "server-only";
import type { AbstractIntlMessages, Messages } from "next-intl";
import { getMessages } from "next-intl/server";

/**
 * The request's catalog cut down to the namespaces a client subtree uses: a NextIntlClientProvider given these
 * ships only them (precompiled) to the browser, never the whole catalog.
 */
export async function clientMessages(namespaces: readonly (keyof Messages)[]): Promise<AbstractIntlMessages> {
  const messages = await getMessages();
  return Object.fromEntries(namespaces.map((n) => [n, messages[n]]));
}

/** What the root layout's client components use on every page: the nav links, the sign-in buttons, the sign-out dialog, the error page, the support line. */
export const ROOT_CLIENT_NAMESPACES = ["common", "header", "signIn", "signOut", "errorPage", "support"] as const;
