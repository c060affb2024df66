import type { Page } from "@playwright/test";

export type StorageOutcome =
  | { kind: "stored"; origin: string; status: number }
  | { kind: "cors"; origin: string; reason: string }
  | { kind: "refused"; origin: string; status: number }
  | { kind: "unreachable"; origin: string; error: string };

/**
 * Watches what the browser sends to the storage: every PUT (and its CORS preflight) to an origin other than the app's.
 * The first answer decides: a 2xx stores the file; Chromium reports a CORS refusal on the console, naming the
 * request's URL; a request that failed without one never reached the storage.
 */
export function watchStorage(page: Page, appOrigin: string) {
  let outcome: StorageOutcome | null = null;
  const settle = (value: StorageOutcome) => {
    outcome ??= value;
  };
  const isStorage = (url: string) => {
    try {
      return new URL(url).origin !== appOrigin && /^https?:$/.test(new URL(url).protocol);
    } catch {
      return false;
    }
  };
  page.on("console", (message) => {
    const text = message.text();
    const match = /Access to \S+ at '([^']+)' from origin '[^']+' has been blocked by CORS policy: (.*)$/s.exec(text);
    if (message.type() !== "error" || !match || !isStorage(match[1]!)) return;
    settle({ kind: "cors", origin: new URL(match[1]!).origin, reason: corsReason(match[2]!) });
  });
  page.on("response", (response) => {
    const request = response.request();
    if (request.method() !== "PUT" || !isStorage(request.url())) return;
    const origin = new URL(request.url()).origin;
    settle(response.ok() ? { kind: "stored", origin, status: response.status() } : { kind: "refused", origin, status: response.status() });
  });
  page.on("requestfailed", (request) => {
    if (!["PUT", "OPTIONS"].includes(request.method()) || !isStorage(request.url())) return;
    const error = request.failure()?.errorText ?? "failed";
    const origin = new URL(request.url()).origin;
    // The console message of a CORS refusal arrives after the failure event: give it a moment to name the cause.
    setTimeout(() => settle({ kind: "unreachable", origin, error }), 500);
  });
  return { outcome: () => outcome };
}

/** Chromium's CORS wording, in the operator's. */
function corsReason(text: string): string {
  if (/No 'Access-Control-Allow-Origin' header|does not match|not equal to the supplied origin/i.test(text)) return "this origin is not allowed";
  if (/Method PUT is not allowed|Access-Control-Allow-Methods/i.test(text)) return "PUT is not an allowed method";
  if (/Request header field (\S+) is not allowed/i.test(text)) return `a request header is not allowed: ${/Request header field (\S+)/i.exec(text)![1]}`;
  return text.replace(/\s+/g, " ").trim();
}
