import { escapeHtml, renderPage } from "./layout";

export function renderErrorPage(message: string, code?: string): string {
  const detail = code ? `<p>Error code: <code>${escapeHtml(code)}</code></p>` : "";
  return renderPage("Sign-in error", `<h1>Something went wrong</h1>\n<p role="alert">${escapeHtml(message)}</p>\n${detail}`);
}
