// A component's inputs as rows: name, default (or required: no default),
// description. Steps inside the component read an input as ${name}; a
// caller gives a value for it, or the default applies.
import type { ComponentInput, Issue } from "../../api";

export function InputsEditor({
  inputs,
  onChange,
  issues = [],
  idBase,
}: {
  inputs: ComponentInput[];
  onChange: (inputs: ComponentInput[]) => void;
  /** Issues whose path starts with inputs (inputs[0].name …). */
  issues?: Issue[];
  idBase: string;
}) {
  const set = (i: number, change: Partial<ComponentInput>) => onChange(inputs.map((x, j) => (j === i ? { ...x, ...change } : x)));
  const rowIssues = (i: number) => issues.filter((is) => is.path === `inputs[${i}]` || is.path.startsWith(`inputs[${i}].`));
  const general = issues.filter((is) => !/^inputs\[\d+\]/.test(is.path));
  return (
    <fieldset className="cmp-inputs">
      <legend>Inputs</legend>
      <p className="hint" id={`${idBase}-inputs-hint`}>
        Steps of the component read an input as <code>{"${name}"}</code>. A call gives its value; without one the default applies. An input
        without a default must be given by every call.
      </p>
      {inputs.length === 0 && <p className="muted">No inputs.</p>}
      {inputs.length > 0 && (
        <table className="table cmp-inputs-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Required</th>
              <th>Default</th>
              <th>Description</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {inputs.map((input, i) => {
              const n = i + 1;
              const required = input.default === null;
              const problems = rowIssues(i);
              return (
                <tr key={i}>
                  <td>
                    <input
                      aria-label={`Input ${n} name`}
                      value={input.name}
                      placeholder="e.g. email"
                      maxLength={64}
                      aria-invalid={problems.length > 0 || undefined}
                      onChange={(e) => set(i, { name: e.target.value })}
                    />
                    {problems.map((p, k) => (
                      <span key={k} className="field-error">
                        {p.message}
                      </span>
                    ))}
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Input ${n} required`}
                      checked={required}
                      onChange={(e) => set(i, { default: e.target.checked ? null : "" })}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={`Input ${n} default`}
                      value={input.default ?? ""}
                      disabled={required}
                      placeholder={required ? "none: calls must give it" : "empty text"}
                      onChange={(e) => set(i, { default: e.target.value })}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={`Input ${n} description`}
                      value={input.description}
                      maxLength={500}
                      onChange={(e) => set(i, { description: e.target.value })}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="small"
                      aria-label={`Remove input ${n}`}
                      onClick={() => onChange(inputs.filter((_, j) => j !== i))}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {general.map((p, k) => (
        <span key={k} className="field-error">
          {p.message}
        </span>
      ))}
      <button type="button" className="small" onClick={() => onChange([...inputs, { name: "", default: null, description: "" }])}>
        Add input
      </button>
    </fieldset>
  );
}
