import { startSandbox, type RunningSandbox } from "../../../sandbox/index";
import { partnerTokens } from "../../sandbox/support/oauth";
import { FUZZ_SANDBOX_PORTS } from "./ports";

/** Access tokens for each kind of caller the API tells apart. */
export interface CallerTokens {
  /** Has a customer account: getuserinfo 200. */
  alice: string;
  /** No customer account: getuserinfo 400 customer_not_found. */
  bob: string;
  /** Valid, but granted without service.api: 403 insufficient_scope. */
  noScope: string;
}

export interface FuzzSandbox {
  sandbox: RunningSandbox;
  tokens: CallerTokens;
}

export async function startFuzzSandbox(): Promise<FuzzSandbox> {
  const sandbox = await startSandbox(FUZZ_SANDBOX_PORTS);
  try {
    const [alice, bob, noScope] = await Promise.all([
      partnerTokens(sandbox),
      partnerTokens(sandbox, undefined, { email: "bob@example.com", password: "bob-password" }),
      partnerTokens(sandbox, "openid email"),
    ]);
    return { sandbox, tokens: { alice: alice.access_token, bob: bob.access_token, noScope: noScope.access_token } };
  } catch (error) {
    await sandbox.stop();
    throw error;
  }
}

/** How many documents the sandbox holds (it lists them with live blob lookups, so keep the list short: reset often). */
export async function countDocuments(sandbox: RunningSandbox): Promise<number> {
  const response = await fetch(`${sandbox.apiUrl}/_sandbox/documents`);
  const body = (await response.json()) as { documents: unknown[] };
  return body.documents.length;
}
