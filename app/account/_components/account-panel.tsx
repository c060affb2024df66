import { ApiError } from "@/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { SignInAgainButton } from "@/components/sign-in-again-button";
import { RecordView } from "@/app/account/_components/record-view";

export type AccountPanelProps = {
  record: Record<string, unknown> | null;
  error: Error | null;
  /** No record and no error yet: the browser is asking the route handler. */
  loading: boolean;
  /** A request for the record is under way (Refresh shows a spinner and is disabled). */
  fetching: boolean;
  onRefresh: () => void;
};

/** The account card as the user sees it, whoever holds the record: the server's render or the account query. */
export function AccountPanel({ record, error, loading, fetching, onRefresh }: AccountPanelProps) {
  return (
    <Card aria-busy={loading}>
      <CardHeader layout="row" className="items-center">
        <div>
          <CardTitle>Account details</CardTitle>
          <CardDescription>From the service&apos;s getuserinfo operation.</CardDescription>
        </div>
        <Button variant="ghost" size="sm" onClick={onRefresh} disabled={fetching}>
          {fetching ? <Spinner label="Refreshing account details" /> : null}
          Refresh
        </Button>
      </CardHeader>
      <CardContent>
        {loading ? (
          <AccountSkeleton />
        ) : error ? (
          <AccountError error={error} onRetry={onRefresh} />
        ) : record ? (
          <RecordView record={record} />
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
