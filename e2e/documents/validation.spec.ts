import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { stageFile, writeRandomFile } from "./support";

// Signed in once per worker: these tests need a signed-in user, nothing about the sign-in (e2e/fixtures/test.ts).
test.use({ reuseSignIn: true });

const NAME_TOO_SHORT = "Name must have at least 3 characters.";

test.describe("document name validation", () => {
  test.beforeEach(async ({ admin }) => {
    await admin.reset();
  });

  test("refuses a 2-character name in the form before any request, and the route handler refuses it with 400", async ({ page, admin }, testInfo) => {
    const file = await writeRandomFile(testInfo.outputPath("ok.txt"), 1024);
    const documentCalls: string[] = [];
    page.on("request", (req) => {
      if (req.url().includes("/api/documents")) documentCalls.push(req.method());
    });
    await signIn(page, users.alice);
    await stageFile(page, file);
    const name = page.getByLabel("Name");
    await name.fill("ab");
    await page.getByRole("button", { name: "Upload", exact: true }).click();

    await expect(page.getByText(NAME_TOO_SHORT)).toBeVisible();
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toBeFocused();
    expect(documentCalls).toEqual([]);

    const direct = await page.request.post("/api/documents", { data: { docid: null, name: "ab", doctype: "contract" } });
    expect(direct.status()).toBe(400);
    const body = await direct.json();
    expect(body.error.fields.name).toEqual([NAME_TOO_SHORT]);

    expect(await admin.documents()).toEqual([]);
    expect((await admin.stats()).operations.document ?? {}).toEqual({});
  });

  test("the route handler refuses a body that is not JSON or has unknown fields, and a signed-out caller", async ({ page, admin }) => {
    const signedOut = await page.request.post("/api/documents", { data: { docid: null, name: "contract.pdf", doctype: "" } });
    expect(signedOut.status()).toBe(401);
    expect((await signedOut.json()).error.code).toBe("UNAUTHENTICATED");

    await signIn(page, users.alice);
    const notJson = await page.request.post("/api/documents", { data: "name=abc", headers: { "content-type": "text/plain" } });
    expect(notJson.status()).toBe(400);
    const extra = await page.request.post("/api/documents", { data: { docid: null, name: "abc.pdf", doctype: "", url: "x" } });
    expect(extra.status()).toBe(400);
    expect(await admin.documents()).toEqual([]);
  });
});
