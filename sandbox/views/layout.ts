import type { PageLanguage } from "./language";
import { pageTexts } from "./texts";

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Every interpolated value goes through this; the pages echo user input (the email field). */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => escapes[char] ?? char);
}

const styles = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1d23;background:#f4f5f7;
  display:flex;min-height:100vh;align-items:center;justify-content:center;padding:1rem}
main{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:2rem;width:100%;max-width:24rem}
h1{font-size:1.4rem;margin:0 0 .25rem}
p{margin:.25rem 0 1rem;color:#454b57}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{width:100%;padding:.6rem .7rem;font:inherit;border:1px solid #8a919e;border-radius:6px}
button{font:inherit;font-weight:600;padding:.65rem 1rem;border-radius:6px;border:1px solid #1f4fd1;cursor:pointer}
.primary{background:#1f4fd1;color:#fff;width:100%;margin-top:1.5rem}
.secondary{background:#fff;color:#1f4fd1}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}.actions form{flex:1}.actions button{width:100%;margin:0}.actions{flex-wrap:wrap}.actions>button{flex:1 1 auto;width:auto;white-space:nowrap}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
.alert{background:#fdecea;color:#8a1c13;border:1px solid #f5c2bd;border-radius:6px;padding:.6rem .75rem;margin:1rem 0 0}
ul{padding-left:1.25rem}code{font-size:.9em}
.badge{display:inline-block;font-size:.75rem;font-weight:600;background:#fff4d6;color:#6b4e00;border-radius:4px;padding:.1rem .4rem}
`;

/** A whole page in `language`: its title, the sandbox badge and `body` (HTML, values escaped by the caller). */
export function renderPage(language: PageLanguage, title: string, body: string): string {
  const texts = pageTexts[language];
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${texts.siteName}</title>
<style>${styles}</style>
</head>
<body>
<main>
<span class="badge">${texts.badge}</span>
${body}
</main>
</body>
</html>`;
}
