import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import { findUserById, verifyCredentials } from "./users";
import { readBody, BodyTooLargeError } from "./http-utils";
import { renderSignIn } from "./views/sign-in";
import { renderConsent } from "./views/consent";
import { renderErrorPage } from "./views/error";
import { choosePageLanguage, type PageLanguage } from "./views/language";
import { pageTexts } from "./views/texts";

const FORM_LIMIT = 16 * 1024;

/**
 * The pages carry no scripts; framing is refused so the sign-in form cannot be overlaid. Browsers apply
 * form-action to the whole redirect chain after a submit, which ends at the client's redirect_uri, so
 * that (already validated) origin is allowed too.
 */
function sendHtml(res: ServerResponse, status: number, html: string, redirectUri?: unknown): void {
  const redirectOrigin = typeof redirectUri === "string" && URL.canParse(redirectUri) ? ` ${new URL(redirectUri).origin}` : "";
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${redirectOrigin}; frame-ancestors 'none'`,
  });
  res.end(html);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams((await readBody(req, FORM_LIMIT)).toString("utf8"));
}

/** The name of the person the service's session belongs to, if any (shown when a fresh login is asked for). */
function signedInName(details: Awaited<ReturnType<Provider["interactionDetails"]>>): string | undefined {
  return details.session ? findUserById(details.session.accountId)?.name : undefined;
}

/** What the pages call the client: its registered display name (`client_name`), never its id. */
async function clientNameOf(provider: Provider, clientId: unknown, language: PageLanguage): Promise<string> {
  const client = typeof clientId === "string" ? await provider.Client.find(clientId) : undefined;
  return client?.clientName ?? pageTexts[language].theApplication;
}

/** Scopes named on the consent page: those requested, in the order asked. */
function requestedScopes(scope: string | undefined): string[] {
  return [...new Set((scope ?? "").split(" ").filter(Boolean))];
}

/**
 * Sign-in and consent pages for oidc-provider's interactions (`/interaction/:uid[/login|/confirm|/abort]`).
 * Returns false when the path is not an interaction route.
 */
export async function handleInteraction(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const match = /^\/interaction\/([\w-]+)(?:\/(login|confirm|abort))?$/.exec((req.url ?? "").split("?")[0] ?? "");
  if (!match) return false;
  const action = match[2];
  // Before the interaction is known (or when it is not), the browser's language is all there is.
  let language = choosePageLanguage(undefined, req.headers["accept-language"]);
  if ((action === undefined) !== (req.method === "GET")) {
    sendHtml(res, 405, renderErrorPage(language, "methodNotAllowed"));
    return true;
  }
  try {
    const details = await provider.interactionDetails(req, res);
    language = choosePageLanguage(details.params.ui_locales, req.headers["accept-language"]);
    const clientName = await clientNameOf(provider, details.params.client_id, language);
    const redirectUri = details.params.redirect_uri;
    if (action === undefined) {
      if (details.prompt.name === "login") {
        sendHtml(res, 200, renderSignIn({ language, uid: details.uid, clientName, signedInAs: signedInName(details) }), redirectUri);
      } else {
        const user = details.session ? findUserById(details.session.accountId) : undefined;
        sendHtml(res, 200, renderConsent({
          language,
          uid: details.uid,
          clientName,
          userName: user?.name,
          scopes: requestedScopes(details.params.scope),
        }), redirectUri);
      }
    } else if (action === "login") {
      const form = await readForm(req);
      const email = form.get("email") ?? "";
      const user = verifyCredentials(email, form.get("password") ?? "");
      if (!user) {
        sendHtml(
          res,
          401,
          renderSignIn({ language, uid: details.uid, clientName, email, wrongCredentials: true, signedInAs: signedInName(details) }),
          redirectUri,
        );
      } else {
        await provider.interactionFinished(req, res, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
      }
    } else if (action === "confirm") {
      await confirmConsent(provider, details, req, res);
    } else {
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "End-user denied the authorization request" },
        { mergeWithLastSubmission: false },
      );
    }
  } catch (error) {
    // An expired or unknown interaction (old tab, cleared cookie) is the usual cause; say so instead of a 500.
    const tooLarge = error instanceof BodyTooLargeError;
    sendHtml(res, tooLarge ? 413 : 400, renderErrorPage(language, tooLarge ? "tooLarge" : "expired"));
  }
  return true;
}

async function confirmConsent(
  provider: Provider,
  details: Awaited<ReturnType<Provider["interactionDetails"]>>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const accountId = details.session?.accountId;
  const clientId = details.params.client_id;
  if (!accountId || !clientId) throw new Error("consent without a signed-in session");
  const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined)
    ?? new provider.Grant({ accountId, clientId });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(" "));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
