import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { getTranslations } from "next-intl/server";
import { useTranslations } from "next-intl";
import { requireOperator } from "@/lib/operators/operator-access";
import { viewAsOperator } from "@/lib/operators/operator-view";
import type { OperatorSearchResult } from "@/lib/operators/types";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Label } from "@/components/ui/input";
import { LocalTime } from "@/components/local-time";
import { OperatorPageHeading } from "@/app/operator/_components/operator-nav";
import { DatabaseUnavailable } from "@/app/operator/_components/database-unavailable";
import { OperatorDocumentRows } from "@/app/operator/_components/document-rows";
import { operatorUserHref } from "@/app/operator/_components/links";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("operator.search");
  return { title: t("metaTitle") };
}

/** As long as a document name may be; a longer query cannot match anything. */
const MAX_QUERY_LENGTH = 200;

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * One box for the three things a caller can tell an operator: their email, part of the document's name (Japanese
 * too), or the service's item id. Users and documents come back in separate lists. Each search is in the access log.
 */
export default async function OperatorSearchPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const [query, t] = await Promise.all([searchParams, getTranslations("operator.search")]);
  const raw = query.q;
  const q = ((Array.isArray(raw) ? raw[0] : raw) ?? "").normalize("NFC").trim();
  const tooLong = q.length > MAX_QUERY_LENGTH;
  const view = q && !tooLong ? await viewAsOperator(operator, { action: "search", detail: q }, (records) => records.searchOperator(q)) : null;
  const result: OperatorSearchResult | null = view && !view.unavailable ? view.data : null;
  return (
    <>
      <OperatorPageHeading current="search" title={t("title")} intro={t("intro")} />
      <form method="get" action="/operator/search" role="search" aria-label={t("formLabel")} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-1.5">
          <Label htmlFor="operator-q">{t("label")}</Label>
          <Input
            id="operator-q"
            name="q"
            type="search"
            defaultValue={q}
            autoComplete="off"
            placeholder={t("placeholder")}
            aria-invalid={tooLong ? true : undefined}
            aria-describedby={tooLong ? "operator-q-error" : undefined}
          />
        </div>
        <Button type="submit">{t("button")}</Button>
      </form>
      {tooLong ? (
        <Alert tone="error" title={t("tooLongTitle")} id="operator-q-error" data-testid="operator-search-error">
          {t("tooLong", { max: MAX_QUERY_LENGTH })}
        </Alert>
      ) : null}
      {view?.unavailable ? <DatabaseUnavailable /> : null}
      {result ? <Results result={result} /> : !q ? <p className="text-sm text-slate-600">{t("hint")}</p> : null}
    </>
  );
}

function Results({ result }: { result: OperatorSearchResult }) {
  const t = useTranslations("operator.search");
  const operator = useTranslations("operator");
  return (
    <div className="flex flex-col gap-6" data-testid="operator-search-results">
      <Card aria-labelledby="users-found-title">
        <CardHeader>
          <CardTitle id="users-found-title">{t("users", { count: result.users.length })}</CardTitle>
        </CardHeader>
        <CardContent>
          {result.users.length === 0 ? (
            <p className="text-sm text-slate-600">{t("noUsers")}</p>
          ) : (
            <ul className="flex flex-col divide-y divide-slate-100" aria-label={t("usersLabel")} data-testid="operator-user-rows">
              {result.users.map((user) => (
                <li key={user.userKey} className="flex flex-col gap-1 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between sm:gap-4" data-testid="operator-user-row">
                  <div className="flex min-w-0 flex-col gap-0.5">
                    <Link href={operatorUserHref(user.userKey)} className="break-all font-medium text-brand-700 underline-offset-2 hover:underline" translate="no">
                      {user.email ?? operator("noEmail")}
                    </Link>
                    <span className="text-xs text-slate-600">
                      {user.displayName ? <span translate="no">{user.displayName} · </span> : null}
                      {operator("lastSeen")} <LocalTime iso={user.lastSeenAt} style="absolute" />
                    </span>
                  </div>
                  <span className="shrink-0 text-sm text-slate-700">{operator("documentCount", { count: user.documentCount })}</span>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card aria-labelledby="documents-found-title">
        <CardHeader>
          <CardTitle id="documents-found-title">{t("documents", { count: result.documents.length })}</CardTitle>
        </CardHeader>
        <CardContent>
          {result.documents.length === 0 ? (
            <p className="text-sm text-slate-600">{t("noDocuments")}</p>
          ) : (
            <OperatorDocumentRows documents={result.documents} showUser label={t("documentsLabel")} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
