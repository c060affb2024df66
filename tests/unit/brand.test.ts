import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { colord, extend } from "colord";
import a11yPlugin from "colord/plugins/a11y";
import { brandStyle, DEFAULT_BRAND_NAME, parseBrand } from "@/lib/brand/brand";
import { checkBrand } from "@/lib/doctor/brand-check";
import { ConfigError, parseConfig } from "@/lib/env";

extend([a11yPlugin]);
const AUTH_SECRET = "x".repeat(32);

describe("parseBrand", () => {
  it("keeps today's brand when nothing is set: name, mark, no palette override", () => {
    const { brand, problems } = parseBrand({});
    expect(problems).toEqual([]);
    expect(brand).toEqual({ name: DEFAULT_BRAND_NAME, mark: "eS" });
    expect(brandStyle(brand)).toBeUndefined();
  });

  it("derives a palette whose text pairs all meet WCAG AA from one dark colour", () => {
    const { brand, problems } = parseBrand({ BRAND_NAME: "Acme Legal", BRAND_COLOR: "#0f766e" });
    expect(problems).toEqual([]);
    expect(brand.mark).toBe("AL");
    const palette = brand.palette!;
    expect(palette["600"]).toBe("#0f766e");
    expect(colord("#ffffff").contrast(palette["600"])).toBeGreaterThanOrEqual(4.5);
    expect(colord(palette["700"]).contrast(palette["50"])).toBeGreaterThanOrEqual(4.5);
    expect(brandStyle(brand)).toEqual({
      "--color-brand-50": palette["50"],
      "--color-brand-100": palette["100"],
      "--color-brand-600": "#0f766e",
      "--color-brand-700": palette["700"],
    });
  });

  it("refuses a colour white text cannot be read on, naming BRAND_COLOR and the ratio", () => {
    const { problems } = parseBrand({ BRAND_COLOR: "#facc15" });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^BRAND_COLOR #facc15 is too light for white text on it \(buttons\): contrast 1\.\d\d:1, WCAG AA needs 4\.5:1/);
  });

  it("refuses what is not a hex colour", () => {
    expect(parseBrand({ BRAND_COLOR: "teal" }).problems).toEqual(["BRAND_COLOR must be a hex colour like #1d4ed8 (got teal)"]);
  });

  it("takes an email or an https URL as the support contact and nothing else", () => {
    expect(parseBrand({ BRAND_SUPPORT: "help@acme.example" }).brand.support).toEqual({ href: "mailto:help@acme.example", label: "help@acme.example" });
    expect(parseBrand({ BRAND_SUPPORT: "https://acme.example/help" }).brand.support).toEqual({ href: "https://acme.example/help", label: "acme.example/help" });
    expect(parseBrand({ BRAND_SUPPORT: "http://acme.example" }).problems).toEqual([
      "BRAND_SUPPORT must be an email address or an https URL (got http://acme.example)",
    ]);
  });

  it("takes a logo from public/ or an https URL, with its alt text; refuses paths that climb out", () => {
    expect(parseBrand({ BRAND_LOGO: "/brand/acme.svg", BRAND_LOGO_ALT: "Acme" }).brand.logo).toEqual({ src: "/brand/acme.svg", alt: "Acme" });
    expect(parseBrand({ BRAND_LOGO: "https://cdn.acme.example/logo.png" }).brand.logo).toEqual({ src: "https://cdn.acme.example/logo.png", alt: "" });
    expect(parseBrand({ BRAND_LOGO: "/../secret.svg" }).problems[0]).toMatch(/^BRAND_LOGO must be a path to an image in public\//);
    expect(parseBrand({ BRAND_LOGO: "logo.exe" }).problems).toHaveLength(1);
  });
});

describe("parseConfig with a brand", () => {
  it("lists an unreadable colour among the start-up problems", () => {
    expect(() => parseConfig({ AUTH_SECRET, BRAND_COLOR: "#fde68a" })).toThrow(ConfigError);
    try {
      parseConfig({ AUTH_SECRET, BRAND_COLOR: "#fde68a" });
    } catch (error) {
      expect((error as ConfigError).problems.some((p) => p.startsWith("BRAND_COLOR #fde68a is too light"))).toBe(true);
    }
  });
});

describe("checkBrand (npm run doctor)", () => {
  const config = (env: Record<string, string>) => parseConfig({ AUTH_SECRET, ...env });

  it("reports the brand it will use", () => {
    const result = checkBrand(config({ BRAND_NAME: "Acme Legal", BRAND_COLOR: "#0f766e", BRAND_SUPPORT: "help@acme.example" }));
    expect(result.status).toBe("pass");
    expect(result.detail).toMatch(/^name "Acme Legal", mark "AL", colour #0f766e \(white text 5\.\d\d:1\), support help@acme\.example$/);
  });

  it("fails a logo path that is not in public/, and passes it once the file is there", () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "brand-"));
    onTestFinished(() => rmSync(cwd, { recursive: true, force: true }));
    const withLogo = config({ BRAND_LOGO: "/brand/acme.svg" });
    expect(checkBrand(withLogo, cwd)).toMatchObject({ status: "fail", fix: expect.stringContaining("BRAND_LOGO /brand/acme.svg is not in public/") });
    mkdirSync(path.join(cwd, "public/brand"), { recursive: true });
    writeFileSync(path.join(cwd, "public/brand/acme.svg"), "<svg/>");
    expect(checkBrand(withLogo, cwd).status).toBe("pass");
  });
});
