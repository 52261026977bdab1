// A test document shown read-only: its facts, its steps as a readable list
// (type and main fields) and the JSON itself.
import type { Locator, Step, Target, TestDocument } from "../../api";
import { describeBlock } from "../editor/blockText";
import { countSteps } from "../runs/outline";
import type { JsonObject } from "../../api/editorApi";

export function describeLocator(l: Locator): string {
  const name = l.name ? ` name="${l.name}"` : "";
  return `${l.kind}=${l.value}${name}${l.exact ? " (exact)" : ""}`;
}

export function describeTarget(t: Target): string {
  const [first, ...rest] = t.locators;
  let s = first ? describeLocator(first) : "(no locator)";
  if (rest.length > 0) s += ` (+${rest.length} fallback${rest.length === 1 ? "" : "s"})`;
  if (t.frame && t.frame.length > 0) s += ` in frame ${t.frame.map(describeLocator).join(" › ")}`;
  return s;
}

function clip(s: string, n = 120): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** stepFields lists the parameters a step sets, as label and text, in a readable order. */
export function stepFields(s: Step): [string, string][] {
  const out: [string, string][] = [];
  if (s.url) out.push(["url", s.url]);
  if (s.target) out.push(["target", describeTarget(s.target)]);
  if (s.value !== undefined) out.push(["value", s.value === "" ? '""' : s.value]);
  if (s.key) out.push(["key", s.key]);
  if (s.expected !== undefined) out.push(["expected", `${s.match ? `${s.match} ` : ""}"${s.expected}"`]);
  else if (s.match) out.push(["match", s.match]);
  if (s.ms !== undefined) out.push(["ms", String(s.ms)]);
  if (s.state) out.push(["state", s.state]);
  if (s.name) out.push(["name", s.name]);
  if (s.message) out.push(["message", s.message]);
  if (s.fullPage) out.push(["fullPage", "yes"]);
  if (s.code) out.push(["code", clip(s.code.replace(/\s+/g, " "))]);
  if (s.assign) out.push(["assign", s.assign]);
  if (s.component) out.push(["component", `${s.component}${s.version ? ` v${s.version}` : ""}`]);
  if (s.inputs && Object.keys(s.inputs).length > 0) {
    out.push([
      "inputs",
      Object.entries(s.inputs)
        .map(([k, v]) => `${k}=${v}`)
        .join(", "),
    ]);
  }
  if (s.timeoutMs) out.push(["timeoutMs", String(s.timeoutMs)]);
  return out;
}

export function StepList({ steps, label }: { steps: Step[]; label?: string }) {
  if (steps.length === 0) return <p className="muted">No steps.</p>;
  return (
    <ol className="tl-steps" aria-label={label}>
      {steps.map((s, i) => {
        // A block (docs/flow.md) reads as the editor's line, its steps nested below.
        const block = describeBlock(s as unknown as JsonObject);
        return (
          <li key={`${s.id}-${i}`}>
            <span className="tl-step-type">{block ?? s.type}</span>
            {s.description && <span className="tl-step-desc"> {s.description}</span>}
            <dl className="tl-step-fields">
              {stepFields(s).map(([k, v]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd className="mono">{v}</dd>
                </div>
              ))}
            </dl>
            {block !== null && (
              <div className="tl-block">
                {s.type === "if" && <span className="tl-step-desc">Then</span>}
                <StepList steps={s.steps ?? []} label={`Steps of ${block}`} />
                {s.type === "if" && (s.else ?? []).length > 0 && (
                  <>
                    <span className="tl-step-desc">Else</span>
                    <StepList steps={s.else ?? []} label={`Else of ${block}`} />
                  </>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}

export function DocumentView({ document: d }: { document: TestDocument }) {
  const vars = Object.entries(d.variables ?? {});
  return (
    <div className="tl-document">
      <dl className="tl-facts">
        <div>
          <dt>Name</dt>
          <dd>{d.name}</dd>
        </div>
        <div>
          <dt>Suite</dt>
          <dd>{d.suite || "—"}</dd>
        </div>
        {d.tags && d.tags.length > 0 && (
          <div>
            <dt>Tags</dt>
            <dd>{d.tags.join(", ")}</dd>
          </div>
        )}
        {d.description && (
          <div>
            <dt>Description</dt>
            <dd>{d.description}</dd>
          </div>
        )}
        {vars.length > 0 && (
          <div>
            <dt>Variables</dt>
            <dd className="mono">{vars.map(([k, v]) => `${k}=${v}`).join(", ")}</dd>
          </div>
        )}
      </dl>
      <h3>Steps ({countSteps(d.steps)})</h3>
      <StepList steps={d.steps} />
      <details className="tl-json">
        <summary>JSON</summary>
        <pre aria-label="Document JSON">{JSON.stringify(d, null, 2)}</pre>
      </details>
    </div>
  );
}
