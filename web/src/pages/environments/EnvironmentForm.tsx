// The environment form: name, application, variables as rows, and secrets
// as write-only fields. A secret's value is typed into a password field and
// sent once; the hub never answers it, so the form shows only "set" or
// "not set" and offers to replace or remove.
import { useRef, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  IDENTIFIER,
  keys,
  listSecrets,
  saveEnvironment,
  type Application,
  type Environment,
  type EnvironmentSave,
  type SecretInfo,
} from "../../api/admin";
import { ErrorBox, IssueList, Modal, When } from "../../components/ui";
import { PROTECTED_RULE } from "./protection";
import { useProjectId } from "../../session";

interface Row {
  key: number;
  name: string;
  value: string;
}

/** What the user asked for one secret the project already knows. */
interface SecretEdit {
  value: string;
  remove: boolean;
}

/** buildEnvironmentBody turns the form into a POST body, or answers the problems found. */
export function buildEnvironmentBody(input: {
  env: Environment | null;
  name: string;
  applicationId: string;
  protected: boolean;
  vars: Row[];
  known: string[];
  edits: Record<string, SecretEdit>;
  added: Row[];
}): { body: EnvironmentSave | null; problems: string[] } {
  const problems: string[] = [];
  const name = input.name.trim();
  if (!name) problems.push("The environment needs a name.");

  const variables: Record<string, string> = {};
  input.vars.forEach((r, i) => {
    const k = r.name.trim();
    if (!k && !r.value) return;
    if (!k) problems.push(`Variable ${i + 1} has a value but no name.`);
    else if (!IDENTIFIER.test(k)) problems.push(`Variable name "${k}" must start with a letter or _ and hold only letters, digits and _.`);
    else if (k in variables) problems.push(`Variable "${k}" is listed twice.`);
    else variables[k] = r.value;
  });

  const has = new Set(input.env?.secrets ?? []);
  const secrets: Record<string, string | null> = {};
  for (const k of input.known) {
    const e = input.edits[k];
    if (!e) continue;
    if (e.remove && has.has(k)) secrets[k] = null;
    else if (e.value !== "") secrets[k] = e.value;
  }
  input.added.forEach((r, i) => {
    const k = r.name.trim();
    if (!k && !r.value) return;
    if (!k) problems.push(`New secret ${i + 1} has a value but no name.`);
    else if (!IDENTIFIER.test(k)) problems.push(`Secret name "${k}" must start with a letter or _ and hold only letters, digits and _.`);
    // Name the field that is on screen: "Replace" for a secret this environment has, "Set a value" for one it lacks.
    else if (input.known.includes(k) && has.has(k))
      problems.push(`Secret "${k}" is set already: type its new value in its "Replace" field above instead.`);
    else if (input.known.includes(k))
      problems.push(`Secret "${k}" is listed above, as another environment has it: type its value in its "Set a value" field instead.`);
    else if (k in secrets) problems.push(`New secret "${k}" is listed twice.`);
    else if (r.value === "") problems.push(`New secret "${k}" needs a value.`);
    else secrets[k] = r.value;
  });

  if (problems.length > 0) return { body: null, problems };
  const body: EnvironmentSave = { name, variables, protected: input.protected };
  if (input.env) body.id = input.env.id;
  if (Object.keys(secrets).length > 0) body.secrets = secrets;
  // On update "" removes the application; on create leaving it out means none.
  if (input.env || input.applicationId) body.applicationId = input.applicationId;
  return { body, problems };
}

function rowsOf(vars: Record<string, string>, next: () => number): Row[] {
  return Object.keys(vars)
    .sort()
    .map((k) => ({ key: next(), name: k, value: vars[k] }));
}

export function EnvironmentForm({
  env,
  applications,
  known,
  names,
  onClose,
}: {
  env: Environment | null;
  applications: Application[];
  /** Secret names any environment of the project has. */
  known: string[];
  /** Names of the project's environments, to warn about a duplicate. */
  names: string[];
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const counter = useRef(0);
  const next = () => ++counter.current;
  const [name, setName] = useState(env?.name ?? "");
  const [applicationId, setApplicationId] = useState(env?.applicationId ?? "");
  const [isProtected, setProtected] = useState(env?.protected ?? false);
  const [vars, setVars] = useState<Row[]>(() => rowsOf(env?.variables ?? {}, next));
  const [edits, setEdits] = useState<Record<string, SecretEdit>>({});
  const [added, setAdded] = useState<Row[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const projectId = useProjectId();
  const inventory = useQuery({ queryKey: keys.secrets(projectId), queryFn: () => listSecrets(projectId), enabled: !!env });

  const save = useMutation({
    mutationFn: (body: EnvironmentSave) => saveEnvironment(projectId, body),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ["environments"] });
      await qc.invalidateQueries({ queryKey: ["secrets"] });
      onClose();
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { body, problems } = buildEnvironmentBody({
      env,
      name,
      applicationId,
      protected: isProtected,
      vars,
      known,
      edits,
      added,
    });
    setProblems(problems);
    if (body) save.mutate(body);
  };

  const duplicate = name.trim() !== "" && name.trim() !== env?.name && names.includes(name.trim());
  const setRow = (list: Row[], set: (r: Row[]) => void, key: number, patch: Partial<Row>) =>
    set(list.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const edit = (k: string, patch: Partial<SecretEdit>) =>
    setEdits((cur) => ({ ...cur, [k]: { ...(cur[k] ?? { value: "", remove: false }), ...patch } }));
  const info = (k: string): SecretInfo | undefined => inventory.data?.find((s) => s.environmentId === env?.id && s.name === k);

  return (
    <Modal title={env ? `Edit environment ${env.name}` : "New environment"} onClose={onClose} wide>
      <form className="form env-form" onSubmit={submit} autoComplete="off">
        <div className="field">
          <label>
            Name
            <input required autoFocus maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          {duplicate && <span className="field-error">The project has an environment with this name.</span>}
        </div>
        <div className="field">
          <label>
            Application
            <select value={applicationId} onChange={(e) => setApplicationId(e.target.value)} aria-describedby="env-app-hint">
              <option value="">No application</option>
              {applications.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.baseUrl})
                </option>
              ))}
            </select>
          </label>
          <span className="hint" id="env-app-hint">
            Runs get the application's base URL as <code>{"${baseUrl}"}</code> unless a variable named baseUrl is set here.
          </span>
        </div>
        <div className="field">
          <label className="inline">
            <input
              type="checkbox"
              checked={isProtected}
              onChange={(e) => setProtected(e.target.checked)}
              aria-describedby="env-protected-hint"
            />
            Protected
          </label>
          <span className="hint" id="env-protected-hint">
            {PROTECTED_RULE}
          </span>
        </div>

        <fieldset>
          <legend>Variables</legend>
          {vars.length === 0 && <p className="hint">No variables.</p>}
          {vars.map((r, i) => (
            <div className="kv-row" key={r.key}>
              <input
                aria-label={`Variable name ${i + 1}`}
                placeholder="name"
                className="mono"
                value={r.name}
                onChange={(e) => setRow(vars, setVars, r.key, { name: e.target.value })}
              />
              <input
                aria-label={`Variable value ${i + 1}`}
                placeholder="value"
                value={r.value}
                onChange={(e) => setRow(vars, setVars, r.key, { value: e.target.value })}
              />
              <button
                type="button"
                className="small"
                aria-label={`Remove variable ${i + 1}`}
                onClick={() => setVars(vars.filter((x) => x.key !== r.key))}
              >
                Remove
              </button>
            </div>
          ))}
          <button type="button" className="small" onClick={() => setVars([...vars, { key: next(), name: "", value: "" }])}>
            Add variable
          </button>
        </fieldset>

        <fieldset>
          <legend>Secrets</legend>
          <p className="hint">
            Values are write-only: once saved nobody can read them back, here or through the API. A run receives the ones its test uses as{" "}
            <code>{"${secrets.NAME}"}</code>, and logs show <code>***</code> in their place. Leave a field empty to keep the secret as it
            is.
          </p>
          {known.some((k) => !(env?.secrets.includes(k) ?? false)) && (
            <p className="hint" id="env-not-set-hint">
              A secret marked “not set” is one another environment of this project has and this one does not yet: tests that use it fail
              here until it has a value. Set one, or leave it empty.
            </p>
          )}
          {known.map((k) => {
            const set = env?.secrets.includes(k) ?? false;
            const e = edits[k] ?? { value: "", remove: false };
            const who = info(k);
            return (
              <div className="secret-row" key={k}>
                <span className="mono secret-name">{k}</span>
                <span className={set ? "badge badge-set" : "badge badge-not-set"}>{set ? "set" : "not set"}</span>
                <span className="hint">
                  {set && who && (
                    <>
                      <When at={who.updatedAt} />
                      {who.updatedBy ? ` by ${who.updatedBy.name}` : ""}
                    </>
                  )}
                </span>
                <input
                  type="password"
                  autoComplete="new-password"
                  aria-label={set ? `Replace ${k}` : `Set ${k}`}
                  aria-describedby={set ? undefined : "env-not-set-hint"}
                  placeholder={set ? "Replace" : "Set a value"}
                  disabled={e.remove}
                  value={e.value}
                  onChange={(ev) => edit(k, { value: ev.target.value })}
                />
                {set ? (
                  <label className="inline">
                    <input type="checkbox" checked={e.remove} onChange={(ev) => edit(k, { remove: ev.target.checked, value: "" })} />
                    Remove <span className="sr-only">{k}</span>
                  </label>
                ) : (
                  <span />
                )}
              </div>
            );
          })}
          {added.map((r, i) => (
            <div className="kv-row" key={r.key}>
              <input
                aria-label={`Secret name ${i + 1}`}
                placeholder="NAME"
                className="mono"
                value={r.name}
                onChange={(e) => setRow(added, setAdded, r.key, { name: e.target.value })}
              />
              <input
                type="password"
                autoComplete="new-password"
                aria-label={`Secret value ${i + 1}`}
                placeholder="value"
                value={r.value}
                onChange={(e) => setRow(added, setAdded, r.key, { value: e.target.value })}
              />
              <button
                type="button"
                className="small"
                aria-label={`Remove new secret ${i + 1}`}
                onClick={() => setAdded(added.filter((x) => x.key !== r.key))}
              >
                Remove
              </button>
            </div>
          ))}
          <button type="button" className="small" onClick={() => setAdded([...added, { key: next(), name: "", value: "" }])}>
            Add secret
          </button>
        </fieldset>

        {problems.length > 0 && (
          <div className="error-box" role="alert">
            <ul>
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
        )}
        <ErrorBox error={save.error} />
        <IssueList error={save.error} />
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : env ? "Save" : "Create environment"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
