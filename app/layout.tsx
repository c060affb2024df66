import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { CSSProperties, ReactNode } from "react";
import "./globals.css";
import { SiteHeader } from "@/components/site-header";
import { SessionExpiredNotice } from "@/components/session-expired-notice";
import { BrandSupportProvider } from "@/components/brand-support-context";
import { BRAND_ICON_FALLBACK, brandStyle } from "@/lib/brand/brand";
import { getConfig } from "@/lib/env";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { clientMessages, ROOT_CLIENT_NAMESPACES } from "@/lib/i18n/client-messages";
import { TimeZoneCookie } from "@/components/time-zone-cookie";

/**
 * The brand is read at request time, never at build time: a built app is branded by the environment it starts in
 * (and `next build` has no AUTH_SECRET to validate a configuration with).
 */
async function brandAtRequest() {
  await connection();
  return getConfig().brand;
}

export async function generateMetadata(): Promise<Metadata> {
  const brand = await brandAtRequest();
  const t = await getTranslations("meta");
  return {
    title: { default: brand.name, template: `%s · ${brand.name}` },
    description: t("description"),
    // The same icon /favicon.ico sends browsers to (app/favicon.ico/route.ts).
    icons: { icon: brand.logo?.src ?? BRAND_ICON_FALLBACK },
  };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const brand = await brandAtRequest();
  const [locale, timeZone, t, messages] = await Promise.all([
    getLocale(),
    getTimeZone(),
    getTranslations("layout"),
    clientMessages(ROOT_CLIENT_NAMESPACES),
  ]);
  return (
    <html lang={locale} style={brandStyle(brand) as CSSProperties | undefined}>
      <body className="min-h-dvh">
        <NextIntlClientProvider messages={messages}>
          <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:rounded focus:bg-white focus:px-3 focus:py-2">
            {t("skipToContent")}
          </a>
          <SiteHeader />
          <SessionExpiredNotice />
          <BrandSupportProvider support={brand.support}>
            <main id="main" className="mx-auto max-w-5xl px-4 py-8">
              {children}
            </main>
          </BrandSupportProvider>
          <TimeZoneCookie known={timeZone} />
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
