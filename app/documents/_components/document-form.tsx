"use client";
import { useId, useRef, useState, type FormEvent } from "react";
import type { CreateDocumentInput } from "@/lib/esign/schemas";
import { isDocumentNameLongEnough, NAME_MAX_LENGTH, NAME_MIN_LENGTH } from "@/lib/document-name";
import { useLocale, useTranslations } from "next-intl";
import { ignoreEnterWhileComposing } from "@/lib/input/ime";
import { normalizeFileName } from "@/lib/input/normalize";
import { formatBytes } from "@/lib/upload/format";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError, Input, Label } from "@/components/ui/input";
import { FileDropZone } from "@/app/documents/_components/file-drop-zone";

type StagedFile = { id: string; file: File; name: string; error?: string };

type Props = {
  doctypeSuggestions: string[];
  /** Whether an upload is under way (or waiting, or paused) in the list below: the form then says so. */
  uploading: boolean;
  /** Called as soon as files are chosen, so the upload machinery can load while the user checks the names. */
  onFilesChosen: () => void;
  onSubmit: (entries: { file: File; input: CreateDocumentInput }[]) => void;
};

let nextStagedId = 0;

/** The name rule of lib/document-name.ts, in the page's language. */
function useNameError(): (name: string) => string | undefined {
  const t = useTranslations("upload");
  const errors = useTranslations("errors");
  return (name) => {
    if (name.length > NAME_MAX_LENGTH) return t("nameTooLong", { max: NAME_MAX_LENGTH });
    return isDocumentNameLongEnough(name) ? undefined : errors("NAME_TOO_SHORT", { min: NAME_MIN_LENGTH });
  };
}

/** Choose files, check or edit each document's name, pick a document type, and queue them for upload. */
export function DocumentForm({ doctypeSuggestions, uploading, onFilesChosen, onSubmit }: Props) {
  const [staged, setStaged] = useState<StagedFile[]>([]);
  const [doctype, setDoctype] = useState("");
  const listId = useId();
  const doctypeId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const t = useTranslations("upload");
  const documentNameError = useNameError();

  const addFiles = (files: File[]) => {
    onFilesChosen();
    // NFC: a name from macOS comes decomposed; the document is named as the user would type it.
    setStaged((current) => [...current, ...files.map((file) => ({ id: `staged-${++nextStagedId}`, file, name: normalizeFileName(file.name) }))]);
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
        <CardTitle>{t("formTitle")}</CardTitle>
        <CardDescription>{t("formDescription")}</CardDescription>
      </CardHeader>
      <CardContent>
        {/* Enter that confirms an IME conversion (Japanese input) must not submit the form. */}
        <form ref={formRef} noValidate onSubmit={submit} onKeyDown={ignoreEnterWhileComposing} className="flex flex-col gap-5" aria-label={t("formLabel")}>
          <FileDropZone onFiles={addFiles} />
          {staged.length > 0 ? (
            <ul className="flex flex-col gap-3" aria-label={t("filesLabel")}>
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
            <Label htmlFor={doctypeId}>{t("doctype")}</Label>
            <Input
              id={doctypeId}
              list={listId}
              value={doctype}
              maxLength={100}
              placeholder={t("doctypePlaceholder")}
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
              {t("submit", { count: staged.length })}
            </Button>
            {staged.length === 0 ? (
              <p className="text-sm text-slate-600" data-testid="form-hint">
                {uploading ? t("uploadingBelow") : t("chooseToStart")}
              </p>
            ) : null}
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
  const t = useTranslations("upload");
  const locale = useLocale();
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3" data-testid="staged-file">
      <div className="flex items-center justify-between gap-3">
        <p id={fileInfoId} className="min-w-0 truncate text-sm text-slate-600">
          <span className="font-medium text-slate-800">{staged.file.name}</span> · {formatBytes(staged.file.size, locale)}
        </p>
        <Button variant="ghost" size="sm" onClick={onRemove} aria-label={t("removeFile", { name: staged.file.name })}>
          {t("remove")}
        </Button>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={inputId}>{t("name")}</Label>
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
