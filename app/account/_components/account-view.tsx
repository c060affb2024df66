"use client";
import { useState } from "react";
import { ApiError } from "@/lib/api-client";
import { useAccount } from "@/lib/queries/account";
import type { InitialAccount } from "@/lib/queries/account-key";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { SignInAgainButton } from "@/components/sign-in-again-button";
import { RecordView } from "@/app/account/_components/record-view";

/** The record as the server's render fetched it, or the refusal it got; Refresh asks the route handler. */
export function AccountView({ initial }: { initial: InitialAccount }) {
  const { data, error, isPending, isFetching, refetch } = useAccount(initial);
  const [serverError] = useState(() => initial.failure && new ApiError(initial.failure.status, initial.failure.code, initial.failure.message));
  // The server's refusal stands until a refresh brings the record or a newer error.
  const shownError = error ?? (data ? null : serverError);
  const loading = isPending && !shownError;

  return (
    <Card aria-busy={loading}>
      <CardHeader layout="row" className="items-center">
        <div>
          <CardTitle>Account details</CardTitle>
          <CardDescription>From the service&apos;s getuserinfo operation.</CardDescription>
        </div>
        <Button variant="ghost" size="sm" onClick={() => void refetch()} disabled={isFetching}>
          {isFetching ? <Spinner label="Refreshing account details" /> : null}
          Refresh
        </Button>
      </CardHeader>
      <CardContent>
        {loading ? (
          <AccountSkeleton />
        ) : shownError ? (
          <AccountError error={shownError} onRetry={() => void refetch()} />
        ) : data ? (
          <RecordView record={data} />
        ) : null}
      </CardContent>
    </Card>
  );
}

function AccountSkeleton() {
  return (
    <div className="flex flex-col gap-3" data-testid="account-loading">
      <span className="sr-only" role="status">
        Loading account details
      </span>
      {[0, 1, 2, 3].map((i) => (
        <div key={i} className="grid grid-cols-[8rem_1fr] gap-4">
          <Skeleton className="h-4" />
          <Skeleton className="h-4" />
        </div>
      ))}
    </div>
  );
}

function AccountError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  if (error instanceof ApiError && error.code === "CUSTOMER_NOT_FOUND") {
    return (
      <Alert tone="info" title="No customer account yet" data-testid="customer-not-found">
        You are signed in, but the e-signature service has no customer account for this user. An account on any plan is
        needed to use the API: create or join one at the service, then come back and refresh.
      </Alert>
    );
  }
  if (error instanceof ApiError && error.needsSignIn) {
    return (
      <Alert tone="warning" title="Your session has expired" action={<SignInAgainButton />}>
        {error.message}
      </Alert>
    );
  }
  const retryable = !(error instanceof ApiError) || error.retryable;
  return (
    <Alert
      tone="error"
      title="We could not load your account"
      action={
        retryable ? (
          <Button size="sm" variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        ) : undefined
      }
    >
      {error.message}
      {error instanceof ApiError && error.requestId ? <> (reference {error.requestId})</> : null}
    </Alert>
  );
}
