/** How much content a page's HTML carries: what React hydrates and what the browser lays out grows with it. */
export interface PageSize {
  /** Elements in the document, scripts and what they hold left out. */
  elements: number;
  /** The inline RSC payload (Next.js's `self.__next_f.push` strings, decoded), KiB. */
  rscKiB: number;
}

export function pageSize(html: string): PageSize {
  const withoutScripts = html.replace(/<script\b[\s\S]*?<\/script>/g, "");
  const payload = [...html.matchAll(/self\.__next_f\.push\(\[1,("(?:[^"\\]|\\.)*")\]\)/g)].map((match) => JSON.parse(match[1]!) as string).join("");
  return { elements: (withoutScripts.match(/<[a-zA-Z][^>]*>/g) ?? []).length, rscKiB: Buffer.byteLength(payload) / 1024 };
}

/** The page as a first visit gets it (the cookie as the bench sends it). */
export async function fetchPageSize(url: string, cookie?: string): Promise<PageSize> {
  const response = await fetch(url, { headers: cookie ? { cookie } : {} });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return pageSize(await response.text());
}
