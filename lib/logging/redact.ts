/**
 * Secret-shaped text that must never reach a log line, whatever field it hides in: bearer tokens, the SAS
 * signature of an upload URL, form- or JSON-encoded client secrets and OAuth tokens.
 */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, "$1 [redacted]"],
  [/([?&]sig=)[^&\s"']+/gi, "$1[redacted]"],
  [/((?:client_secret|access_token|refresh_token|id_token|code_verifier)=)[^&\s"']+/gi, "$1[redacted]"],
  [/("(?:client_secret|access_token|refresh_token|id_token|accessToken|refreshToken|idToken)"\s*:\s*")[^"]*/gi, "$1[redacted]"],
];

/** The string with every secret-shaped part replaced by `[redacted]`. */
export function scrubSecrets(text: string): string {
  return SECRET_PATTERNS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** Log-record keys whose values are always secret, wherever they appear. */
export const SECRET_KEYS = [
  "authorization",
  "cookie",
  "set-cookie",
  "client_secret",
  "clientSecret",
  "access_token",
  "refresh_token",
  "id_token",
  "accessToken",
  "refreshToken",
  "idToken",
  "token",
  "password",
  "sig",
];

const SECRET_KEY_SET = new Set(SECRET_KEYS.map((k) => k.toLowerCase()));

/** A copy of a log record with secret keys replaced and secret-shaped text scrubbed, at any depth. */
export function redactRecord(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubSecrets(value);
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redactRecord(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEY_SET.has(key.toLowerCase()) ? "[redacted]" : redactRecord(v, depth + 1);
  }
  return out;
}
