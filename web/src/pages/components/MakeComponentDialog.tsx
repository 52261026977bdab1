// "Make component" in the test editor: the selected steps (one contiguous
// run) become version 1 of a new component, and the hub replaces them in
// the test by one callComponent step, in a new version of the test. The
// hub works on the saved test, so unsaved edits are saved first (never
// dropped); when that save fails, nothing is made.
import { useId, useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { ApiError, createComponent, inputsForSave, type ComponentInput, type CreatedComponent, type Test } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { ErrorBox, IssueList, Modal } from "../../components/ui";
import { InputsEditor } from "./InputsEditor";

/**
 * selectionProblem says why the chosen steps cannot become a component, or
 * null: they must be saved-able steps with ids, one after the other.
 */
export function selectionProblem(steps: JsonObject[], ids: string[]): string | null {
  if (ids.length === 0) return "Select the steps to make into a component.";
  if (ids.some((id) => id === "")) return "Every selected step needs an id.";
  const at = ids.map((id) => steps.findIndex((s) => s.id === id));
  if (at.some((i) => i < 0)) return "A selected step is not in the test.";
  for (let k = 1; k < at.length; k++) {
    if (at[k] !== at[0] + k) return "Select steps that follow each other: a component is made from one unbroken run of steps.";
  }
  return null;
}

export function MakeComponentDialog({
  test,
  steps,
  ids,
  dirty,
  saveFirst,
  onClose,
  onMade,
}: {
  test: Test;
  steps: JsonObject[];
  ids: string[];
  /** The editor has unsaved changes: they are saved before the component is made. */
  dirty: boolean;
  /** Saves the editor's changes; false when the save failed (the editor shows why). */
  saveFirst: () => Promise<boolean>;
  onClose: () => void;
  onMade: (res: CreatedComponent) => void;
}) {
  const id = useId();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [inputs, setInputs] = useState<ComponentInput[]>([]);
  const problem = selectionProblem(steps, ids);
  const make = useMutation({
    mutationFn: async (): Promise<CreatedComponent | null> => {
      if (dirty && !(await saveFirst())) return null;
      const ins = inputsForSave(inputs);
      return createComponent(test.projectId, {
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
        ...(ins.length ? { inputs: ins } : {}),
        testId: test.id,
        stepIds: ids,
      });
    },
    onSuccess: (res) => {
      if (res) onMade(res);
      else onClose(); // the save failed: the editor shows its problems, the edits stay
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!problem && name.trim()) make.mutate();
  };
  const issues = make.error instanceof ApiError ? make.error.issues : [];
  const first = ids[0];
  const last = ids[ids.length - 1];
  const range = ids.length === 1 ? `step ${first}` : `steps ${first}–${last}`;
  return (
    <Modal title="Make component" onClose={onClose} wide>
      <form className="form" onSubmit={submit}>
        {problem ? (
          <p className="error-box" role="alert">
            {problem}
          </p>
        ) : (
          <p>
            {ids.length === 1 ? "The selected step" : `The ${ids.length} selected steps`} ({range}) become version 1 of a new component, and
            this test calls it instead: they are replaced by one callComponent step in a new version of the test.
          </p>
        )}
        {dirty && !problem && (
          <p className="notice" role="status">
            This test has unsaved changes. They are saved first, because the component is made from the saved test; if they cannot be saved,
            nothing is made and your changes stay in the editor.
          </p>
        )}
        <label>
          Name
          <input required autoFocus maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Description
          <textarea maxLength={2000} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <InputsEditor inputs={inputs} onChange={setInputs} issues={issues.filter((i) => i.path.startsWith("inputs"))} idBase={id} />
        <ErrorBox error={make.error} title="The component was not made" />
        <IssueList error={make.error} />
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!!problem || !name.trim() || make.isPending}>
            {make.isPending ? "Making…" : dirty ? "Save and make component" : "Make component"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
