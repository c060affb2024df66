const UNITS = ["B", "KiB", "MiB", "GiB", "TiB"] as const;

/**
 * 1536 → "1.5 KiB"; binary units (1 KiB = 1024 B) everywhere in the app, as file managers and `ls -h` show sizes,
 * with the number written the locale's way (`1,023 B`).
 */
export function formatBytes(bytes: number, locale = "en"): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 ? 0 : value < 10 ? 1 : 0;
  const number = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  return `${number} ${UNITS[unit]}`;
}

/** Bytes per second → "12 MiB/s". */
export function formatSpeed(bytesPerSecond: number, locale = "en"): string {
  return `${formatBytes(bytesPerSecond, locale)}/s`;
}

const unit = (locale: string, name: "second" | "minute" | "hour", value: number) =>
  new Intl.NumberFormat(locale, { style: "unit", unit: name, unitDisplay: "short" }).format(value);

/** 75 → "1 min 15 sec" / "1 分 15 秒"; 3700 → "1 hr 1 min" / "1 時間 1 分". */
export function formatDuration(seconds: number, locale = "en"): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return unit(locale, "second", s);
  if (s < 3600) return [unit(locale, "minute", Math.floor(s / 60)), ...(s % 60 ? [unit(locale, "second", s % 60)] : [])].join(" ");
  return `${unit(locale, "hour", Math.floor(s / 3600))} ${unit(locale, "minute", Math.floor((s % 3600) / 60))}`;
}
