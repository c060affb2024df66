"use client";
import { useId, useRef, useState, type FormEvent } from "react";
import type { CreateDocumentInput } from "@/lib/esign/schemas";
import { documentNameError } from "@/lib/document-name";
import { formatBytes } from "@/lib/upload/format";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError, Input, Label } from "@/components/ui/input";
import { FileDropZone } from "@/app/documents/_components/file-drop-zone";

type StagedFile = { id: string; file: File; name: string; error?: string };

type Props = {
  doctypeSuggestions: string[];
  /** Called as soon as files are chosen, so the upload machinery can load while the user checks the names. */
  onFilesChosen: () => void;
  onSubmit: (entries: { file: File; input: CreateDocumentInput }[]) => void;
};

let nextStagedId = 0;

/** Choose files, check or edit each document's name, pick a document type, and queue them for upload. */
export function DocumentForm({ doctypeSuggestions, onFilesChosen, onSubmit }: Props) {
  const [staged, setStaged] = useState<StagedFile[]>([]);
  const [doctype, setDoctype] = useState("");
  const listId = useId();
  const doctypeId = useId();
  const formRef = useRef<HTMLFormElement>(null);

  const addFiles = (files: File[]) => {
    onFilesChosen();
    setStaged((current) => [...current, ...files.map((file) => ({ id: `staged-${++nextStagedId}`, file, name: file.name }))]);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = staged.map((s) => ({ ...s, error: documentNameError(s.name) }));
    setStaged(checked);
    const firstInvalid = checked.find((s) => s.error);
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLInputElement>(`[data-staged-id="${firstInvalid.id}"]`)?.focus();
      return;
    }
    onSubmit(checked.map((s) => ({ file: s.file, input: { docid: null, name: s.name, doctype: doctype.trim() } })));
    setStaged([]);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>New document</CardTitle>
        <CardDescription>The name defaults to the file&apos;s name; change it if you like.</CardDescription>
      </CardHeader>
      <CardContent>
        <form ref={formRef} noValidate onSubmit={submit} className="flex flex-col gap-5" aria-label="New document">
          <FileDropZone onFiles={addFiles} />
          {staged.length > 0 ? (
            <ul className="flex flex-col gap-3" aria-label="Files to upload">
              {staged.map((s) => (
                <StagedFileRow
                  key={s.id}
                  staged={s}
                  onRename={(name) =>
                    setStaged((current) =>
                      current.map((c) => (c.id === s.id ? { ...c, name, error: c.error ? documentNameError(name) : undefined } : c)),
                    )
                  }
                  onRemove={() => setStaged((current) => current.filter((c) => c.id !== s.id))}
                />
              ))}
            </ul>
          ) : null}
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={doctypeId}>Document type</Label>
            <Input
              id={doctypeId}
              list={listId}
              value={doctype}
              maxLength={100}
              placeholder="e.g. contract"
              onChange={(event) => setDoctype(event.target.value)}
              autoComplete="off"
            />
            <datalist id={listId}>
              {doctypeSuggestions.map((d) => (
                <option key={d} value={d} />
              ))}
            </datalist>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={staged.length === 0}>
              {staged.length > 1 ? `Upload ${staged.length} files` : "Upload"}
            </Button>
            {staged.length === 0 ? <p className="text-sm text-slate-500">Choose a file to start.</p> : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function StagedFileRow({ staged, onRename, onRemove }: { staged: StagedFile; onRename: (name: string) => void; onRemove: () => void }) {
  const inputId = useId();
  const errorId = useId();
  const fileInfoId = useId();
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3" data-testid="staged-file">
      <div className="flex items-center justify-between gap-3">
        <p id={fileInfoId} className="min-w-0 truncate text-sm text-slate-600">
          <span className="font-medium text-slate-800">{staged.file.name}</span> · {formatBytes(staged.file.size)}
        </p>
        <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove ${staged.file.name}`}>
          Remove
        </Button>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={inputId}>Name</Label>
        <Input
          id={inputId}
          data-staged-id={staged.id}
          value={staged.name}
          maxLength={255}
          aria-invalid={staged.error ? true : undefined}
          aria-describedby={staged.error ? `${errorId} ${fileInfoId}` : fileInfoId}
          onChange={(event) => onRename(event.target.value)}
        />
        <FieldError id={errorId}>{staged.error}</FieldError>
      </div>
    </li>
  );
}
