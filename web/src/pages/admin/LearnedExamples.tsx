// The current project's learned examples: requests and the steps they
// should give, kept from the editor's Draft from text panel. The hub puts
// the most similar ones into each new draft's prompt. Every member sees
// them; an example's author and Test Developers and up may delete it.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { may } from "../../api/admin";
import { fetchRegistry } from "../../api/editorApi";
import type { JsonObject } from "../../api/editorApi";
import { deleteExample, languageKeys, listExamples, type LearnedExample } from "../../api/language";
import type { Project } from "../../api";
import { ResourceTable } from "../../components/ResourceTable";
import { Confirm, When } from "../../components/ui";
import { useWorkspace } from "../../session";
import { describeStep } from "../editor/stepText";
import "./examples.css";

const clip = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n)}…` : s);

export function LearnedExamples({ project }: { project: Project }) {
  const ws = useWorkspace();
  const qc = useQueryClient();
  const examples = useQuery({ queryKey: languageKeys.examples(project.id), queryFn: () => listExamples(project.id) });
  const registry = useQuery({ queryKey: ["registry"], queryFn: fetchRegistry, staleTime: Infinity });
  const [asking, setAsking] = useState<LearnedExample | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (e: LearnedExample) => deleteExample(e.id),
    onMutate: () => setDone(null),
    onSuccess: async (_, e) => {
      setAsking(null);
      setDone(`The example “${clip(e.text)}” was deleted.`);
      await qc.invalidateQueries({ queryKey: languageKeys.examples(project.id) });
    },
  });
  // access: the author may delete their own; EditSharedTests (Test Developer and up) any.
  const mayDelete = (e: LearnedExample) => e.author?.id === ws.user.id || may.manageSuites(ws.role);

  return (
    <div className="admin-section learned-examples">
      <h2>Learned examples of project {project.name}</h2>
      <p className="hint">
        Requests and the steps they should give, kept with Keep as example in the editor's Draft from text panel. Each new draft in this
        project shows the language model the most similar ones. Their authors, and Test Developers and up, may delete them.
      </p>
      <ResourceTable
        query={examples}
        rowKey={(e) => e.id}
        loadingLabel="Loading the learned examples"
        errorTitle="The learned examples could not be loaded"
        empty="No examples yet. Draft steps from text in a test's editor, then choose Keep as example."
        columns={[
          {
            header: "Request",
            className: "example-text",
            cell: (e) => (
              <>
                {e.text}
                {e.steps.length > 0 && (
                  <details>
                    <summary className="muted">Show the steps</summary>
                    <ol>
                      {e.steps.map((s, i) => (
                        <li key={i}>{registry.data ? describeStep(s as unknown as JsonObject, registry.data) : s.type}</li>
                      ))}
                    </ol>
                  </details>
                )}
              </>
            ),
          },
          { header: "Steps", headerClassName: "num", className: "num", cell: (e) => e.steps.length },
          { header: "Author", cell: (e) => e.author?.name ?? <span className="muted">—</span> },
          { header: "Added", cell: (e) => <When at={e.createdAt} /> },
        ]}
        actions={(e) =>
          mayDelete(e) ? (
            <button
              type="button"
              className="small danger"
              aria-label={`Delete the example “${clip(e.text, 40)}”`}
              onClick={() => setAsking(e)}
            >
              Delete
            </button>
          ) : null
        }
      />
      {done && (
        <p className="ok-box" role="status">
          {done}
        </p>
      )}
      {asking && (
        <Confirm
          title="Delete this example?"
          confirmLabel="Delete example"
          danger
          busy={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(asking)}
          onCancel={() => {
            setAsking(null);
            remove.reset();
          }}
        >
          <p>
            “{asking.text}” and its {asking.steps.length} step{asking.steps.length === 1 ? "" : "s"} will no longer guide drafts in{" "}
            {project.name}.
          </p>
        </Confirm>
      )}
    </div>
  );
}
