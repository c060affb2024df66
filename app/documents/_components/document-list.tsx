import Link from "next/link";
import { isDatabaseUnavailable } from "@/lib/db/database-errors";
import { listDocuments, type DocumentPage } from "@/lib/documents/document-records";
import { DOCUMENTS_PER_PAGE, isFiltered, newerHref, olderHref, type DocumentListParams } from "@/lib/documents/document-list-params";
import { AppError } from "@/lib/errors";
import { formatBytes } from "@/lib/upload/format";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LocalTime } from "@/components/local-time";
import { DocumentFilters } from "@/app/documents/_components/document-filters";
import { StatusBadge } from "@/app/documents/_components/document-status";

type Props = { userKey: string; params: DocumentListParams; doctypeSuggestions: string[] };

type Loaded = { page: DocumentPage } | { problem: "database" | "bad-cursor" };

async function loadPage(userKey: string, params: DocumentListParams): Promise<Loaded> {
  try {
    const page = await listDocuments(userKey, {
      ...(params.q ? { q: params.q } : {}),
      ...(params.doctype ? { doctype: params.doctype } : {}),
      ...(params.status ? { status: params.status } : {}),
      ...(params.cursor ? { cursor: params.cursor } : {}),
      limit: DOCUMENTS_PER_PAGE,
    });
    return { page };
  } catch (error) {
    if (isDatabaseUnavailable(error)) return { problem: "database" };
    if (error instanceof AppError && error.code === "VALIDATION_FAILED") return { problem: "bad-cursor" };
    throw error;
  }
}

/**
 * The user's documents from the app's record, newest first, rendered on the server: no client-side data library,
 * and the filters and pages are links and a GET form. Uploads keep working when the record's database is down;
 * the list then says so instead of showing nothing.
 */
export async function DocumentList({ userKey, params, doctypeSuggestions }: Props) {
  const loaded = await loadPage(userKey, params);
  return (
    <Card aria-labelledby="documents-list-title" id="documents-list" data-testid="document-list">
      <CardHeader layout="row" className="flex-wrap items-start">
        <div>
          <CardTitle id="documents-list-title">Your documents</CardTitle>
          <CardDescription>Kept by this app for your account, on every device you sign in from.</CardDescription>
        </div>
        <div role="group" className="flex items-center gap-1 text-sm" aria-label="Export your documents">
          <span className="text-slate-600">Export:</span>
          <a href="/api/documents/export?format=csv" download className={buttonClasses("ghost", "sm")}>
            CSV
          </a>
          <a href="/api/documents/export?format=json" download className={buttonClasses("ghost", "sm")}>
            JSON
          </a>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <DocumentFilters params={params} doctypeSuggestions={doctypeSuggestions} />
        {"problem" in loaded ? (
          loaded.problem === "database" ? (
            <Alert tone="warning" title="Your document list is unavailable right now" data-testid="documents-unavailable">
              The app cannot reach its record of your documents. Uploads still work: what you upload now is added to
              this list once the record is back. Reload the page in a few minutes.
            </Alert>
          ) : (
            <Alert tone="warning" title="This page link is not valid">
              <Link href="/documents#documents-list" className="underline">
                Go to the newest documents
              </Link>
            </Alert>
          )
        ) : loaded.page.documents.length === 0 ? (
          <EmptyList params={params} />
        ) : (
          <>
            <ul className="flex flex-col divide-y divide-slate-100" aria-label="Documents, newest first">
              {loaded.page.documents.map((doc) => (
                <li key={doc.itemId} className="flex flex-col gap-1 py-3 first:pt-0 sm:flex-row sm:items-center sm:justify-between sm:gap-4" data-testid="document-row">
                  <div className="flex min-w-0 flex-col gap-0.5">
                    <Link href={`/documents/${encodeURIComponent(doc.itemId)}`} className="truncate font-medium text-brand-700 underline-offset-2 hover:underline">
                      {doc.name || "(no name)"}
                    </Link>
                    <span className="text-xs text-slate-600">
                      {doc.doctype || "No type"} · {doc.size === null ? "size unknown" : formatBytes(doc.size)} · <LocalTime iso={doc.createdAt} style="absolute" />
                    </span>
                  </div>
                  <StatusBadge status={doc.status} />
                </li>
              ))}
            </ul>
            <Pagination params={params} nextCursor={loaded.page.nextCursor} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function EmptyList({ params }: { params: DocumentListParams }) {
  if (isFiltered(params)) {
    return (
      <p className="text-sm text-slate-600" data-testid="documents-empty">
        No document matches this search.{" "}
        <Link href="/documents#documents-list" className="font-medium text-brand-700 underline">
          Show all your documents
        </Link>
      </p>
    );
  }
  if (params.cursor) {
    return (
      <p className="text-sm text-slate-600" data-testid="documents-empty">
        No older documents.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-1 rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center" data-testid="documents-empty">
      <p className="font-medium text-slate-900">No documents yet</p>
      <p className="text-sm text-slate-600">Documents you upload here are listed on every device you sign in from.</p>
    </div>
  );
}

function Pagination({ params, nextCursor }: { params: DocumentListParams; nextCursor: string | null }) {
  const newer = newerHref(params);
  if (!newer && !nextCursor) return null;
  return (
    <nav aria-label="Pages of your documents" className="flex justify-between gap-2">
      {newer ? (
        <Link href={newer} className={buttonClasses("secondary", "sm")} rel="prev">
          ← Newer
        </Link>
      ) : (
        <span />
      )}
      {nextCursor ? (
        <Link href={olderHref(params, nextCursor)} className={buttonClasses("secondary", "sm")} rel="next">
          Older →
        </Link>
      ) : null}
    </nav>
  );
}
