import { escapeHtml, renderPage } from "./layout";

/**
 * oidc-provider's RP-initiated logout confirmation (`logoutSource`): `form` is the library's hidden
 * form (id `op.logoutForm`, with its XSRF token); the two buttons submit it with or without `logout=yes`.
 */
export function renderSignOutConfirm({ form, userName, clientId }: { form: string; userName?: string; clientId?: string }): string {
  const who = userName ? `You are signed in as <strong>${escapeHtml(userName)}</strong>. ` : "";
  const from = clientId ? ` <strong>${escapeHtml(clientId)}</strong> signed you out of the application.` : "";
  return renderPage(
    "Sign out",
    `<h1>Sign out of the e-signature service?</h1>
<p>${who}${from}</p>
${form}
<div class="actions">
<button type="submit" form="op.logoutForm" class="secondary">No, stay signed in</button>
<button type="submit" form="op.logoutForm" name="logout" value="yes" class="primary" autofocus>Yes, sign me out</button>
</div>`,
  );
}

/** Shown when a sign-out had no registered place to return to. */
export function renderSignedOut(): string {
  return renderPage("Signed out", `<h1>Signed out</h1>\n<p>You are signed out of the e-signature service. You can close this page.</p>`);
}
