// The changes between two versions of a test, step by step: added,
// removed, changed (with each field before and after) and moved steps,
// each read as a sentence, and the settings that differ.
import { useQuery } from "@tanstack/react-query";
import { getVersion } from "../../api/testsApi";
import { fetchRegistry, type JsonObject } from "../../api/editorApi";
import { ErrorBox, Loading } from "../../components/ui";
import { describeStep, paramLabel } from "../editor/stepText";
import { diffVersions, valueText, type FieldChange } from "./versionDiff";

const KIND_WORDS = { added: "Added", removed: "Removed", changed: "Changed", moved: "Moved" } as const;

export function VersionDiffPanel({ testId, from, to, onClose }: { testId: string; from: number; to: number; onClose: () => void }) {
  const version = (n: number) => ({
    queryKey: ["tests", "version", testId, n],
    queryFn: ({ signal }: { signal: AbortSignal }) => getVersion(testId, n, signal),
    staleTime: Infinity,
  });
  const a = useQuery(version(from));
  const b = useQuery(version(to));
  const registry = useQuery({ queryKey: ["registry"], queryFn: fetchRegistry, staleTime: Infinity });
  const error = a.error ?? b.error ?? registry.error;
  let body;
  if (error) body = <ErrorBox error={error} />;
  else if (!a.data || !b.data || !registry.data) body = <Loading label="Comparing the versions" />;
  else {
    const diff = diffVersions(a.data.document ?? { dsl: 2, name: "", steps: [] }, b.data.document ?? { dsl: 2, name: "", steps: [] });
    const reg = registry.data;
    const nothing = diff.settings.length === 0 && diff.steps.length === 0;
    body = (
      <>
        {nothing && <p className="muted">The two versions hold the same test.</p>}
        {diff.settings.length > 0 && (
          <>
            <h3>Settings</h3>
            <Fields fields={diff.settings} />
          </>
        )}
        {diff.steps.length > 0 && (
          <ul className="tl-diff" aria-label="Changed steps">
            {diff.steps.map((c) => {
              const step = c.after ?? c.before ?? {};
              const where =
                c.kind === "removed"
                  ? `was step ${c.from + 1}`
                  : c.kind === "added"
                    ? `step ${c.to + 1}`
                    : `step ${c.from + 1} → ${c.to + 1}`;
              return (
                <li key={`${c.kind}:${c.id}:${c.from}:${c.to}`} className={`tl-diff-${c.kind}`}>
                  <span className="tl-diff-kind">{KIND_WORDS[c.kind]}</span> <span className="muted">{where}</span>{" "}
                  <span className="mono muted">{c.id}</span>: {describeStep(step as JsonObject, reg)}
                  {c.fields.length > 0 && <Fields fields={c.fields} />}
                </li>
              );
            })}
          </ul>
        )}
        {diff.unchanged > 0 && (
          <p className="muted">
            {diff.unchanged} {diff.unchanged === 1 ? "step is" : "steps are"} unchanged.
          </p>
        )}
      </>
    );
  }
  return (
    <section className="panel tl-version-panel" aria-labelledby="tl-diff-title">
      <div className="tl-panel-head">
        <h2 id="tl-diff-title">
          Changes from v{from} to v{to}
        </h2>
        <span className="spacer" />
        <button type="button" className="small" onClick={onClose}>
          Hide
        </button>
      </div>
      {body}
    </section>
  );
}

function Fields({ fields }: { fields: FieldChange[] }) {
  return (
    <ul className="tl-diff-fields">
      {fields.map((f) => (
        <li key={f.field}>
          {paramLabel(f.field)}: <del>{valueText(f.before)}</del> → <ins>{valueText(f.after)}</ins>
        </li>
      ))}
    </ul>
  );
}
