import { describe, expect, it } from "vitest";
import { isFiltered, newerHref, olderHref, readDocumentListParams } from "@/lib/documents/document-list-params";

const query = (href: string) => Object.fromEntries(new URL(href, "http://app").searchParams);

describe("the document list's URL", () => {
  it("reads filters and drops what is malformed: an unknown status, a cursor that is not base64url", () => {
    expect(readDocumentListParams({ q: "  contract ", doctype: "invoice", status: "uploaded", cursor: "abc_-1" })).toEqual({
      q: "contract",
      doctype: "invoice",
      status: "uploaded",
      cursor: "abc_-1",
      newer: [],
      badCursor: false,
    });
    expect(readDocumentListParams({ status: "deleted", cursor: "a'b", newer: "c1.<x>.c2" })).toMatchObject({ status: "", cursor: "", newer: ["c1", "c2"] });
    expect(readDocumentListParams({ q: ["first", "second"] }).q).toBe("first");
  });

  it("flags a cursor it dropped, so the page can say it shows the first page, and drops control characters from filters", () => {
    expect(readDocumentListParams({ cursor: "a'b" }).badCursor).toBe(true);
    expect(readDocumentListParams({ cursor: "abc" }).badCursor).toBe(false);
    expect(readDocumentListParams({}).badCursor).toBe(false);
    expect(readDocumentListParams({ q: "le\u0000ase", doctype: "\u0007nda" })).toMatchObject({ q: "lease", doctype: "nda" });
  });

  it("walks Older and back Newer to the first page, keeping the filters", () => {
    const page1 = readDocumentListParams({ q: "nda", status: "failed" });
    expect(newerHref(page1)).toBeNull();
    const toPage2 = olderHref(page1, "c2");
    expect(query(toPage2)).toEqual({ q: "nda", status: "failed", cursor: "c2" });
    const page2 = readDocumentListParams(query(toPage2));
    const page3 = readDocumentListParams(query(olderHref(page2, "c3")));
    expect(page3).toMatchObject({ cursor: "c3", newer: ["c2"] });
    const back2 = readDocumentListParams(query(newerHref(page3)!));
    expect(back2).toMatchObject({ cursor: "c2", newer: [], q: "nda", status: "failed" });
    expect(newerHref(back2)).toBe("/documents?q=nda&status=failed#documents-list");
  });

  it("keeps the trail of newer pages to 20 entries", () => {
    const params = readDocumentListParams({ cursor: "c21", newer: Array.from({ length: 20 }, (_, i) => `c${i + 1}`).join(".") });
    expect(readDocumentListParams(query(olderHref(params, "c22"))).newer).toHaveLength(20);
  });

  it("knows when the list is narrowed by a search or filter", () => {
    expect(isFiltered(readDocumentListParams({}))).toBe(false);
    expect(isFiltered(readDocumentListParams({ cursor: "c2" }))).toBe(false);
    expect(isFiltered(readDocumentListParams({ doctype: "nda" }))).toBe(true);
  });
});
