import { mkdir, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { chromiumArgs, chromiumExecutablePath } from "../../../e2e/chromium-path";
import { acceptConsent, clearCredentialFields, markPage, CREDENTIAL_FIELDS, fillSignInForm, loadSignInHook, waitForSignInOutcome } from "./sign-in";
import { StepFailure } from "./step-failure";
import { watchStorage } from "./storage-watch";
import { redactTraceFile } from "./trace-redaction";

export type StepName = "app" | "sign-in" | "account" | "upload" | "list" | "remove" | "sign-out";

export type StepResult = {
  name: StepName;
  title: string;
  status: "passed" | "failed" | "skipped";
  ms: number;
  /** What was seen (passed) or why it failed, in operator words. */
  detail: string;
  /** The failing step's screenshot and trace files. */
  files: string[];
};

export type SmokeOptions = {
  url: URL;
  username: string;
  password: string;
  headed: boolean;
  /** The failing step's files go into a folder of this run under it. */
  outDir: string;
  signInHook: string | null;
  /** Called as each step ends. */
  onStep?: (result: StepResult) => void;
};

export type SmokeRun = {
  steps: StepResult[];
  ms: number;
  runDir: string | null;
  documentName: string;
  /** After a failed step: how the run's session was ended (or why it could not be); null when none had started. */
  signOutAfterFailure: { ok: boolean; detail: string } | null;
};

/** A step waits this long for what it needs; a busy deployment still answers within it. */
const STEP_TIMEOUT_MS = 30_000;
/** The upload goes through the app (create) and the storage (PUT): twice a page's wait. */
const UPLOAD_TIMEOUT_MS = 60_000;

const TRACE_OPTIONS = { screenshots: true, snapshots: true, sources: false };

const STEPS: { name: StepName; title: string }[] = [
  { name: "app", title: "the app answers" },
  { name: "sign-in", title: "sign in at the service" },
  { name: "account", title: "the account page shows the account" },
  { name: "upload", title: "create a document and upload its file to the storage" },
  { name: "list", title: "Uploaded, and in the documents list" },
  { name: "remove", title: "remove the smoke document from the list" },
  { name: "sign-out", title: "sign out" },
];

/** `smoke-2026-11-27T03-04-05Z.txt`: recognisable, sortable, one per run. */
export function smokeDocumentName(now: Date): string {
  return `smoke-${now.toISOString().replace(/\.\d+Z$/, "Z").replaceAll(":", "-")}.txt`;
}

type Journey = { page: Page; appOrigin: string; options: SmokeOptions; documentName: string };

/** Error text without the credentials, whatever produced it. */
export function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join("[redacted]");
  return out;
}

function describeNavigationError(error: Error, url: URL): string {
  const code = /net::(ERR_[A-Z_]+)/.exec(error.message)?.[1];
  if (code === "ERR_CONNECTION_REFUSED") return `nothing answers at ${url.origin} (connection refused)`;
  if (code === "ERR_NAME_NOT_RESOLVED") return `the host name ${url.hostname} does not resolve`;
  if (code?.startsWith("ERR_CERT_") || code?.startsWith("ERR_SSL_")) return `its TLS certificate is not accepted (${code})`;
  if (code) return `the browser could not load ${url.href} (${code})`;
  if (/Timeout/i.test(error.message)) return `${url.href} did not answer within ${STEP_TIMEOUT_MS / 1000} s`;
  return error.message.split("\n")[0]!;
}

/** Waits for the locator; otherwise fails with `reason`. */
async function expectVisible(locator: ReturnType<Page["locator"]>, reason: string, timeout = STEP_TIMEOUT_MS): Promise<void> {
  try {
    await locator.first().waitFor({ timeout });
  } catch {
    throw new StepFailure(reason);
  }
}

async function alertText(page: Page): Promise<string | null> {
  const alerts = page.getByRole("alert").filter({ hasText: /\S/ });
  if ((await alerts.count()) === 0) return null;
  return (await alerts.first().innerText()).replace(/\s+/g, " ").trim();
}

const steps: Record<StepName, (j: Journey, trace: TracePause) => Promise<string>> = {
  async app({ page, options }) {
    let response;
    try {
      response = await page.goto(options.url.href, { waitUntil: "domcontentloaded", timeout: STEP_TIMEOUT_MS });
    } catch (error) {
      throw new StepFailure(describeNavigationError(error as Error, options.url));
    }
    const status = response?.status() ?? 0;
    if (status >= 400) throw new StepFailure(`the app answered HTTP ${status} at ${options.url.href}`);
    await expectVisible(page.getByRole("button", { name: /sign in/i }), `the page at ${options.url.href} offers no Sign in button: is this the partner app?`);
    return `HTTP ${status}`;
  },

  async "sign-in"({ page, appOrigin, options }, trace) {
    await page.getByRole("button", { name: /sign in/i }).first().click();
    try {
      await page.waitForURL((url) => url.origin !== appOrigin || url.pathname.startsWith("/auth/error"), { timeout: STEP_TIMEOUT_MS });
    } catch {
      throw new StepFailure("Sign in did not lead to the service's sign-in page");
    }
    if (new URL(page.url()).origin === appOrigin) {
      throw new StepFailure(`the app could not start sign-in: its page says "${await page.getByRole("heading", { level: 1 }).first().innerText()}"`);
    }
    const service = new URL(page.url()).origin;
    // The credentials never reach the trace: it pauses while they are typed and sent, and the fields are emptied
    // before it resumes.
    await trace.pause();
    let outcome;
    try {
      await markPage(page);
      if (options.signInHook) await (await loadSignInHook(options.signInHook))({ page, username: options.username, password: options.password });
      else await fillSignInForm(page, options.username, options.password, STEP_TIMEOUT_MS);
      outcome = await waitForSignInOutcome(page, appOrigin, STEP_TIMEOUT_MS);
    } finally {
      await clearCredentialFields(page);
      await trace.resume();
    }
    if (outcome.kind === "consent") {
      await acceptConsent(page);
      outcome = await waitForSignInOutcome(page, appOrigin, STEP_TIMEOUT_MS);
    }
    switch (outcome.kind) {
      case "form-again":
        throw new StepFailure(`the service did not accept the username or password${outcome.said ? ` (it says: "${outcome.said}")` : ""}`);
      case "service-error":
        throw new StepFailure(`the service stopped the sign-in: its page says "${outcome.said}"`);
      case "consent":
        throw new StepFailure("the service asked for consent again after it was given");
      case "timeout":
        throw new StepFailure(`no way back to the app within ${STEP_TIMEOUT_MS / 1000} s: the browser is still at ${outcome.origin}`);
      case "app":
        if (outcome.path.startsWith("/auth/error")) {
          throw new StepFailure(`the app could not complete the sign-in: its page says "${await page.getByRole("heading", { level: 1 }).first().innerText()}"`);
        }
        return `at ${service}${options.signInHook ? ` by SMOKE_SIGN_IN's ${path.basename(options.signInHook)}` : ""}, back at ${outcome.path}`;
    }
  },

  async account({ page, appOrigin }) {
    if (new URL(page.url()).pathname !== "/account") await page.goto(`${appOrigin}/account`);
    const record = page.getByTestId("account-record");
    const noCustomer = page.getByTestId("customer-not-found");
    const problem = page.getByRole("main").getByRole("alert");
    await expectVisible(record.or(noCustomer).or(problem), "the account page showed neither an account nor the service's answer");
    if (await problem.first().isVisible()) throw new StepFailure(`the account page says "${await alertText(page)}"`);
    if (await noCustomer.isVisible()) return "signed in; the service has no customer account for this user (its own answer)";
    return "the service's account record is shown";
  },

  async upload({ page, appOrigin, documentName }) {
    await page.getByRole("banner").getByRole("link", { name: "Documents" }).click();
    const form = page.getByRole("form", { name: "New document" });
    await expectVisible(form, "the documents page shows no New document form");
    await form.locator('input[type="file"]').setInputFiles({
      name: documentName,
      mimeType: "text/plain",
      buffer: Buffer.from(`Smoke check of the partner app at ${appOrigin}, ${new Date().toISOString()}.\n`),
    });
    await form.getByLabel("Document type").fill("smoke");
    const storage = watchStorage(page, appOrigin);
    await form.getByRole("button", { name: "Upload", exact: true }).click();
    const item = page.getByRole("article", { name: `Upload of ${documentName}` });
    const deadline = Date.now() + UPLOAD_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const seen = storage.outcome();
      if (seen?.kind === "stored") return `stored at ${seen.origin} (HTTP ${seen.status})`;
      if (seen?.kind === "cors") throw new StepFailure(`the storage refused the browser's PUT (CORS: ${seen.reason}); allow ${appOrigin} in the CORS rules of ${seen.origin}`);
      if (seen?.kind === "refused") throw new StepFailure(`the storage refused the browser's PUT (HTTP ${seen.status} from ${seen.origin})`);
      if (seen?.kind === "unreachable") throw new StepFailure(`the browser could not reach the storage at ${seen.origin} (${seen.error})`);
      const failed = item.getByRole("alert");
      if (await failed.isVisible().catch(() => false)) throw new StepFailure(`the app reports "${(await failed.innerText()).replace(/\s+/g, " ").trim()}"`);
      await page.waitForTimeout(200);
    }
    throw new StepFailure(`the browser sent no file to the storage within ${UPLOAD_TIMEOUT_MS / 1000} s`);
  },

  async list({ page, documentName }) {
    const item = page.getByRole("article", { name: `Upload of ${documentName}` });
    await expectVisible(item.getByRole("status").filter({ hasText: /^\s*Uploaded\s*$/ }), "the upload never showed Uploaded", UPLOAD_TIMEOUT_MS);
    const row = page.getByRole("list", { name: "Documents, newest first" }).getByRole("listitem").filter({ has: page.getByRole("link", { name: documentName, exact: true }) });
    try {
      await row.filter({ hasText: "Uploaded" }).waitFor({ timeout: STEP_TIMEOUT_MS / 2 });
    } catch {
      // The list refreshes after the upload; a page load reads it again.
      await page.reload();
      await expectVisible(row, "the uploaded document is not in the documents list");
      await expectVisible(row.filter({ hasText: "Uploaded" }), `the documents list shows it as "${(await row.first().innerText()).replace(/\s+/g, " ").trim()}", not Uploaded`);
    }
    return "listed as Uploaded";
  },

  async remove({ page, documentName }) {
    await page.getByRole("link", { name: documentName, exact: true }).first().click();
    await expectVisible(page.getByRole("heading", { name: documentName, level: 1 }), "the document's page did not open");
    await page.getByRole("button", { name: "Remove from this list" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove from this list?" });
    await expectVisible(dialog, "Remove from this list asked nothing");
    await dialog.getByRole("button", { name: "Remove from this list" }).click();
    try {
      await page.waitForURL((url) => url.pathname === "/documents", { timeout: STEP_TIMEOUT_MS });
    } catch {
      throw new StepFailure(`the document was not removed${(await alertText(page)) ? `: the app says "${await alertText(page)}"` : ""}`);
    }
    if ((await page.getByRole("link", { name: documentName, exact: true }).count()) > 0) throw new StepFailure("the document is still in the list after Remove");
    return "gone from the list (the service keeps the document)";
  },

  async "sign-out"({ page, appOrigin }) {
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL((url) => url.origin !== appOrigin || url.pathname === "/", { timeout: STEP_TIMEOUT_MS });
    let atService = "";
    if (new URL(page.url()).origin !== appOrigin) {
      // The service asks whether to end its own session too: yes, so the next run signs in from the start.
      atService = " and at the service";
      const confirm = page.getByRole("button", { name: /^(yes|sign me out|sign out|log ?out|confirm|はい|ログアウト|サインアウト)/i });
      if (await confirm.first().isVisible({ timeout: STEP_TIMEOUT_MS }).catch(() => false)) await confirm.first().click();
      await page.waitForURL((url) => url.origin === appOrigin, { timeout: STEP_TIMEOUT_MS }).catch(() => {});
    }
    const account = await page.request.get(`${appOrigin}/api/account`);
    if (account.status() !== 401) throw new StepFailure(`the app still answers for the session after Sign out (GET /api/account: HTTP ${account.status()})`);
    return `signed out of the app${atService}`;
  },
};

/** Pauses the failing step's trace around the credentials (the sign-in step); a no-op elsewhere. */
type TracePause = { pause(): Promise<void>; resume(): Promise<void> };

const UNTRACED: TracePause = { pause: async () => {}, resume: async () => {} };

/**
 * After a failed step, ends the session the run may hold, at the app and at the service, as the sign-out step
 * does: a failed run must not leave the test account signed in, nor a live session behind a kept trace. Runs
 * between trace chunks, so no trace holds it. Nothing to do when the app itself did not answer (no sign-in began)
 * or holds no session (its API answers 401).
 */
async function signOutAfterFailure(journey: Journey, failed: StepName): Promise<SmokeRun["signOutAfterFailure"]> {
  if (failed === "app") return null;
  const { page, appOrigin } = journey;
  try {
    const account = await page.request.get(`${appOrigin}/api/account`, { timeout: STEP_TIMEOUT_MS });
    if (account.status() === 401) return { ok: true, detail: "the app holds no session for this run" };
    const signOut = page.getByRole("button", { name: "Sign out", exact: true });
    if (new URL(page.url()).origin !== appOrigin || !(await signOut.isVisible())) {
      await page.goto(`${appOrigin}/account`, { waitUntil: "domcontentloaded", timeout: STEP_TIMEOUT_MS });
    }
    return { ok: true, detail: await steps["sign-out"](journey, UNTRACED) };
  } catch (error) {
    const reason = error instanceof StepFailure ? error.message : (error as Error).message.split("\n")[0]!;
    return { ok: false, detail: redact(reason, [journey.options.password, journey.options.username]) };
  }
}

/** Runs the journey; never throws for a failed step: the result says which failed and why. */
export async function runSmoke(options: SmokeOptions): Promise<SmokeRun> {
  const started = Date.now();
  const documentName = smokeDocumentName(new Date());
  const runDir = path.resolve(options.outDir, documentName.replace(/^smoke-|\.txt$/g, ""));
  const scratch = path.join(tmpdir(), `smoke-${process.pid}-${Date.now()}`);
  await mkdir(scratch, { recursive: true });
  const secrets = [options.password, options.username];
  const browser = await chromium.launch({ headless: !options.headed, executablePath: chromiumExecutablePath, args: chromiumArgs });
  const results: StepResult[] = [];
  let failedRunDir: string | null = null;
  let signedOut: SmokeRun["signOutAfterFailure"] = null;
  try {
    // English pages: the journey finds the app's buttons by their English names.
    const context = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 900 } });
    await context.tracing.start(TRACE_OPTIONS);
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    const journey: Journey = { page, appOrigin: options.url.origin, options, documentName };
    let failed = false;
    for (const [index, { name, title }] of STEPS.entries()) {
      if (failed) {
        const skipped: StepResult = { name, title, status: "skipped", ms: 0, detail: "not run", files: [] };
        results.push(skipped);
        options.onStep?.(skipped);
        continue;
      }
      const stepStarted = Date.now();
      const prefix = `${index + 1}-${name}`;
      const earlier: string[] = [];
      let tracing = true;
      await context.tracing.startChunk({ title: `${index + 1} ${name}: ${title}` });
      const trace: TracePause = {
        async pause() {
          // Stopped, not only between chunks: a paused chunk still records the network, the credentials' POST included.
          const part = path.join(scratch, `${prefix}-trace-before-credentials.zip`);
          await context.tracing.stop({ path: part });
          await redactTraceFile(part);
          earlier.push(part);
          tracing = false;
        },
        async resume() {
          await context.tracing.start(TRACE_OPTIONS);
          await context.tracing.startChunk({ title: `${index + 1} ${name}: after the credentials` });
          tracing = true;
        },
      };
      let result: StepResult;
      try {
        const detail = await steps[name](journey, trace);
        result = { name, title, status: "passed", ms: Date.now() - stepStarted, detail, files: [] };
        if (tracing) await context.tracing.stopChunk();
      } catch (error) {
        failed = true;
        const reason = error instanceof StepFailure ? error.message : `unexpected: ${(error as Error).message.split("\n")[0]}`;
        await mkdir(runDir, { recursive: true });
        failedRunDir = runDir;
        const files: string[] = [];
        await clearCredentialFields(page).catch(() => {});
        const screenshot = path.join(runDir, `${prefix}.png`);
        await page
          .screenshot({ path: screenshot, fullPage: true, mask: [page.locator(CREDENTIAL_FIELDS)] })
          .then(() => files.push(screenshot))
          .catch(() => {});
        for (const part of earlier) {
          const kept = path.join(runDir, path.basename(part));
          await rename(part, kept);
          files.push(kept);
        }
        if (tracing) {
          const tracePath = path.join(runDir, `${prefix}-trace.zip`);
          await context.tracing.stopChunk({ path: tracePath });
          await redactTraceFile(tracePath);
          files.push(tracePath);
        }
        result = { name, title, status: "failed", ms: Date.now() - stepStarted, detail: redact(reason, secrets), files };
      }
      results.push(result);
      options.onStep?.(result);
    }
    const failedStep = results.find((r) => r.status === "failed");
    if (failedStep) signedOut = await signOutAfterFailure(journey, failedStep.name);
    await context.tracing.stop();
  } finally {
    await browser.close();
    await rm(scratch, { recursive: true, force: true });
  }
  return { steps: results, ms: Date.now() - started, runDir: failedRunDir, documentName, signOutAfterFailure: signedOut };
}
