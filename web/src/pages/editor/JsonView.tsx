// The whole document as JSON. Edits stay a draft until applied (or until
// the form tab is chosen); applying replaces the form's state.
import { Field } from "./Field";

export function JsonView({
  text,
  onText,
  error,
  onApply,
  pending,
  readOnly,
}: {
  text: string;
  onText: (text: string) => void;
  error: string | null;
  onApply: () => void;
  /** The text differs from the document the form holds. */
  pending: boolean;
  readOnly: boolean;
}) {
  return (
    <section className="panel editor-json">
      <Field
        label="Document JSON"
        hint={
          readOnly
            ? "Read-only: this test cannot be edited now."
            : "The test document (DSL 2). Apply it to update the form; Save sends it to the hub, which checks it."
        }
      >
        {(c) => (
          <textarea
            {...c}
            className="mono json-text"
            rows={28}
            spellCheck={false}
            readOnly={readOnly}
            value={text}
            onChange={(e) => onText(e.target.value)}
          />
        )}
      </Field>
      {error && (
        <div className="error-box" role="alert">
          {error}
        </div>
      )}
      {!readOnly && (
        <div className="row">
          <button type="button" onClick={onApply} disabled={!pending}>
            Apply JSON
          </button>
          {pending && <span className="hint">Not applied yet.</span>}
        </div>
      )}
    </section>
  );
}
