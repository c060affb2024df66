import "server-only";
import type { DoctorContext } from "@/lib/doctor/context";
import { probe } from "@/lib/doctor/probe";
import type { CheckResult } from "@/lib/doctor/report";

/** Check 6: the API is there and asks for a token (401), without one being sent. */
export async function checkApi({ config }: DoctorContext): Promise<CheckResult> {
  const title = "API";
  const url = `${config.apiUrl}/api/getuserinfo`;
  const answer = await probe(url, { headers: { accept: "application/json" } }, config.requestTimeoutMs);
  if (!answer.ok) {
    return {
      id: "api",
      title,
      status: "fail",
      detail: `no answer from ${url} (${answer.error})`,
      fix: "Check ESIGN_API_URL and that the API server is reachable from this host.",
    };
  }
  if (answer.status !== 401) {
    return {
      id: "api",
      title,
      status: "fail",
      detail: `GET ${url} without a token answered ${answer.status}, not 401`,
      fix: "Set ESIGN_API_URL to the service's API base URL (the one serving /api/getuserinfo).",
    };
  }
  return { id: "api", title, status: "pass", detail: `GET ${url} without a token → 401` };
}

const UPLOAD_HEADERS = ["content-type", "x-ms-blob-type", "x-ms-blob-content-md5"];

/**
 * A blob path to ask about. Emulators (an IP or localhost host) use path-style URLs whose first segment is the
 * account; Azure's own hosts name the account in the host. CORS rules apply to the whole service either way.
 */
function probePath(origin: string): string {
  const host = new URL(origin).hostname;
  const pathStyle = host === "localhost" || /^[\d.]+$/.test(host) || host.startsWith("[");
  return `${pathStyle ? "/devstoreaccount1" : ""}/doctor-check/cors-probe.bin`;
}

const listOf = (value: string | null) => (value ?? "").split(",").map((v) => v.trim().toLowerCase()).filter(Boolean);

/** Headers a storage front end need not list as exposed: CORS's own, `vary`, hop-by-hop ones and `date`. */
const NEVER_LISTED = new Set([
  "access-control-allow-origin",
  "access-control-allow-credentials",
  "access-control-expose-headers",
  "vary",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "date",
]);
/** CORS-safelisted response headers: the browser reads them whatever the rule, and storage may not list them. */
const SAFELISTED = new Set(["cache-control", "content-language", "content-length", "content-type", "expires", "last-modified", "pragma"]);

/**
 * Which of the headers the upload reads (content-md5 and the x-ms-* ones) a browser cannot read, judged
 * from a refused PUT. Azure (and Azurite, which follows it) answer Access-Control-Expose-Headers with each
 * literal name of the rule, present or not, and for a prefix rule (`x-ms-*`, or `*`) with only this
 * response's headers that match it. A refused PUT carries no content-md5, so a `*` rule shows as "every
 * header of this answer is listed" (`server` too), not as `*` and not as content-md5.
 */
export function unreadableUploadHeaders(response: Headers): string[] {
  const exposed = new Set(listOf(response.get("access-control-expose-headers")));
  const listable = [...response.keys()].filter((h) => !NEVER_LISTED.has(h) && !SAFELISTED.has(h));
  // Only a header outside x-ms-* (such as `server`) tells a catch-all rule from `x-ms-*`.
  const everything = exposed.has("*") || (listable.some((h) => !h.startsWith("x-ms-")) && listable.every((h) => exposed.has(h)));
  if (everything) return [];
  const msHeaders = listable.filter((h) => h.startsWith("x-ms-") && !exposed.has(h));
  return [...(exposed.has("content-md5") ? [] : ["content-md5"]), ...msHeaders];
}

async function checkOneStorageOrigin(storageOrigin: string, appOrigin: string, timeoutMs: number): Promise<CheckResult> {
  const id = `storage-cors:${storageOrigin}`;
  const title = `Storage CORS ${storageOrigin}`;
  const url = `${storageOrigin}${probePath(storageOrigin)}`;
  const fix = `Add a CORS rule on ${storageOrigin}'s blob service: origin ${appOrigin}, methods PUT and OPTIONS, allowed headers content-type,x-ms-*, exposed headers content-md5,x-ms-*.`;
  const preflight = await probe(
    url,
    {
      method: "OPTIONS",
      headers: { origin: appOrigin, "access-control-request-method": "PUT", "access-control-request-headers": UPLOAD_HEADERS.join(",") },
    },
    timeoutMs,
  );
  if (!preflight.ok) {
    return { id, title, status: "fail", detail: `no answer (${preflight.error})`, fix: "Check ESIGN_STORAGE_ORIGINS and that the storage account is reachable." };
  }
  const allowOrigin = preflight.headers.get("access-control-allow-origin");
  const allowMethods = listOf(preflight.headers.get("access-control-allow-methods"));
  const allowHeaders = listOf(preflight.headers.get("access-control-allow-headers"));
  const problems: string[] = [];
  if (preflight.status >= 300 || (allowOrigin !== appOrigin && allowOrigin !== "*")) {
    problems.push(`a PUT from ${appOrigin} is not allowed (preflight ${preflight.status})`);
  } else {
    if (!allowMethods.includes("put") && !allowMethods.includes("*")) problems.push("PUT is not an allowed method");
    const missing = UPLOAD_HEADERS.filter((h) => !allowHeaders.includes(h) && !allowHeaders.includes("*"));
    if (missing.length > 0) problems.push(`headers not allowed: ${missing.join(", ")}`);
  }
  if (problems.length > 0) return { id, title, status: "fail", detail: problems.join("; "), fix };

  // Exposed headers come on the actual response, not the preflight. An anonymous PUT (no SAS: refused,
  // creates nothing) is what the browser sends, and a rule allowing only PUT and OPTIONS answers it with CORS.
  const plain = await probe(
    url,
    { method: "PUT", body: "", headers: { origin: appOrigin, "content-type": "application/octet-stream", "x-ms-blob-type": "BlockBlob" } },
    timeoutMs,
  );
  if (!plain.ok) return { id, title, status: "fail", detail: `no answer to a PUT (${plain.error})`, fix };
  const unreadable = unreadableUploadHeaders(plain.headers);
  if (unreadable.length > 0) {
    const exposed = plain.headers.get("access-control-expose-headers") || "none";
    return { id, title, status: "fail", detail: `the browser cannot read ${unreadable.join(", ")} (exposed: ${exposed})`, fix };
  }
  return { id, title, status: "pass", detail: `PUT from ${appOrigin} with ${UPLOAD_HEADERS.join(", ")} allowed; content-md5 and x-ms-* readable` };
}

/** Check 7: for each storage origin, the browser may PUT from the app's origin and read the answer's headers. */
export async function checkStorageCors({ config, appOrigin }: DoctorContext): Promise<CheckResult[]> {
  if (config.storageOrigins.length === 0) {
    return [
      {
        id: "storage-cors",
        title: "Storage CORS",
        status: "fail",
        detail: "ESIGN_STORAGE_ORIGINS is empty, so the browser may upload nowhere",
        fix: "Set ESIGN_STORAGE_ORIGINS to the storage account's origin, e.g. https://account.blob.core.windows.net.",
      },
    ];
  }
  if (!appOrigin) {
    return [{ id: "storage-cors", title: "Storage CORS", status: "skip", detail: "AUTH_URL is not set, so the app's origin is not known" }];
  }
  return Promise.all(config.storageOrigins.map((origin) => checkOneStorageOrigin(origin, appOrigin, config.requestTimeoutMs)));
}
