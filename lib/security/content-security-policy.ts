/**
 * The Content-Security-Policy for one response. Scripts run only with this request's nonce (and what
 * they load, via 'strict-dynamic'); images come from the app or the brand logo's origin; the browser may talk only to this app and the storage origins
 * uploads go to; forms may post only to the app and the auth server (sign-in redirects there).
 */
export function buildContentSecurityPolicy(options: {
  nonce: string;
  authOrigin: string;
  storageOrigins: string[];
  /** Where a brand logo given as an https URL lives (BRAND_LOGO). */
  imageOrigins?: string[];
  development: boolean;
}): string {
  const { nonce, authOrigin, storageOrigins, imageOrigins = [], development } = options;
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    // 'wasm-unsafe-eval' lets the MD5 hasher (WebAssembly) compile; React's dev build needs 'unsafe-eval'.
    "script-src": ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", "'wasm-unsafe-eval'", ...(development ? ["'unsafe-eval'"] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...imageOrigins],
    "font-src": ["'self'"],
    "worker-src": ["'self'", "blob:"],
    "connect-src": ["'self'", ...storageOrigins, ...(development ? ["ws:"] : [])],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'", authOrigin],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** A fresh nonce per response (128 bits, base64). */
export function createNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}
