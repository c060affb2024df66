"use client";
import { usePathname, useSearchParams } from "next/navigation";

/** The page the browser is on (path and query), so a form's handler can send it back there. */
export function ReturnToInput() {
  const pathname = usePathname();
  const query = useSearchParams().toString();
  return <input type="hidden" name="returnTo" value={query ? `${pathname}?${query}` : pathname} />;
}
