"use client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SupportContact } from "@/components/support-contact";
import { useBrandSupport } from "@/components/brand-support-context";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const support = useBrandSupport();
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-4 py-12">
      <Alert
        tone="error"
        title="Something went wrong"
        action={
          <Button size="sm" variant="secondary" onClick={reset}>
            Try again
          </Button>
        }
      >
        This page could not be shown.{error.digest ? ` If it keeps happening, quote reference ${error.digest}.` : null}
      </Alert>
      <SupportContact support={support} />
    </div>
  );
}
