"use client";
import { useEffect } from "react";
import { Providers } from "@/app/providers";
import { useAccount } from "@/lib/queries/account";
import type { InitialAccount } from "@/lib/queries/account-key";
import { AccountPanel } from "@/app/account/_components/account-panel";

type LiveAccountProps = { initial: InitialAccount; serverError: Error | null; refetchNow: boolean };

/**
 * The account card driven by the account query (react-query). Loaded by `import()` from account-view.tsx, only
 * once the record has to be fetched in the browser, so the query client is not in the page's first load.
 */
export default function LiveAccountView(props: LiveAccountProps) {
  return (
    <Providers>
      <LiveAccount {...props} />
    </Providers>
  );
}

function LiveAccount({ initial, serverError, refetchNow }: LiveAccountProps) {
  const { data, error, isPending, isFetching, refetch } = useAccount(initial);
  // Mounted by a click on Refresh or Try again: that click asks for the record.
  useEffect(() => {
    if (refetchNow) void refetch();
  }, [refetchNow, refetch]);
  // The server's refusal stands until a refresh brings the record or a newer error.
  const shownError = error ?? (data ? null : serverError);
  return (
    <AccountPanel
      record={data ?? null}
      error={shownError}
      loading={isPending && !shownError}
      fetching={isFetching}
      onRefresh={() => void refetch()}
    />
  );
}
