"use client";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { ApiError } from "@/lib/api-client";
import { useHydrated } from "@/lib/use-hydrated";
import type { InitialAccount } from "@/lib/queries/account-key";
import { AccountPanel } from "@/app/account/_components/account-panel";

// react-query and the account query (~10 KiB gzip) load only when the browser has to fetch the record.
const LiveAccountView = lazy(() => import("@/app/account/_components/live-account-view"));

/**
 * The record (or the refusal) as the server's render fetched it. The account query takes over when the browser
 * has to ask the route handler: at once if the server's fetch failed (outage), else at the first Refresh.
 * `renderedRecord` is that record as the server rendered it (RecordView as a Server Component).
 */
export function AccountView({ initial, renderedRecord }: { initial: InitialAccount; renderedRecord?: ReactNode }) {
  const [serverError] = useState(() => initial.failure && new ApiError(initial.failure.status, initial.failure.code, initial.failure.message));
  const fromServer = initial.record !== null || serverError !== null;
  const [refreshed, setRefreshed] = useState(false);
  // Live after hydration, never in the server's render: rendering the lazy view there would stream it behind
  // a Suspense fallback, i.e. the skeleton twice in the HTML.
  const hydrated = useHydrated();
  const live = refreshed || (!fromServer && hydrated);

  const asRendered = (
    <AccountPanel
      record={initial.record}
      error={initial.record ? null : serverError}
      loading={!fromServer}
      fetching={live || !fromServer}
      onRefresh={() => setRefreshed(true)}
      renderedRecord={renderedRecord}
    />
  );
  if (!live) return asRendered;
  return (
    <Suspense fallback={asRendered}>
      <LiveAccountView initial={initial} serverError={serverError} refetchNow={fromServer} />
    </Suspense>
  );
}
