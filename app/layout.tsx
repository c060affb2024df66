import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { CSSProperties, ReactNode } from "react";
import "./globals.css";
import { SiteHeader } from "@/components/site-header";
import { SessionExpiredNotice } from "@/components/session-expired-notice";
import { BrandSupportProvider } from "@/components/brand-support-context";
import { brandStyle } from "@/lib/brand/brand";
import { getConfig } from "@/lib/env";

/** Today's mark, as the favicon when the deployer sets no logo. */
const DEFAULT_ICON = "/brand/mark.svg";

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
  return {
    title: { default: brand.name, template: `%s · ${brand.name}` },
    description: "Sign in with the e-signature service, see your account and upload documents.",
    icons: { icon: brand.logo?.src ?? DEFAULT_ICON },
  };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const brand = await brandAtRequest();
  return (
    <html lang="en" style={brandStyle(brand) as CSSProperties | undefined}>
      <body className="min-h-dvh">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          Skip to content
        </a>
        <SiteHeader />
        <SessionExpiredNotice />
        <BrandSupportProvider support={brand.support}>
          <main id="main" className="mx-auto max-w-5xl px-4 py-8">
            {children}
          </main>
        </BrandSupportProvider>
      </body>
    </html>
  );
}
