import { describe, expect, it } from "vitest";
import { createTranslator } from "next-intl";
import en from "@/messages/en.json";
import ja from "@/messages/ja.json";
import { deviceName } from "@/lib/i18n/device-name";
import { formatDeviceLabel, parseDeviceLabel } from "@/lib/session/device-label";
import { UNKNOWN_BROWSER, UNKNOWN_SYSTEM } from "@/lib/session/unknown-device";

describe("a device as an audit-trail event keeps it, named in the page's language", () => {
  it("reads back the browser and system of a stored label", () => {
    const label = formatDeviceLabel({ browser: "Mobile Safari 17", os: "iOS 17.1" });
    expect(label).toBe("Mobile Safari 17 on iOS 17.1");
    expect(parseDeviceLabel(label)).toEqual({ browser: "Mobile Safari 17", os: "iOS 17.1" });
  });

  it("answers null for a text it did not write", () => {
    expect(parseDeviceLabel("curl/8.5")).toBeNull();
    expect(parseDeviceLabel(" on Linux")).toBeNull();
    expect(parseDeviceLabel("Chrome 131 on ")).toBeNull();
  });

  it("names the device as the list of signed-in devices does, unknown parts in the catalog's words", () => {
    const english = createTranslator({ locale: "en", messages: en, namespace: "sessions" });
    const japanese = createTranslator({ locale: "ja", messages: ja, namespace: "sessions" });
    const stored = parseDeviceLabel("Chrome 131 on Linux")!;
    expect(deviceName(english, stored)).toBe("Chrome 131 on Linux");
    expect(deviceName(japanese, stored)).toBe("Linux の Chrome 131");
    expect(deviceName(japanese, parseDeviceLabel(formatDeviceLabel({ browser: UNKNOWN_BROWSER, os: UNKNOWN_SYSTEM }))!)).toBe("不明なシステム の 不明なブラウザー");
  });
});
