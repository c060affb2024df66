/**
 * Regenerates the pictures in docs/screenshots/ from the visual e2e specs, which save every page and state under
 * screenshots/ (gitignored). Run after `npm run build` (`npm run screenshots` does both). Fails if a picture was
 * not taken anew, so docs/screenshots/ never keeps a stale one silently.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";

/** docs/screenshots/<name> ← screenshots/<what the spec saved>. */
const PICTURES: Record<string, string> = {
  "landing.png": "landing-desktop.png",
  "account.png": "account-success-desktop.png",
  "documents-uploading.png": "documents-desktop-uploading.png",
  "documents-error.png": "documents-desktop-error.png",
  "account-error.png": "account-error-desktop.png",
  "documents-mobile.png": "documents-mobile-uploading.png",
  "account-mobile.png": "account-success-mobile.png",
  "brand-acme-documents.png": "brand-acme-documents.png",
  "brand-acme-auth-error.png": "brand-acme-auth-error.png",
  // Japanese (e2e/i18n/japanese.spec.ts, the "japanese" project: ja-JP, Asia/Tokyo).
  "ja-landing.png": "ja-landing-desktop.png",
  "ja-account.png": "ja-account-desktop.png",
  "ja-account-error.png": "ja-account-error-desktop.png",
  "ja-auth-error.png": "ja-auth-error-desktop.png",
  "ja-account-mobile.png": "ja-account-mobile.png",
  "ja-documents-uploading.png": "ja-documents-uploading-desktop.png",
  "ja-documents-mobile.png": "ja-documents-uploading-mobile.png",
  "documents-list.png": "documents-list-desktop.png",
  "documents-list-empty.png": "documents-list-empty-desktop.png",
  "documents-list-database-down.png": "documents-list-database-down-desktop.png",
  "documents-list-mobile.png": "documents-list-mobile.png",
  "document-page.png": "document-page-desktop.png",
  "document-page-mobile.png": "document-page-mobile.png",
  // The operator pages, English and Japanese (e2e/operators/pages.spec.ts).
  "operator-overview.png": "operator-overview-desktop.png",
  "operator-overview-mobile.png": "operator-overview-mobile.png",
  "operator-stuck.png": "operator-stuck-desktop.png",
  "operator-stuck-mobile.png": "operator-stuck-mobile.png",
  "operator-search.png": "operator-search-desktop.png",
  "operator-search-mobile.png": "operator-search-mobile.png",
  "operator-user.png": "operator-user-desktop.png",
  "operator-user-mobile.png": "operator-user-mobile.png",
  "ja-operator-overview.png": "ja-operator-overview-desktop.png",
  "ja-operator-overview-mobile.png": "ja-operator-overview-mobile.png",
  "ja-operator-stuck.png": "ja-operator-stuck-desktop.png",
  "ja-operator-stuck-mobile.png": "ja-operator-stuck-mobile.png",
  "ja-operator-search.png": "ja-operator-search-desktop.png",
  "ja-operator-search-mobile.png": "ja-operator-search-mobile.png",
  "ja-operator-user.png": "ja-operator-user-desktop.png",
  "ja-operator-user-mobile.png": "ja-operator-user-mobile.png",
  // Erasure, English and Japanese (e2e/account/erasure.spec.ts).
  "erasure-dialog.png": "erasure-dialog-desktop.png",
  "erasure-dialog-mobile.png": "erasure-dialog-mobile.png",
  "erasure-done.png": "erasure-done-desktop.png",
  "erasure-done-mobile.png": "erasure-done-mobile.png",
  "ja-erasure-dialog.png": "ja-erasure-dialog-desktop.png",
  "ja-erasure-dialog-mobile.png": "ja-erasure-dialog-mobile.png",
  "ja-erasure-done.png": "ja-erasure-done-desktop.png",
  "ja-erasure-done-mobile.png": "ja-erasure-done-mobile.png",
  "operator-erase-user.png": "operator-erase-user.png",
  "operator-erase-access-log.png": "operator-erase-access-log.png",
};
const SPECS = ["e2e/visual/pages.spec.ts", "e2e/documents/layout.spec.ts", "e2e/deploy/brand.spec.ts", "e2e/i18n/japanese.spec.ts", "e2e/operators/pages.spec.ts", "e2e/account/erasure.spec.ts"];

const started = Date.now();
// One worker per spec file: each has its own sandbox and apps (e2e/ports.ts).
const run = spawnSync("npx", ["playwright", "test", ...SPECS], {
  stdio: "inherit",
  env: { ...process.env, E2E_WORKERS: String(SPECS.length) },
});
if (run.status !== 0) {
  console.error("screenshots: the visual specs failed; docs/screenshots/ left as it was");
  process.exit(1);
}

mkdirSync("docs/screenshots", { recursive: true });
for (const [name, source] of Object.entries(PICTURES)) {
  const from = path.join("screenshots", source);
  if (statSync(from).mtimeMs < started) {
    console.error(`screenshots: ${from} was not taken in this run; does a spec in ${SPECS.join(", ")} still save it?`);
    process.exit(1);
  }
  copyFileSync(from, path.join("docs/screenshots", name));
}
console.log(`screenshots: ${Object.keys(PICTURES).length} pictures written to docs/screenshots/`);
