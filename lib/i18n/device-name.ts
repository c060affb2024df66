import type { useTranslations } from "next-intl";
import type { DeviceParts } from "@/lib/session/device-label";
import { UNKNOWN_BROWSER, UNKNOWN_SYSTEM } from "@/lib/session/unknown-device";

type SessionsTranslator = ReturnType<typeof useTranslations<"sessions">>;

/**
 * A device in the page's language: "Chrome 131 on Linux" / "Linux の Chrome 131", with the catalog's words for a
 * browser or system the User-Agent did not name. The list of signed-in devices and a document's history both use it.
 */
export function deviceName(t: SessionsTranslator, { browser, os }: DeviceParts): string {
  return t("device", {
    browser: browser === UNKNOWN_BROWSER ? t("unknownBrowser") : browser,
    os: os === UNKNOWN_SYSTEM ? t("unknownSystem") : os,
  });
}
