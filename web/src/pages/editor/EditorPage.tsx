// The test editor at /tests/:id: the test's steps as a compact list with
// an inspector beside it, its settings, or the document as JSON; Check and
// Save against the hub (If-Match of the loaded ETag; Ctrl/Cmd+S), and the
// lifecycle actions the caller may take. Unsaved work is never lost
// silently: leaving asks, and Run offers to save first. ?step=<id> opens
// with that step shown. Record, Pick (beside target fields) and Try (on
// script steps) use the caller's desktop agent; recorded steps arrive as
// unsaved edits at the cursor, and so do steps drafted from text. Every
// edit can be undone and redone (toolbar, Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y:
// see useUndoKeys for where the keys stay the text field's own).
import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, may, type CreatedComponent, type Registry } from "../../api";
import {
  fetchRegistry,
  fetchTest,
  saveTest,
  validateDocument,
  type EditorDocument,
  type JsonObject,
  type LoadedTest,
} from "../../api/editorApi";
import { ErrorBox, Loading, Modal, PageHeader, StatusBadge } from "../../components/ui";
import { useFollowProject, useWorkspace } from "../../session";
import { MakeComponentDialog } from "../components/MakeComponentDialog";
import { useRunOptions } from "../runs/RunOptionsFields";
import { StartRunButton } from "../runs/StartRunButton";
import { AuthoringProvider, type Authoring } from "./authoring/AuthoringContext";
import { EditorEnvironment } from "./EditorEnvironment";
import { RecordPanel } from "./authoring/RecordPanel";
import { firstNavigateUrl, insertRecorded } from "./authoring/recordModel";
import { running, useRecording } from "./authoring/useRecording";
import { formatDocument, parseDocumentJson } from "./documentModel";
import { EditorActions } from "./EditorActions";
import { HealthBadges, QuarantineNotice, TestHistorySummary } from "../tests/TestHistory";
import { QuarantineAction } from "../tests/QuarantineDialog";
import { ExportButton } from "./ExportModal";
import { JsonView } from "./JsonView";
import { DraftPanel } from "./language/DraftPanel";
import { LeaveGuard } from "./LeaveGuard";
import { LiveRunBar, useLiveRun } from "./LiveRun";
import { ActionProblem, TopIssues } from "./Problems";
import { SettingsForm } from "./SettingsForm";
import { StepList } from "./StepList";
import { listAt, walkTree, withList } from "./stepTree";
import { useEditorState } from "./useEditorState";
import { useUndoKeys } from "./useUndoKeys";
import "./editor.css";

export function EditorPage() {
  const { id = "" } = useParams();
  // Bumped by Reload: the editor starts over from the test as loaded again.
  const [generation, setGeneration] = useState(0);
  // Said after a reload that an action asked for (Make component).
  const [flash, setFlash] = useState<Flash | null>(null);
  // gcTime 0: every visit loads the test afresh, so edits start from its latest ETag.
  const testQ = useQuery({ queryKey: ["editor", "test", id], queryFn: () => fetchTest(id), gcTime: 0 });
  const registryQ = useQuery({ queryKey: ["registry"], queryFn: fetchRegistry, staleTime: Infinity });
  useFollowProject(testQ.data?.test.projectId);
  if (testQ.isError || registryQ.isError) {
    return (
      <>
        <PageHeader title="Test" />
        <ErrorBox error={testQ.error ?? registryQ.error} />
        <Link to="/tests">Back to tests</Link>
      </>
    );
  }
  if (testQ.isPending || registryQ.isPending) return <Loading label="Loading the test" />;
  const reload = async (said?: Flash) => {
    await testQ.refetch();
    setFlash(said ?? null);
    setGeneration((g) => g + 1);
  };
  return <Editor key={`${id}:${generation}`} initial={testQ.data} registry={registryQ.data} onReload={reload} flash={flash} />;
}

/** What the editor says after Make component. */
interface Flash {
  componentId: string;
  name: string;
  text: string;
}

const VIEWS = [
  ["form", "Form"],
  ["json", "JSON"],
] as const;

const READ_ONLY_NOTICE: Record<string, string> = {
  Ready: "This test is Ready and frozen. Start a new revision to change it.",
  Deprecated: "Deprecated tests are read-only; duplicate it to work from a copy.",
};

function Editor({
  initial,
  registry,
  onReload,
  flash,
}: {
  initial: LoadedTest;
  registry: Registry;
  onReload: (said?: Flash) => void;
  flash: Flash | null;
}) {
  const ed = useEditorState(initial);
  const { test, doc } = ed;
  const readOnly = !test.can.edit;
  const qc = useQueryClient();
  const [view, setView] = useState<(typeof VIEWS)[number][0]>("form");
  const [jsonDraft, setJsonDraft] = useState<string | null>(null);
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const [note, setNote] = useState("");
  const [params] = useSearchParams();
  // Set while "Save before running?" is open: answers the Run button.
  const [askRun, setAskRun] = useState<((go: boolean) => void) | null>(null);
  // Recording, picking and trying scripts with the caller's agent: Draft tests the caller may edit.
  const canAuthor = !readOnly && test.status === "Draft";
  const runOptions = useRunOptions(test.projectId);
  const recording = useRecording(test.projectId);
  // Step by step on the caller's agent, with the document as it is now.
  const live = useLiveRun(test.projectId, test.id, runOptions.envId);
  const liveMarks = Object.fromEntries(Object.entries(live.session?.steps ?? {}).map(([k, m]) => [k, m.status]));
  const fixTarget = (stepId: string, target: JsonObject) => {
    const base = latest.current;
    edit({ ...base, steps: base.steps.map((st) => (st.id === stepId ? { ...st, target } : st)) });
  };
  const [recordOpen, setRecordOpen] = useState(false);
  const recordButton = useRef<HTMLButtonElement>(null);
  const [draftOpen, setDraftOpen] = useState(false);
  const draftButton = useRef<HTMLButtonElement>(null);
  const closeRecord = () => {
    setRecordOpen(false);
    // Back to where the panel was opened from, for keyboard users.
    setTimeout(() => recordButton.current?.focus());
  };
  // The step shown in the inspector: recorded steps go after it.
  const cursor = useRef<string | null>(null);
  const [cursorId, setCursorId] = useState<string | null>(null);
  const onCursor = useCallback((id: string | null) => {
    cursor.current = id;
    setCursorId(id);
  }, []);
  const [reveal, setReveal] = useState<{ ids: string[] } | null>(null);
  // The steps "Make component" was asked for, while its dialog is open.
  const [making, setMaking] = useState<string[] | null>(null);
  // What Make component said; it stays while the editor (and its undo history) does.
  const [made, setMade] = useState<Flash | null>(flash);
  const ws = useWorkspace();
  const canMakeComponent = !readOnly && test.status === "Draft" && may.manageSuites(ws.role);
  const latest = useRef(doc);
  latest.current = doc;

  const jsonPending = jsonDraft !== null && jsonDraft !== formatDocument(doc);
  const changed = ed.dirty || jsonPending;
  // Undo works on the document: JSON typed but not applied is the text box's own.
  const canUndo = !readOnly && !jsonPending && ed.canUndo;
  const canRedo = !readOnly && !jsonPending && ed.canRedo;
  const undo = () => {
    if (!canUndo) return;
    ed.undo();
    setNote("");
  };
  const redo = () => {
    if (!canRedo) return;
    ed.redo();
    setNote("");
  };
  useUndoKeys(undo, redo, !readOnly);
  const edit = (next: EditorDocument) => {
    ed.setDoc(next);
    setNote("");
  };
  /** applyJson puts the JSON draft into the form; the document to use, or null after a parse error. */
  const applyJson = (): EditorDocument | null => {
    if (jsonDraft === null) return doc;
    const parsed = parseDocumentJson(jsonDraft);
    if ("error" in parsed) {
      setJsonError(parsed.error);
      return null;
    }
    setJsonError(null);
    setJsonDraft(null);
    edit(parsed.document);
    return parsed.document;
  };

  const save = useMutation({
    mutationFn: (sent: EditorDocument) => saveTest(test.id, { document: sent }, ed.etag),
    onMutate: () => {
      setProblem(null);
      setNote("");
    },
    onSuccess: (res, sent) => {
      ed.saved(res, sent);
      ed.setIssues([]);
      setNote("Saved.");
      // Lists and the suite filter show the name, suite and step count.
      qc.invalidateQueries({ queryKey: ["tests"] });
      qc.invalidateQueries({ queryKey: ["suites"] });
    },
    onError: (err, sent) => {
      setProblem(err);
      if (err instanceof ApiError && err.status === 422) ed.setIssues(err.issues, sent);
    },
  });
  const check = useMutation({
    mutationFn: (sent: EditorDocument) => validateDocument(test.id, sent),
    onMutate: () => {
      setProblem(null);
      setNote("");
    },
    onSuccess: (res, sent) => {
      ed.setIssues(res.issues, sent);
      setNote(res.valid ? "No problems found." : "");
    },
    onError: setProblem,
  });

  const canSave = changed && !readOnly && !save.isPending;
  const onSave = (e?: FormEvent) => {
    e?.preventDefault();
    if (!canSave) return;
    const sent = applyJson();
    if (sent) save.mutate(sent);
  };
  const onCheck = () => {
    const sent = applyJson();
    if (sent) check.mutate(sent);
  };
  const showForm = () => {
    if (applyJson()) setView("form");
  };
  const showJson = () => {
    if (view === "json") return;
    setJsonDraft(null);
    setJsonError(null);
    setView("json");
  };
  // Arrow keys move between the two tabs, as in any tab list.
  const onTabKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    e.preventDefault();
    if (view === "form") showJson();
    else showForm();
    e.currentTarget.querySelector<HTMLButtonElement>('[aria-selected="false"]')?.focus();
  };
  // Ctrl/Cmd+S saves wherever the focus is, instead of the browser's "Save page".
  const saveRef = useRef(onSave);
  saveRef.current = onSave;
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        saveRef.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // A run uses the saved version: with unsaved changes, Run asks to save first.
  const beforeRun = () => (changed ? new Promise<boolean>((resolve) => setAskRun(() => resolve)) : Promise.resolve(true));
  const answerRun = (go: boolean) => {
    askRun?.(go);
    setAskRun(null);
  };
  const saveAndRun = async () => {
    const sent = applyJson();
    if (!sent) return answerRun(false);
    try {
      await save.mutateAsync(sent);
      answerRun(true);
    } catch {
      // The problems are shown beside their steps; the run waits for a valid test.
      answerRun(false);
    }
  };

  /** saveFirst saves the changes before an action on the saved test; false when they could not be saved (the problems show). */
  const saveFirst = async () => {
    const sent = applyJson();
    if (!sent) return false;
    try {
      await save.mutateAsync(sent);
      return true;
    } catch {
      return false;
    }
  };
  const onMade = (res: CreatedComponent) => {
    setMaking(null);
    qc.invalidateQueries({ queryKey: ["components"] });
    const said = { componentId: res.component.id, name: res.component.name };
    if (res.test) {
      qc.invalidateQueries({ queryKey: ["tests"] });
      const version = res.test.version;
      // The hub replaced the steps by a call in a new version: show it as an
      // edit, so Undo brings the steps back (unsaved) if that was a mistake.
      fetchTest(test.id).then((loaded) => {
        ed.replaced(loaded);
        setMade({ ...said, text: `The steps are now component ${res.component.name} v1; this test calls it in version v${version}.` });
      }, setProblem);
    } else {
      setNote(`Component ${res.component.name} made; this test was left as it is.`);
    }
  };

  /** insertRecorded puts a recording's steps after the cursor (else at the end) as unsaved edits. */
  const onInsert = (recorded: JsonObject[]) => {
    const base = applyJson() ?? latest.current;
    // After the cursor in its own list, inside a block too.
    const at = cursor.current === null ? undefined : walkTree(base.steps).find((t) => t.step.id === cursor.current);
    const list = at ? at.list : [];
    const res = insertRecorded(listAt(base.steps, list), recorded, at ? at.index : null, base.steps);
    edit({ ...base, steps: withList(base.steps, list, res.steps) });
    setReveal({ ids: res.ids });
    return res.ids.length;
  };
  const authoring: Authoring = {
    projectId: test.projectId,
    testId: test.id,
    options: runOptions,
    recordingId: recording.rec && running(recording.rec) ? recording.rec.id : null,
    pageUrl: firstNavigateUrl(doc.steps),
    // The picker opens where the step happens: its steps before run on the live session first.
    stepPage: test.can.run
      ? async (stepId) => {
          if (doc.steps.findIndex((st) => st.id === stepId) <= 0) return null;
          const s = await live.ensure();
          return { sessionId: s.id, stepId, document: doc as unknown as JsonObject };
        }
      : undefined,
    firstStepId: typeof doc.steps[0]?.id === "string" ? doc.steps[0].id : null,
  };

  const notice = readOnly && (READ_ONLY_NOTICE[test.status] ?? "You can view this test but not edit it.");
  return (
    <div className="editor">
      <PageHeader
        title={test.name}
        subtitle={
          <span className="editor-meta">
            <span className="mono">v{test.version}</span>
            <StatusBadge status={test.status} />
            <span className={`badge badge-${test.visibility.toLowerCase()}`}>{test.visibility}</span>
            <span>Owner: {test.owner?.name ?? "—"}</span>
            <Link to={`/tests/${test.id}/versions`}>History</Link>
            <Link to={`/runs?testId=${encodeURIComponent(test.id)}`}>Runs</Link>
            <HealthBadges quarantine={test.quarantine} />
            <TestHistorySummary testId={test.id} />
          </span>
        }
      >
        <StartRunButton test={test} document={doc} beforeOpen={beforeRun} />
        {!readOnly && (
          <button type="submit" form="editor-form" className="primary" disabled={!canSave}>
            {save.isPending ? "Saving…" : "Save"}
          </button>
        )}
      </PageHeader>

      <div className="row editor-toolbar">
        {!readOnly && (
          <span className="row-buttons" role="group" aria-label="History">
            <button type="button" onClick={undo} disabled={!canUndo} title="Undo the last edit (Ctrl+Z)">
              Undo
            </button>
            <button type="button" onClick={redo} disabled={!canRedo} title="Redo the edit undone last (Ctrl+Shift+Z or Ctrl+Y)">
              Redo
            </button>
          </span>
        )}
        <button type="button" onClick={onCheck} disabled={check.isPending}>
          {check.isPending ? "Checking…" : "Check"}
        </button>
        <ExportButton testId={test.id} testName={test.name} dirty={changed} />
        {canAuthor && (
          <button ref={recordButton} type="button" aria-expanded={recordOpen} onClick={() => setRecordOpen(true)} disabled={recordOpen}>
            Record
          </button>
        )}
        {canAuthor && (
          <button ref={draftButton} type="button" aria-expanded={draftOpen} onClick={() => setDraftOpen(true)} disabled={draftOpen}>
            Draft from text
          </button>
        )}
        {canAuthor && <EditorEnvironment projectId={test.projectId} options={runOptions} />}
        <span className="toolbar-sep" aria-hidden="true" />
        <EditorActions test={test} etag={ed.etag} dirty={changed} onChanged={ed.adopt} onProblem={setProblem} />
        <QuarantineAction test={test} onChanged={ed.adopt} />
        <span className="spacer" />
        <span role="status" className={changed ? "unsaved" : "muted"}>
          {changed ? "Unsaved changes" : note}
        </span>
      </div>

      <QuarantineNotice quarantine={test.quarantine} />
      {notice && <p className="notice">{notice}</p>}
      {made && (
        <p className="ok-box" role="status">
          {made.text} <Link to={`/components/${made.componentId}`}>Open component {made.name}</Link>
        </p>
      )}
      <ActionProblem error={problem} onReload={onReload} copyText={() => jsonDraft ?? formatDocument(doc)} />
      <TopIssues issues={view === "json" ? ed.issues : ed.placed.top} />

      {canAuthor && recordOpen && (
        <RecordPanel recording={recording} authoring={authoring} registry={registry} onInsert={onInsert} onClose={closeRecord} />
      )}
      {canAuthor && draftOpen && (
        <DraftPanel
          authoring={authoring}
          registry={registry}
          onInsert={onInsert}
          onClose={() => {
            setDraftOpen(false);
            setTimeout(() => draftButton.current?.focus());
          }}
        />
      )}
      {canAuthor && test.can.run && <LiveRunBar live={live} options={runOptions} doc={doc} stepId={cursorId} onFix={fixTarget} />}
      <div role="tablist" aria-label="Editor view" className="editor-tabs" onKeyDown={onTabKey}>
        {VIEWS.map(([v, label]) => (
          <button
            key={v}
            type="button"
            role="tab"
            id={`editor-tab-${v}`}
            aria-selected={view === v}
            tabIndex={view === v ? 0 : -1}
            aria-controls="editor-panel"
            onClick={v === "form" ? showForm : showJson}
          >
            {label}
          </button>
        ))}
      </div>
      <AuthoringProvider value={canAuthor ? authoring : null}>
        <form id="editor-form" onSubmit={onSave} noValidate>
          <div role="tabpanel" id="editor-panel" aria-labelledby={`editor-tab-${view}`}>
            {/* The form stays mounted under the JSON view, so which steps are open survives a switch. */}
            <div hidden={view !== "form"}>
              <StepList
                steps={doc.steps}
                registry={registry}
                readOnly={readOnly}
                issues={ed.placed.steps}
                onChange={(steps) => edit({ ...doc, steps })}
                initialStep={params.get("step")}
                onCursor={onCursor}
                reveal={reveal}
                marks={liveMarks}
                selectionActions={
                  canMakeComponent
                    ? (ids) => (
                        <button
                          type="button"
                          className="small"
                          disabled={ids.length === 0}
                          title="Turn the selected steps into a reusable component"
                          onClick={() => setMaking(ids)}
                        >
                          Make component
                        </button>
                      )
                    : undefined
                }
                aside={
                  <fieldset className="plain" disabled={readOnly}>
                    <SettingsForm doc={doc} onChange={edit} issues={ed.placed.fields} />
                  </fieldset>
                }
              />
            </div>
            {view === "json" && (
              <JsonView
                text={jsonDraft ?? formatDocument(doc)}
                onText={setJsonDraft}
                error={jsonError}
                onApply={applyJson}
                pending={jsonPending}
                readOnly={readOnly}
              />
            )}
          </div>
        </form>
      </AuthoringProvider>
      <LeaveGuard when={changed} />
      {making && (
        <MakeComponentDialog
          test={test}
          steps={doc.steps}
          ids={making}
          dirty={changed}
          saveFirst={saveFirst}
          onClose={() => setMaking(null)}
          onMade={onMade}
        />
      )}
      {askRun && (
        <Modal title="Save before running?" onClose={() => answerRun(false)}>
          <div className="modal-body">
            <p>A run uses the saved version of the test. Save your changes and run them?</p>
          </div>
          <div className="modal-actions">
            <button type="button" onClick={() => answerRun(false)}>
              Cancel
            </button>
            <button type="button" className="primary" disabled={save.isPending} onClick={saveAndRun}>
              {save.isPending ? "Saving…" : "Save and run"}
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}
