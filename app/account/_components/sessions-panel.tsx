"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "@/lib/api-client";
import { endAllSessions, endSession, fetchSessions } from "@/lib/queries/sessions";
import type { SessionSummary } from "@/lib/queries/session-summary";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { SignInAgainButton } from "@/components/sign-in-again-button";
import { LocalTime } from "@/components/local-time";

/** What went wrong last, and how to try again where trying again as it is can help (a reload of the list). */
type Problem = { error: Error; title: string; retry?: () => void };

type Confirming = { kind: "one"; session: SessionSummary } | { kind: "all" } | null;

const deviceName = (s: SessionSummary) => `${s.browser} on ${s.os}`;

/**
 * Where the browser goes once its own session has ended: the landing page, signed out. A full load, not a client
 * navigation: the root layout's header (the name, Sign out) must render again, signed out.
 */
function leave() {
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load is the point (above)
  window.location.assign("/");
}

/**
 * The user's signed-in devices, each of which can be signed out, and "Sign out everywhere". The list comes with
 * the page (a reload shows newer sessions); only when the server could not read it does the panel ask
 * GET /api/sessions.
 */
export function SessionsPanel({ initial }: { initial: SessionSummary[] | null }) {
  const [sessions, setSessions] = useState(initial);
  const [loading, setLoading] = useState(initial === null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState("");
  const noticeRef = useRef<HTMLParagraphElement>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setSessions(await fetchSessions());
      setProblem(null);
    } catch (error) {
      setProblem({ error: error as Error, title: "We could not load your devices", retry: () => void load() });
    } finally {
      setLoading(false);
    }
  }, []);

  // Without a list from the server's render (the store did not answer then), ask once mounted.
  const [fetchOnMount] = useState(initial === null);
  useEffect(() => {
    if (fetchOnMount) void load();
  }, [fetchOnMount, load]);

  const dropFromList = (ended: SessionSummary, message: string) => {
    setSessions((list) => list?.filter((s) => s.id !== ended.id) ?? null);
    setNotice(message);
    // The row and its button are gone: focus goes to what happened, not to the top of the page.
    requestAnimationFrame(() => noticeRef.current?.focus());
  };

  async function confirm() {
    if (!confirming) return;
    setBusy(true);
    setProblem(null);
    try {
      if (confirming.kind === "all") {
        await endAllSessions();
        return leave();
      }
      const { endedCurrent } = await endSession(confirming.session.id);
      if (endedCurrent) return leave();
      dropFromList(confirming.session, `Signed out ${deviceName(confirming.session)}.`);
    } catch (error) {
      if (confirming.kind === "one" && error instanceof ApiError && error.code === "SESSION_NOT_FOUND") {
        dropFromList(confirming.session, `${deviceName(confirming.session)} was already signed out.`);
      } else {
        const title = confirming.kind === "all" ? "We could not sign you out everywhere" : `We could not sign out ${deviceName(confirming.session)}`;
        setProblem({ error: error as Error, title });
      }
    }
    setBusy(false);
    setConfirming(null);
  }

  const others = sessions?.filter((s) => !s.current) ?? [];

  return (
    <Card data-testid="sessions-panel" aria-busy={loading}>
      <CardHeader>
        <CardTitle>Where you&apos;re signed in</CardTitle>
        <CardDescription>Browsers signed in to this app with your account. Sign out any you don&apos;t recognise.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {problem ? <SessionsProblem problem={problem} /> : null}
        {sessions === null ? (
          loading ? <ListSkeleton /> : null
        ) : (
          <ul aria-label="Signed-in devices" className="flex flex-col divide-y divide-slate-100">
            {sessions.map((session) => (
              <SessionRow key={session.id} session={session} onEnd={() => setConfirming({ kind: "one", session })} disabled={busy} />
            ))}
          </ul>
        )}
        <p ref={noticeRef} tabIndex={-1} role="status" className="text-sm text-emerald-700 empty:hidden focus:outline-none">
          {notice}
        </p>
        {sessions !== null && others.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="only-this-device">
            You&apos;re not signed in on any other device.
          </p>
        ) : null}
      </CardContent>
      {sessions !== null ? (
        <div className="flex flex-col gap-3 border-t border-slate-100 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-600">Lost a device, or signed in somewhere you shouldn&apos;t be? End every session at once.</p>
          <Button variant="destructive" size="sm" className="shrink-0" onClick={() => setConfirming({ kind: "all" })} disabled={busy}>
            Sign out everywhere
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming !== null}
        busy={busy}
        onConfirm={() => void confirm()}
        onDismiss={() => setConfirming(null)}
        {...confirmText(confirming, sessions?.length ?? 0)}
      />
    </Card>
  );
}

function confirmText(confirming: Confirming, count: number) {
  if (confirming?.kind === "all") {
    return {
      title: "Sign out everywhere?",
      confirmLabel: "Sign out everywhere",
      busyLabel: "Signing out everywhere",
      children: (
        <p>
          This signs you out of this app on {count === 1 ? "this device" : `all ${count} devices, including this one`}. You&apos;ll need to sign in
          again to continue.
        </p>
      ),
    };
  }
  const session = confirming?.session;
  if (session?.current) {
    return {
      title: "Sign out of this device?",
      confirmLabel: "Sign out",
      busyLabel: "Signing out",
      children: <p>You&apos;ll go back to the start page, signed out. Your other devices stay signed in.</p>,
    };
  }
  return {
    title: session ? `Sign out ${deviceName(session)}?` : "",
    confirmLabel: "Sign out",
    busyLabel: "Signing out",
    children: <p>That browser will be signed out the next time it is used. This device stays signed in.</p>,
  };
}

function SessionRow({ session, onEnd, disabled }: { session: SessionSummary; onEnd: () => void; disabled: boolean }) {
  return (
    <li className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between" data-testid="session-row">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          {deviceName(session)}
          {session.current ? (
            <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">This device</span>
          ) : null}
        </p>
        <p className="text-sm text-slate-600">
          Signed in <LocalTime iso={session.signedInAt} style="absolute" />
          <span aria-hidden="true"> · </span>
          <span className="sr-only">, </span>
          {session.current ? "Active now" : (
            <>
              Last active <LocalTime iso={session.lastSeenAt} style="relative" />
            </>
          )}
        </p>
      </div>
      <Button
        variant="secondary"
        size="sm"
        className="self-start sm:self-center"
        onClick={onEnd}
        disabled={disabled}
        aria-label={session.current ? "Sign out of this device" : `Sign out ${deviceName(session)}`}
      >
        Sign out
      </Button>
    </li>
  );
}

function ListSkeleton() {
  return (
    <div className="flex flex-col gap-3" data-testid="sessions-loading">
      <span className="sr-only" role="status">
        Loading your signed-in devices
      </span>
      {[0, 1].map((i) => (
        <div key={i} className="flex flex-col gap-2">
          <Skeleton className="h-4 w-48" />
          <Skeleton className="h-3 w-72 max-w-full" />
        </div>
      ))}
    </div>
  );
}

function SessionsProblem({ problem: { error, title, retry } }: { problem: Problem }) {
  if (error instanceof ApiError && error.needsSignIn) {
    return (
      <Alert tone="warning" title="Your session has ended" action={<SignInAgainButton />}>
        {error.message}
      </Alert>
    );
  }
  const retryable = !(error instanceof ApiError) || error.retryable;
  return (
    <Alert
      tone="error"
      title={title}
      action={
        retry && retryable ? (
          <Button size="sm" variant="secondary" onClick={retry}>
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
