"use client";
import type { RecentDocument } from "@/lib/document-history";
import { formatBytes } from "@/lib/upload/format";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

type Props = { documents: RecentDocument[]; onClear: () => void };

/** This user's last uploads in this browser (ids only; no links, which would expire anyway). */
export function RecentDocuments({ documents, onClear }: Props) {
  return (
    <Card aria-labelledby="recent-title" data-testid="recent-documents">
      <CardHeader layout="row" className="items-start">
        <div>
          <CardTitle id="recent-title">Recent documents</CardTitle>
          <CardDescription>Kept in this browser only.</CardDescription>
        </div>
        {documents.length > 0 ? (
          <Button variant="ghost" size="sm" onClick={onClear}>
            Clear
          </Button>
        ) : null}
      </CardHeader>
      <CardContent>
        {documents.length === 0 ? (
          <p className="text-sm text-slate-500">Documents you upload will be listed here.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {documents.map((doc) => (
              <li key={doc.itemId} className="flex flex-col gap-0.5 text-sm" data-testid="recent-document">
                <span className="truncate font-medium text-slate-900">{doc.name || "(no name)"}</span>
                <span className="text-xs text-slate-500">
                  {formatBytes(doc.size)} · <time dateTime={doc.uploadedAt}>{new Date(doc.uploadedAt).toLocaleString()}</time>
                </span>
                <span className="truncate font-mono text-xs text-slate-500" title={doc.itemId}>
                  Item {doc.itemId}
                </span>
                {doc.replacedItemId ? (
                  <span className="text-xs text-amber-800" data-testid="replaced-item">
                    Created again after its upload link was refused: item <span className="font-mono">{doc.replacedItemId}</span> was left
                    without a file.
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
