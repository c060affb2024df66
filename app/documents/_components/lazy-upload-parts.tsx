"use client";
import { lazy, Suspense, type ComponentProps } from "react";

// Split by interaction (docs/page-weight.md): the upload rows (progress, errors, facts) and the interrupted-uploads
// card render nothing until there is an upload, so their code loads when there is one, not with the page.
const LazyUploadList = lazy(() => import("@/app/documents/_components/upload-list").then((m) => ({ default: m.UploadList })));
const LazyInterruptedUploads = lazy(() =>
  import("@/app/documents/_components/interrupted-uploads").then((m) => ({ default: m.InterruptedUploads })),
);

/** The upload queue's rows (upload-list.tsx), loaded with the first upload. */
export function UploadList(props: ComponentProps<typeof LazyUploadList>) {
  if (props.items.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <LazyUploadList {...props} />
    </Suspense>
  );
}

/** The uploads a reload interrupted (interrupted-uploads.tsx), loaded when this browser saved one. */
export function InterruptedUploads(props: ComponentProps<typeof LazyInterruptedUploads>) {
  if (props.uploads.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <LazyInterruptedUploads {...props} />
    </Suspense>
  );
}
