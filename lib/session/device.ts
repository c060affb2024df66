import "server-only";
import { UAParser } from "ua-parser-js";
import { UNKNOWN_BROWSER, UNKNOWN_SYSTEM } from "@/lib/session/unknown-device";

/** "Chrome 131" and "macOS 15" from a User-Agent header, for the list of signed-in devices. */
export function describeDevice(userAgent: string | null | undefined): { browser: string; os: string } {
  const parsed = new UAParser(userAgent ?? "").getResult();
  const major = parsed.browser.version?.split(".")[0];
  return {
    browser: parsed.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ""}` : UNKNOWN_BROWSER,
    os: parsed.os.name ? `${parsed.os.name}${parsed.os.version ? ` ${parsed.os.version}` : ""}` : UNKNOWN_SYSTEM,
  };
}
