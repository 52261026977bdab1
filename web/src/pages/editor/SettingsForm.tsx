// The test's own settings: name, suite, tags, description, variables and
// the data it runs with.
// A cleared optional setting leaves the document, as the hub stores it.
import { useState } from "react";
import type { EditorDocument } from "../../api/editorApi";
import { canonical, str, stringMap, withField, type FieldIssue } from "./documentModel";
import { Field } from "./Field";
import { KeyValueRows } from "./KeyValueRows";
import { DataBindingFields } from "./DataBindingFields";

function splitTags(text: string): string[] {
  return text
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
}

function readTags(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((t): t is string => typeof t === "string") : [];
}

export function SettingsForm({
  doc,
  onChange,
  issues,
}: {
  doc: EditorDocument;
  onChange: (doc: EditorDocument) => void;
  issues: Record<string, FieldIssue[]>;
}) {
  const tags = readTags(doc.tags);
  const [tagText, setTagText] = useState(tags.join(", "));
  // Tags changed from elsewhere (the JSON view): show them.
  if (canonical(splitTags(tagText)) !== canonical(tags)) setTagText(tags.join(", "));

  const set = (name: string, value: unknown) => onChange(withField(doc, name, value));
  const optional = (name: string, value: string) => set(name, value === "" ? undefined : value);

  return (
    <section className="panel editor-settings" aria-labelledby="editor-settings-title">
      <h2 id="editor-settings-title">Test settings</h2>
      <div className="settings-grid">
        <Field label="Name" issues={issues.name}>
          {(c) => <input {...c} required maxLength={200} value={str(doc.name)} onChange={(e) => set("name", e.target.value)} />}
        </Field>
        <Field label="Suite" hint="Optional; groups tests in lists and runs." issues={issues.suite}>
          {(c) => <input {...c} maxLength={100} value={str(doc.suite)} onChange={(e) => optional("suite", e.target.value)} />}
        </Field>
        <Field label="Tags" hint="Comma separated, e.g. smoke, checkout." issues={issues.tags}>
          {(c) => (
            <input
              {...c}
              value={tagText}
              onChange={(e) => {
                setTagText(e.target.value);
                const next = splitTags(e.target.value);
                set("tags", next.length > 0 ? next : undefined);
              }}
            />
          )}
        </Field>
        <Field label="Description" className="settings-wide" issues={issues.description}>
          {(c) => <textarea {...c} rows={2} value={str(doc.description)} onChange={(e) => optional("description", e.target.value)} />}
        </Field>
      </div>
      <KeyValueRows
        legend="Variables"
        noun="variable"
        hint="Steps use them as ${name}; an environment or data set may give them other values."
        value={stringMap(doc.variables)}
        onChange={(map) => set("variables", map)}
        issues={issues.variables}
      />
      <DataBindingFields doc={doc} onChange={onChange} issues={issues.data} />
    </section>
  );
}
