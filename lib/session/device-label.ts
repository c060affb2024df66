/**
 * The one-line device text an audit-trail event keeps ("Chrome 131 on macOS 15", English, as stored since the first
 * record), and its way back to browser and system, so a page can name the device in its own language
 * (`sessions.device`: "macOS 15 の Chrome 131"). Neither part contains " on ": browser names and versions from
 * ua-parser-js don't, nor do the unknown-device words.
 */
const SEPARATOR = " on ";

export type DeviceParts = { browser: string; os: string };

/** "Chrome 131" and "macOS 15" → "Chrome 131 on macOS 15". */
export function formatDeviceLabel({ browser, os }: DeviceParts): string {
  return `${browser}${SEPARATOR}${os}`;
}

/** "Chrome 131 on macOS 15" → its two parts; null for a text not written by formatDeviceLabel. */
export function parseDeviceLabel(label: string): DeviceParts | null {
  const at = label.indexOf(SEPARATOR);
  if (at <= 0 || at + SEPARATOR.length >= label.length) return null;
  return { browser: label.slice(0, at), os: label.slice(at + SEPARATOR.length) };
}
