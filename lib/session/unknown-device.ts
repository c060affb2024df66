/**
 * What a session records when its User-Agent names no browser or system. Stored in the session as these words; the
 * session list shows the catalog's text for them instead (`sessions.unknownBrowser`, `sessions.unknownSystem`).
 */
export const UNKNOWN_BROWSER = "Unknown browser";
export const UNKNOWN_SYSTEM = "Unknown system";
