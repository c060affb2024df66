import type { ReactNode } from "react";
import { ApiError } from "@/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { SignInAgainButton } from "@/components/sign-in-again-button";
import { RecordView } from "@/app/account/_components/record-view";
import { useTranslations } from "next-intl";
import { useErrorText } from "@/lib/i18n/error-text";

export type AccountPanelProps = {
  record: Record<string, unknown> | null;
  error: Error | null;
  /** No record and no error yet: the browser is asking the route handler. */
  loading: boolean;
  /** A request for the record is under way (Refresh shows a spinner and is disabled). */
  fetching: boolean;
  onRefresh: () => void;
  /**
   * The record as the server rendered it (a Server Component's output), shown instead of rendering `record` here:
   * its dates and numbers were formatted on the server, so hydration builds no `Intl` formatter (docs/page-weight.md).
   */
  renderedRecord?: ReactNode;
};

/** The account card as the user sees it, whoever holds the record: the server's render or the account query. */
export function AccountPanel({ record, error, loading, fetching, onRefresh, renderedRecord }: AccountPanelProps) {
  const t = useTranslations("account");
  return (
    <Card aria-busy={loading}>
      <CardHeader layout="row" className="items-center">
        <div>
          <CardTitle>{t("detailsTitle")}</CardTitle>
          <CardDescription>{t("detailsSource")}</CardDescription>
        </div>
        <Button variant="ghost" size="sm" onClick={onRefresh} disabled={fetching}>
          {fetching ? <Spinner label={t("refreshing")} /> : null}
          {t("refresh")}
        </Button>
      </CardHeader>
      <CardContent>
        {loading ? (
          <AccountSkeleton />
        ) : error ? (
          <AccountError error={error} onRetry={onRefresh} />
        ) : record ? (
          (renderedRecord ?? <RecordView record={record} />)
        ) : null}
      </CardContent>
    </Card>
  );
}

function AccountSkeleton() {
  const t = useTranslations("account");
  return (
    <div className="flex flex-col gap-3" data-testid="account-loading">
      <span className="sr-only" role="status">
        {t("loading")}
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
  const t = useTranslations("account");
  const common = useTranslations("common");
  const errorText = useErrorText();
  if (error instanceof ApiError && error.code === "CUSTOMER_NOT_FOUND") {
    return (
      <Alert tone="info" title={t("noCustomerTitle")} data-testid="customer-not-found">
        {t("noCustomerBody")}
      </Alert>
    );
  }
  if (error instanceof ApiError && error.needsSignIn) {
    return (
      <Alert tone="warning" title={t("sessionExpiredTitle")} action={<SignInAgainButton />}>
        {errorText(error)}
      </Alert>
    );
  }
  const retryable = !(error instanceof ApiError) || error.retryable;
  return (
    <Alert
      tone="error"
      title={t("loadFailed")}
      action={
        retryable ? (
          <Button size="sm" variant="secondary" onClick={onRetry}>
            {common("tryAgain")}
          </Button>
        ) : undefined
      }
    >
      {errorText(error)}
      {error instanceof ApiError && error.requestId ? <> {common("reference", { requestId: error.requestId })}</> : null}
    </Alert>
  );
}
