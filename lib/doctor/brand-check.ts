import "server-only";
import { existsSync } from "node:fs";
import path from "node:path";
import { DEFAULT_BRAND_NAME, whiteTextContrast } from "@/lib/brand/brand";
import type { CheckResult } from "@/lib/doctor/report";
import type { AppConfig } from "@/lib/env";

/**
 * The brand the app will show (BRAND_*). The values were validated by parseConfig; what is left to check is
 * that a logo given as a path exists in public/, where the server serves it from (the standalone build copies it).
 */
export function checkBrand(config: AppConfig, cwd = process.cwd()): CheckResult {
  const { brand } = config;
  const parts = [
    `name "${brand.name}"${brand.name === DEFAULT_BRAND_NAME ? " (default)" : ""}`,
    brand.logo ? `logo ${brand.logo.src}${brand.logo.alt ? ` (alt "${brand.logo.alt}")` : " (decorative)"}` : `mark "${brand.mark}"`,
    brand.palette ? `colour ${brand.palette["600"]} (white text ${whiteTextContrast(brand.palette).toFixed(2)}:1)` : "default colour",
    brand.support ? `support ${brand.support.label}` : "no support contact (BRAND_SUPPORT)",
  ];
  const result: CheckResult = { id: "brand", title: "Brand", status: "pass", detail: parts.join(", ") };
  if (brand.logo && brand.logo.src.startsWith("/") && !existsSync(path.join(cwd, "public", brand.logo.src))) {
    return {
      ...result,
      status: "fail",
      fix: `BRAND_LOGO ${brand.logo.src} is not in public/ (${path.join("public", brand.logo.src)}): add the file or correct the path.`,
    };
  }
  return result;
}
