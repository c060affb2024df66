import { colord, extend, type Colord } from "colord";
import a11yPlugin from "colord/plugins/a11y";
import mixPlugin from "colord/plugins/mix";

extend([a11yPlugin, mixPlugin]);

/** The shades the UI uses (app/globals.css `--color-brand-*`), each derived from one primary colour. */
export type BrandPalette = Record<"50" | "100" | "600" | "700", string>;

/** What a partner puts on the app: name, mark or logo, colours, and where users get help. Nothing secret. */
export type Brand = {
  name: string;
  /** Two letters shown in the header's square when there is no logo. */
  mark: string;
  /** `src` is a path under public/ or an https URL; an empty `alt` marks it decorative (the name is beside it). */
  logo?: { src: string; alt: string };
  /** Absent: app/globals.css's own shades apply, today's look. */
  palette?: BrandPalette;
  /** A mailto: or https link that error pages and "contact …" messages show. */
  support?: { href: string; label: string };
};

export const DEFAULT_BRAND_NAME = "eSign Partner";
/** Today's mark (public/brand/mark.svg): the icon of a brand without a logo. */
export const BRAND_ICON_FALLBACK = "/brand/mark.svg";
const DEFAULT_MARK = "eS";

/** WCAG 2.1 AA for normal-size text. */
const AA_TEXT_CONTRAST = 4.5;
const WHITE = "#ffffff";

/**
 * The palette from one colour: 600 is the colour itself (buttons with white text, the mark, focus rings), 700 a
 * little darker (links and hover), 50/100 tints for selected and highlighted backgrounds.
 */
function paletteOf(color: Colord): BrandPalette {
  return {
    "50": color.mix(WHITE, 0.94).toHex(),
    "100": color.mix(WHITE, 0.86).toHex(),
    "600": color.toHex(),
    "700": color.mix("#000000", 0.18).toHex(),
  };
}

/** The pairs of the palette that carry text, each of which must meet AA, with the words to explain a failure. */
function contrastProblems(palette: BrandPalette, raw: string): string[] {
  const pairs = [
    { fg: WHITE, bg: palette["600"], what: "white text on it (buttons)" },
    { fg: palette["700"], bg: palette["50"], what: "its darker shade on its lightest tint (links on highlighted rows)" },
  ];
  return pairs.flatMap(({ fg, bg, what }) => {
    const ratio = colord(fg).contrast(bg);
    return ratio >= AA_TEXT_CONTRAST
      ? []
      : [`BRAND_COLOR ${raw} is too light for ${what}: contrast ${ratio.toFixed(2)}:1, WCAG AA needs ${AA_TEXT_CONTRAST}:1; choose a darker colour`];
  });
}

function markOf(name: string): string {
  const words = name.trim().split(/\s+/u);
  const letters = words.length > 1 ? [...words[0]!].slice(0, 1).concat([...words[1]!].slice(0, 1)) : [...name.trim()].slice(0, 2);
  return letters.join("");
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const IMAGE_PATH = /^\/(?!.*\.\.)[\w\-./]+\.(svg|png|webp|jpe?g|ico)$/i;

function supportOf(raw: string): Brand["support"] | string {
  if (EMAIL.test(raw)) return { href: `mailto:${raw}`, label: raw };
  if (URL.canParse(raw) && new URL(raw).protocol === "https:") {
    const url = new URL(raw);
    return { href: url.href, label: `${url.host}${url.pathname === "/" ? "" : url.pathname}` };
  }
  return `BRAND_SUPPORT must be an email address or an https URL (got ${raw})`;
}

function logoOf(raw: string, alt: string): Brand["logo"] | string {
  if (IMAGE_PATH.test(raw)) return { src: raw, alt };
  if (URL.canParse(raw) && new URL(raw).protocol === "https:") return { src: raw, alt };
  return `BRAND_LOGO must be a path to an image in public/ (e.g. /brand/logo.svg) or an https URL (got ${raw})`;
}

/** The brand from BRAND_* variables, with one problem per bad value; unset variables keep today's brand. */
export function parseBrand(source: Record<string, string | undefined>): { brand: Brand; problems: string[] } {
  const problems: string[] = [];
  const name = source.BRAND_NAME?.trim() || DEFAULT_BRAND_NAME;
  if (name.length > 60) problems.push("BRAND_NAME must be at most 60 characters");
  const brand: Brand = { name, mark: source.BRAND_NAME?.trim() ? markOf(name) : DEFAULT_MARK };

  const logo = source.BRAND_LOGO?.trim();
  if (logo) {
    const parsed = logoOf(logo, source.BRAND_LOGO_ALT?.trim() ?? "");
    if (typeof parsed === "string") problems.push(parsed);
    else brand.logo = parsed;
  }

  const color = source.BRAND_COLOR?.trim();
  if (color) {
    const parsed = colord(color);
    if (!parsed.isValid() || !/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color)) {
      problems.push(`BRAND_COLOR must be a hex colour like #1d4ed8 (got ${color})`);
    } else {
      const palette = paletteOf(parsed);
      const contrast = contrastProblems(palette, color);
      if (contrast.length > 0) problems.push(...contrast);
      else brand.palette = palette;
    }
  }

  const support = source.BRAND_SUPPORT?.trim();
  if (support) {
    const parsed = supportOf(support);
    if (typeof parsed === "string") problems.push(parsed);
    else brand.support = parsed;
  }
  return { brand, problems };
}

/** The palette as the CSS custom properties Tailwind's `brand-*` utilities read (app/globals.css). */
export function brandStyle(brand: Brand): Record<string, string> | undefined {
  if (!brand.palette) return undefined;
  return Object.fromEntries(Object.entries(brand.palette).map(([shade, hex]) => [`--color-brand-${shade}`, hex]));
}

/** The contrast of white text on the brand colour, for reports (`npm run doctor`). */
export function whiteTextContrast(palette: BrandPalette): number {
  return colord(WHITE).contrast(palette["600"]);
}
