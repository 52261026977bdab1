// The Draft from text panel: a request in plain language and an
// environment; the hub's language model proposes steps, checked in the
// caller's agent against the start page. Each proposed step shows whether
// its element was found there; dropped steps say why. Insert puts the
// steps into the test at the cursor as unsaved edits; Keep as example
// teaches later drafts of the project. Without a configured model the
// panel says how to configure one.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { Link } from "react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Registry } from "../../../api";
import type { JsonObject } from "../../../api/editorApi";
import { addExample, generateSteps, languageKeys, type Draft, type DraftRequest } from "../../../api/language";
import { ErrorBox, Modal } from "../../../components/ui";
import { rememberEnvironment } from "../../runs/RunOptionsFields";
import type { Authoring } from "../authoring/AuthoringContext";
import { describeStep } from "../stepText";
import { failureText, groupIssues, markCounts, notConfigured, stepMark, type MarkKind } from "./draftModel";
import "./language.css";

const MARK_ICONS: Record<MarkKind, string> = { verified: "✓", ambiguous: "!", missing: "✗", unverified: "?", none: "–" };

interface Drafted {
  /** The request the draft answers (the text box may have changed since). */
  text: string;
  draft: Draft;
}

function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === "AbortError";
}

export function DraftPanel({
  authoring,
  registry,
  onInsert,
  onClose,
}: {
  authoring: Authoring;
  registry: Registry;
  /** Puts steps into the test at the cursor; answers how many were added. */
  onInsert: (steps: JsonObject[]) => number;
  onClose: () => void;
}) {
  const id = useId();
  const qc = useQueryClient();
  const { projectId, options } = authoring;
  const [text, setText] = useState("");
  const [drafted, setDrafted] = useState<Drafted | null>(null);
  const [inserted, setInserted] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const pending = useRef<AbortController | null>(null);
  useEffect(() => {
    textRef.current?.focus();
    // Closing the panel stops waiting for a draft nobody would see.
    return () => pending.current?.abort();
  }, []);

  const keep = useMutation({
    mutationFn: (d: Drafted) => addExample(projectId, { text: d.text, steps: d.draft.steps }),
    onSuccess: () => qc.invalidateQueries({ queryKey: languageKeys.examples(projectId) }),
  });
  const generate = useMutation({
    mutationFn: (body: DraftRequest) => {
      const ac = new AbortController();
      pending.current = ac;
      return generateSteps(projectId, body, ac.signal);
    },
    onMutate: () => {
      setInserted(null);
      keep.reset();
    },
    onSuccess: (draft, body) => setDrafted({ text: body.text, draft }),
  });

  const ask = (e?: FormEvent) => {
    e?.preventDefault();
    const t = text.trim();
    if (!t || generate.isPending) return;
    // The next Run dialog offers the environment the steps were drafted for.
    if (options.envId) rememberEnvironment(projectId, options.envId);
    generate.mutate({ text: t, testId: authoring.testId, environmentId: options.envId || undefined });
  };
  // Ctrl/Cmd+Enter in the text box asks, as in a chat.
  const onTextKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) ask();
  };
  const insert = () => {
    if (!drafted) return;
    const wanted = drafted.draft.steps.length;
    const n = onInsert(drafted.draft.steps as unknown as JsonObject[]);
    const skipped = wanted - n;
    setInserted(
      `Added ${n} drafted step${n === 1 ? "" : "s"} to the test (unsaved)` +
        (skipped > 0 ? `; the first, an Open of the page the test is already on, was left out.` : "."),
    );
  };
  const close = () => {
    if (drafted && !inserted && drafted.draft.steps.length > 0) return setAsking(true);
    onClose();
  };
  const answer = (add: boolean) => {
    setAsking(false);
    if (add) insert();
    onClose();
  };

  const failure = generate.isError && !isAbort(generate.error) ? generate.error : null;
  return (
    <section className="panel draft-panel" aria-labelledby={`${id}-title`}>
      <div className="authoring-head">
        <h2 id={`${id}-title`}>Draft from text</h2>
        <span className="spacer" />
        <Link to="/admin?tab=examples" className="small">
          Learned examples
        </Link>
        <button type="button" className="small" aria-label="Close the Draft from text panel" title="Close" onClick={close}>
          ✕
        </button>
      </div>
      <form className="draft-ask" onSubmit={ask}>
        <div className="field">
          <label htmlFor={`${id}-text`}>What should the steps do?</label>
          <textarea
            ref={textRef}
            id={`${id}-text`}
            rows={3}
            value={text}
            maxLength={4000}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onTextKey}
            placeholder="sign in as amy and check the greeting"
            aria-describedby={`${id}-text-hint`}
          />
          <span className="hint" id={`${id}-text-hint`}>
            In plain words. The hub's language model sees the test's saved steps, the environment's variables and the names (never the
            values) of its secrets, and the start page as your agent opens it: a URL in the text, the test's first Open, or the
            environment's base URL.
          </span>
        </div>
        <p className="hint">Environment: {options.chosen ? options.chosen.name : "none"} (chosen in the editor's toolbar).</p>
        <div className="row">
          <button type="submit" className="primary" disabled={generate.isPending || text.trim() === ""}>
            {generate.isPending ? "Generating…" : "Generate"}
          </button>
          {generate.isPending && (
            <>
              <span className="loading" role="status">
                <span className="spinner" aria-hidden="true" /> Drafting the steps and checking them on the page; this can take a minute…
              </span>
              <button type="button" onClick={() => pending.current?.abort()}>
                Stop waiting
              </button>
            </>
          )}
        </div>
      </form>

      {failure &&
        (notConfigured(failure) ? (
          <NotConfigured />
        ) : (
          <p className="error-box" role="alert">
            {failureText(failure)}
          </p>
        ))}

      {drafted && (
        <DraftView
          drafted={drafted}
          registry={registry}
          inserted={inserted}
          onInsert={insert}
          keep={{ run: () => keep.mutate(drafted), pending: keep.isPending, done: keep.isSuccess, error: keep.error }}
        />
      )}

      {asking && (
        <Modal title="Insert the drafted steps?" onClose={() => setAsking(false)}>
          <div className="modal-body">
            <p>The {drafted?.draft.steps.length} drafted steps are not in the test yet. Closing the panel discards them.</p>
          </div>
          <div className="modal-actions">
            <button type="button" onClick={() => setAsking(false)}>
              Cancel
            </button>
            <button type="button" onClick={() => answer(false)}>
              Discard them
            </button>
            <button type="button" className="primary" onClick={() => answer(true)}>
              Insert them and close
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}

function DraftView({
  drafted,
  registry,
  inserted,
  onInsert,
  keep,
}: {
  drafted: Drafted;
  registry: Registry;
  inserted: string | null;
  onInsert: () => void;
  keep: { run: () => void; pending: boolean; done: boolean; error: unknown };
}) {
  const id = useId();
  const { draft, text } = drafted;
  const n = draft.steps.length;
  const counts = markCounts(draft);
  const groups = groupIssues(draft.issues);
  const g = draft.grounding;
  return (
    <div className="draft-result">
      <p className="muted">
        Drafted by <strong className="mono">{draft.model}</strong> for “{text}”.
      </p>
      {g.verified ? (
        <p className="hint">
          Checked in your agent's browser on {g.title ? `“${g.title}” ` : ""}
          <span className="mono">{g.url}</span> ({g.elements} elements read): {counts.verified} found
          {counts.ambiguous > 0 ? `, ${counts.ambiguous} ambiguous` : ""}
          {counts.missing > 0 ? `, ${counts.missing} not found (perhaps on a later page)` : ""}.
        </p>
      ) : (
        <p className="notice notice-warn">Not checked against a page: {g.reason || "the hub gave no reason"}.</p>
      )}
      <h3 id={`${id}-steps`}>Proposed steps ({n})</h3>
      {n === 0 ? (
        <p className="muted">The model proposed no usable step. Say more precisely what to do, or name the page.</p>
      ) : (
        <ol className="draft-steps" aria-labelledby={`${id}-steps`}>
          {draft.steps.map((s) => {
            const m = stepMark(s, draft);
            return (
              <li key={s.id}>
                <span>{describeStep(s as unknown as JsonObject, registry)}</span>{" "}
                <span className={`draft-mark draft-mark-${m.kind}`} title={m.detail}>
                  <span aria-hidden="true">{MARK_ICONS[m.kind]}</span> {m.label}
                </span>
                {(m.kind === "missing" || m.kind === "ambiguous") && <span className="hint draft-mark-detail">{m.detail}</span>}
              </li>
            );
          })}
        </ol>
      )}
      {groups.length > 0 && (
        <>
          <h3 id={`${id}-issues`}>Left out ({groups.length})</h3>
          <ul className="draft-issues" aria-labelledby={`${id}-issues`}>
            {groups.map((gr, i) => (
              <li key={i}>
                <strong>{gr.where}</strong>: {gr.messages.join("; ")}
                {gr.text && <code className="draft-issue-text">{gr.text}</code>}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="row">
        <button type="button" className="primary" disabled={n === 0 || inserted !== null} onClick={onInsert}>
          Insert {n} step{n === 1 ? "" : "s"}
        </button>
        <button
          type="button"
          disabled={n === 0 || keep.pending || keep.done}
          onClick={keep.run}
          title="Later drafts in this project learn from the request and these steps"
        >
          {keep.pending ? "Keeping…" : keep.done ? "Kept as example" : "Keep as example"}
        </button>
        {inserted && (
          <span role="status" className="muted">
            {inserted}
          </span>
        )}
        {keep.done && (
          <span role="status" className="muted">
            Kept: later drafts in this project learn from it (<Link to="/admin?tab=examples">learned examples</Link>).
          </span>
        )}
      </div>
      <ErrorBox error={keep.error} title="The example was not kept" />
    </div>
  );
}

/** NotConfigured explains the hub's 503: how whoever runs the hub configures a model. */
function NotConfigured() {
  return (
    <div className="notice notice-warn draft-setup" role="alert">
      <p>
        <strong>No language model is configured on this hub.</strong> Drafting steps from text needs one. Whoever runs the hub sets these
        environment variables and restarts it:
      </p>
      <dl>
        <dt>
          <code>HUB_LLM_BASE_URL</code>
        </dt>
        <dd>
          the address of any OpenAI-compatible chat-completions API: OpenAI (<code>https://api.openai.com/v1</code>), Azure OpenAI (the
          resource's OpenAI-compatible <code>/openai/v1</code> address), Ollama (<code>http://localhost:11434/v1</code>), vLLM (
          <code>http://localhost:8000/v1</code>) or llama.cpp's server (<code>http://localhost:8080/v1</code>);
        </dd>
        <dt>
          <code>HUB_LLM_API_KEY</code>
        </dt>
        <dd>the provider's API key (local servers may need none);</dd>
        <dt>
          <code>HUB_LLM_MODEL</code>
        </dt>
        <dd>
          the model to draft with, for example <code>gpt-4o-mini</code>, or <code>llama3.1</code> on Ollama.
        </dd>
      </dl>
      <p>Until then, add steps by hand or record them with your agent.</p>
    </div>
  );
}
