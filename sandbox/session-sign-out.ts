import type Provider from "oidc-provider";
import type { OidcStore } from "./oidc-store";

/**
 * Signs an account out at the sandbox as its sign-out page does, without the pages: every session of the
 * account ends, each client in it that registered a back-channel URI is sent a logout token, and grants are
 * revoked — except offline_access ones, which oidc-provider's sign-out keeps too (`persistsLogout`). Delivery
 * failures are counted by the fetch wrapper, not thrown.
 */
export async function signOutAccount(provider: Provider, store: OidcStore, accountId: string): Promise<{ endedSessions: number; logoutTokens: number }> {
  const sessions = store.sessionsOf(accountId);
  let logoutTokens = 0;
  for (const { id, payload } of sessions) {
    for (const [clientId, { sid, grantId, persistsLogout }] of Object.entries(payload.authorizations ?? {})) {
      const client = await provider.Client.find(clientId);
      if (client?.backchannelLogoutUri && sid) {
        logoutTokens += 1;
        await client.backchannelLogout(accountId, sid).catch(() => undefined);
      }
      if (grantId && !persistsLogout) {
        await store("AccessToken").revokeByGrantId(grantId);
        await store("Grant").destroy(grantId);
      }
    }
    await store("Session").destroy(id);
  }
  return { endedSessions: sessions.length, logoutTokens };
}
