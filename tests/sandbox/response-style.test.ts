import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../sandbox/index";
import { createDocumentResultSchema } from "@/lib/esign/schemas";
import { resetSandbox, startTestSandbox } from "./support/sandbox";
import { partnerTokens } from "./support/oauth";
import { envPort } from "../../scripts/lib/env-port";

// Own ports (env-overridable, 42xx) so this file never meets another sandbox.

let sandbox: RunningSandbox;
let alice: string;
let bob: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({
    authPort: envPort("STYLE_TEST_AUTH_PORT", 4205),
    apiPort: envPort("STYLE_TEST_API_PORT", 4206),
    blobPort: envPort("STYLE_TEST_BLOB_PORT", 4207),
  });
  alice = (await partnerTokens(sandbox)).access_token;
  bob = (await partnerTokens(sandbox, undefined, { email: "bob@example.com", password: "bob-password" })).access_token;
});
afterAll(async () => {
  await sandbox?.stop();
});
beforeEach(async () => {
  await resetSandbox(sandbox);
});

function setStyle(style: string) {
  return fetch(`${sandbox.apiUrl}/_sandbox/response-style`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ style }),
  });
}

function createDocument(name: string) {
  return fetch(`${sandbox.apiUrl}/api/document`, {
    method: "POST",
    headers: { authorization: `Bearer ${alice}`, "content-type": "application/json" },
    body: JSON.stringify({ docid: null, name, doctype: "contract" }),
  });
}

describe("variant response style", () => {
  it("answers create-document with upper-case non-RFC GUIDs, subdocid \"0\" and an empty sas; the upload still works", async () => {
    expect((await setStyle("variant")).status).toBe(200);
    const response = await createDocument("contract.pdf");
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    const guid = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-C[0-9A-F]{3}-[0-9A-F]{12}$/;
    expect(body.itemId).toMatch(guid);
    expect(body.fileId).toMatch(guid);
    expect(body).toMatchObject({ subdocid: "0", sas: "", container: "documents" });
    expect(String(body.uploadendpoint)).toMatch(/\?.*sig=/);
    // The app's parser takes it as the standard one.
    expect(createDocumentResultSchema.parse(body)).toMatchObject({ subdocid: 0, fileId: body.fileId });

    const put = await fetch(String(body.uploadendpoint), {
      method: "PUT",
      headers: { "content-type": "application/octet-stream", "x-ms-blob-type": "BlockBlob" },
      body: new Uint8Array([1, 2, 3]),
    });
    expect(put.status).toBe(201);
    const { documents } = (await (await fetch(`${sandbox.apiUrl}/_sandbox/documents`)).json()) as {
      documents: { fileId: string; subdocid: number; blob: { size: number } }[];
    };
    expect(documents).toEqual([expect.objectContaining({ fileId: body.fileId, subdocid: 0, blob: expect.objectContaining({ size: 3 }) })]);
  });

  it("answers 400s as plain text: a short name and a user without a customer account", async () => {
    await setStyle("variant");
    const short = await createDocument("ab");
    expect(short.status).toBe(400);
    expect(short.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await short.text()).toBe("Bad Request: name must have at least 3 characters");
    const noCustomer = await fetch(`${sandbox.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${bob}` } });
    expect(noCustomer.status).toBe(400);
    expect(await noCustomer.text()).toMatch(/^Bad Request: /);
    // Other statuses keep their JSON body.
    const unauthenticated = await fetch(`${sandbox.apiUrl}/api/getuserinfo`);
    expect(await unauthenticated.json()).toMatchObject({ error: "invalid_token" });
  });

  it("is switched back to standard by reset, and refuses an unknown style", async () => {
    await setStyle("variant");
    await resetSandbox(sandbox);
    expect(await (await fetch(`${sandbox.apiUrl}/_sandbox/response-style`)).json()).toEqual({ style: "standard" });
    const body = (await (await createDocument("contract.pdf")).json()) as Record<string, unknown>;
    expect(body.subdocid).toBe(1);
    expect(body.sas).not.toBe("");
    expect((await setStyle("weird")).status).toBe(400);
  });
});
