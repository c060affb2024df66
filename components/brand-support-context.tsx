"use client";
import { createContext, useContext, type ReactNode } from "react";
import type { Brand } from "@/lib/brand/brand";

const BrandSupportContext = createContext<Brand["support"]>(undefined);

/** Hands the support contact to client-side error views (app/error.tsx), which cannot read the server's config. */
export function BrandSupportProvider({ support, children }: { support: Brand["support"]; children: ReactNode }) {
  return <BrandSupportContext value={support}>{children}</BrandSupportContext>;
}

export function useBrandSupport(): Brand["support"] {
  return useContext(BrandSupportContext);
}
