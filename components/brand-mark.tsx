import type { Brand } from "@/lib/brand/brand";

/** The partner's logo, or a square with two letters of its name in the brand colour. */
export function BrandMark({ brand }: { brand: Brand }) {
  if (brand.logo) {
    // A plain img: the logo may be an SVG or live on the partner's CDN, and next/image would proxy and re-encode it.
    // eslint-disable-next-line @next/next/no-img-element
    return <img src={brand.logo.src} alt={brand.logo.alt} className="h-8 w-auto max-w-40 shrink-0 object-contain" data-testid="brand-logo" />;
  }
  return (
    <span aria-hidden="true" className="grid size-8 shrink-0 place-items-center rounded-lg bg-brand-600 text-sm text-white">
      {brand.mark}
    </span>
  );
}
