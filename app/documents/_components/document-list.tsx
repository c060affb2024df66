import { Link } from "@/components/ui/link";
import { getLocale, getTranslations } from "next-intl/server";
import { loadDocumentListPage } from "@/lib/documents/document-list-page";
import { isFiltered, newerHref, olderHref, type DocumentListParams } from "@/lib/documents/document-list-params";
import { formatBytes } from "@/lib/upload/format";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LocalTime } from "@/components/local-time";
import { DocumentFilters } from "@/app/documents/_components/document-filters";
import { StatusBadge } from "@/app/documents/_components/document-status";
import { useTranslations } from "next-intl";

type Props = { userKey: string; params: DocumentListParams; doctypeSuggestions: string[] };

/**
 * The user's documents from the app's record, newest first, rendered on the server: no client-side data library,
 * and the filters and pages are links and a GET form. Uploads keep working when the record's database is down;
 * the list then says so instead of showing nothing.
 */
export async function DocumentList({ userKey, params, doctypeSuggestions }: Props) {
  const [loaded, t, documents, locale] = await Promise.all([
    loadDocumentListPage(userKey, params),
    getTranslations("documentList"),
    getTranslations("documents"),
    getLocale(),
  ]);
  const fellBack = "page" in loaded && loaded.fellBack;
  const shown = fellBack ? { ...params, cursor: "", newer: [] } : params;
  return (
    <Card aria-labelledby="documents-list-title" id="documents-list" data-testid="document-list">
      <CardHeader layout="row" className="flex-wrap items-start">
        <div>
          <CardTitle id="documents-list-title">{t("title")}</CardTitle>
          <CardDescription>{t("description")}</CardDescription>
        </div>
        <div role="group" className="flex items-center gap-1 text-sm" aria-label={t("exportLabel")}>
          <span className="text-slate-600">{t("export")}</span>
          <a href="/api/documents/export?format=csv" download className={buttonClasses("ghost", "sm")}>
            {t("csv")}
          </a>
          <a href="/api/documents/export?format=json" download className={buttonClasses("ghost", "sm")}>
            {t("json")}
          </a>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <DocumentFilters params={params} doctypeSuggestions={doctypeSuggestions} />
        {fellBack ? (
          <Alert tone="info" title={t("badCursorTitle")} data-testid="documents-bad-cursor">
            {t("badCursorBody")}
          </Alert>
        ) : null}
        {"problem" in loaded ? (
          <Alert tone="warning" title={t("unavailableTitle")} data-testid="documents-unavailable">
            {t("unavailableBody")}
          </Alert>
        ) : loaded.page.documents.length === 0 ? (
          <EmptyList params={shown} />
        ) : (
          <>
            <ul className="flex flex-col divide-y divide-slate-100" aria-label={t("listLabel")}>
              {loaded.page.documents.map((doc) => (
                <li key={doc.itemId} className="flex flex-col gap-1 py-3 first:pt-0 sm:flex-row sm:items-center sm:justify-between sm:gap-4" data-testid="document-row">
                  <div className="flex min-w-0 flex-col gap-0.5">
                    <Link href={`/documents/${encodeURIComponent(doc.itemId)}`} className="truncate font-medium text-brand-700 underline-offset-2 hover:underline" translate={doc.name ? "no" : undefined}>
                      {doc.name || documents("noName")}
                    </Link>
                    <span className="text-xs text-slate-600">
                      {doc.doctype ? <span translate="no">{doc.doctype}</span> : documents("noType")} · {doc.size === null ? documents("sizeUnknown") : formatBytes(doc.size, locale)} · <LocalTime iso={doc.createdAt} style="absolute" />
                    </span>
                  </div>
                  <StatusBadge status={doc.status} />
                </li>
              ))}
            </ul>
            <Pagination params={shown} nextCursor={loaded.page.nextCursor} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function EmptyList({ params }: { params: DocumentListParams }) {
  const t = useTranslations("documentList");
  if (isFiltered(params)) {
    return (
      <p className="text-sm text-slate-600" data-testid="documents-empty">
        {t("noMatch")}{" "}
        <Link href="/documents#documents-list" className="font-medium text-brand-700 underline">
          {t("showAll")}
        </Link>
      </p>
    );
  }
  if (params.cursor) {
    return (
      <p className="text-sm text-slate-600" data-testid="documents-empty">
        {t("noOlder")}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-1 rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center" data-testid="documents-empty">
      <p className="font-medium text-slate-900">{t("emptyTitle")}</p>
      <p className="text-sm text-slate-600">{t("emptyBody")}</p>
    </div>
  );
}

function Pagination({ params, nextCursor }: { params: DocumentListParams; nextCursor: string | null }) {
  const t = useTranslations("documentList");
  const newer = newerHref(params);
  if (!newer && !nextCursor) return null;
  return (
    <nav aria-label={t("pagesLabel")} className="flex justify-between gap-2">
      {newer ? (
        <Link href={newer} className={buttonClasses("secondary", "sm")} rel="prev">
          {t("newer")}
        </Link>
      ) : (
        <span />
      )}
      {nextCursor ? (
        <Link href={olderHref(params, nextCursor)} className={buttonClasses("secondary", "sm")} rel="next">
          {t("older")}
        </Link>
      ) : null}
    </nav>
  );
}
