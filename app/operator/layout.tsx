import type { ReactNode } from "react";
import { requireOperator } from "@/lib/operators/operator-access";

/**
 * Every page under /operator: anyone but an operator gets the 404 page before any of it renders, decided here on the
 * server (and again by each page, so that no page depends on the layout having run first).
 */
export default async function OperatorLayout({ children }: { children: ReactNode }) {
  await requireOperator();
  return <div className="flex flex-col gap-6">{children}</div>;
}
