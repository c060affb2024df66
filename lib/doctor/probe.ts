import "server-only";

export type ProbeAnswer = { ok: true; status: number; headers: Headers; text: string } | { ok: false; error: string };

/** One HTTP request that never follows redirects and never throws: a network failure becomes a short reason. */
export async function probe(url: string, init: RequestInit, timeoutMs: number): Promise<ProbeAnswer> {
  try {
    const response = await fetch(url, { ...init, redirect: "manual", cache: "no-store", signal: AbortSignal.timeout(timeoutMs) });
    return { ok: true, status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    if (error instanceof DOMException && error.name === "TimeoutError") return { ok: false, error: `no answer within ${timeoutMs} ms` };
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const code = (cause as { code?: string }).code;
    return { ok: false, error: code ?? (cause instanceof Error ? cause.message : String(cause)) };
  }
}

/** The OAuth error code in a JSON body, or one named in an HTML error page. */
export function oauthErrorCode(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === "string") return body.error;
  } catch {
    // not JSON: look for a code in the page
  }
  return /\b(invalid_redirect_uri|invalid_client|unauthorized_client|invalid_request|invalid_scope|unsupported_response_type|access_denied)\b/.exec(
    text,
  )?.[1];
}
