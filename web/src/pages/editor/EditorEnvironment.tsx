// The editor's one environment choice (Issue 27, defect 3): Pick, Record,
// Try, Draft and the Run dialog all use it. It defaults to the project's
// last-used environment, else its only one, and a change is remembered
// per project for the next visit and the next Run dialog.
import { rememberEnvironment, type RunOptions } from "../runs/RunOptionsFields";

export function EditorEnvironment({ projectId, options }: { projectId: string; options: RunOptions }) {
  const { envs, envId, setEnvironmentId } = options;
  return (
    <label className="inline editor-environment">
      Environment
      <select
        value={envId}
        disabled={envs.isPending}
        onChange={(e) => {
          setEnvironmentId(e.target.value);
          rememberEnvironment(projectId, e.target.value);
        }}
      >
        <option value="">No environment</option>
        {(envs.data ?? []).map((e) => (
          <option key={e.id} value={e.id}>
            {e.protected ? `${e.name} (protected)` : e.name}
          </option>
        ))}
      </select>
    </label>
  );
}
