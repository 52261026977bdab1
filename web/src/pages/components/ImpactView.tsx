// What upgrading each caller to the component's latest version changes:
// its status, the version it is pinned to, the step-level diff (same,
// change, remove, add), whether the upgrade adds a version to the test and
// why it may not be upgraded. Chosen callers are upgraded together; each
// answers upgraded, unchanged, refused or not found.
import { useState } from "react";
import { Link } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  componentKeys,
  getComponentImpact,
  upgradeComponentCallers,
  type Component,
  type ComponentCaller,
  type ComponentChange,
  type Registry,
  type Step,
  type UpgradeResult,
} from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { Empty, ErrorBox, Loading, StatusBadge } from "../../components/ui";
import { describeStep } from "../editor/stepText";

/** The mark and words of each kind of diff row. */
const OPS: Record<ComponentChange["op"], { mark: string; words: string }> = {
  same: { mark: " ", words: "unchanged" },
  change: { mark: "~", words: "changed" },
  remove: { mark: "-", words: "removed" },
  add: { mark: "+", words: "added" },
};

function stepLine(step: Step | undefined, registry: Registry | undefined): string {
  if (!step) return "";
  const text = registry ? describeStep(step as unknown as JsonObject, registry) : step.type;
  return `${text} (${step.id})`;
}

/** StepDiff lists the diff rows, coloured, each with its +/- mark; a change shows its old step (-) and its new one (+). */
export function StepDiff({ diff, registry, label }: { diff: ComponentChange[]; registry: Registry | undefined; label: string }) {
  if (diff.length === 0) return <p className="muted">Neither version has steps.</p>;
  const changes = diff.filter((c) => c.op !== "same").length;
  return (
    <>
      <p className="hint">{changes === 0 ? "The steps are the same." : `${changes} of ${diff.length} rows change.`}</p>
      <ol className="cmp-diff" aria-label={label}>
        {diff.map((c, i) => {
          const op = OPS[c.op];
          return (
            <li key={i} className={`cmp-diff-${c.op}`} data-op={c.op}>
              <span className="sr-only">{op.words}: </span>
              {c.op === "change" ? (
                <>
                  <div className="cmp-diff-line cmp-diff-old">
                    <span className="cmp-diff-mark" aria-hidden="true">
                      -
                    </span>
                    <del>{stepLine(c.before, registry)}</del>
                  </div>
                  <div className="cmp-diff-line cmp-diff-new">
                    <span className="cmp-diff-mark" aria-hidden="true">
                      +
                    </span>
                    <ins>{stepLine(c.after, registry)}</ins>
                  </div>
                </>
              ) : (
                <div className="cmp-diff-line">
                  <span className="cmp-diff-mark" aria-hidden="true">
                    {op.mark}
                  </span>
                  {c.op === "remove" ? (
                    <del>{stepLine(c.before, registry)}</del>
                  ) : c.op === "add" ? (
                    <ins>{stepLine(c.after, registry)}</ins>
                  ) : (
                    <span>{stepLine(c.after ?? c.before, registry)}</span>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}

/** upgradable: the caller may be upgraded and does not call the latest version yet. */
const upgradable = (c: ComponentCaller) => c.mayUpgrade && c.addsVersion;

export function ImpactView({
  component,
  registry,
  canManage,
}: {
  component: Component;
  registry: Registry | undefined;
  canManage: boolean;
}) {
  const qc = useQueryClient();
  const impact = useQuery({
    queryKey: componentKeys.impact(component.id),
    queryFn: ({ signal }) => getComponentImpact(component.id, signal),
  });
  const [chosen, setChosen] = useState<string[]>([]);
  // Names of the tests upgraded, kept for the results after the list refreshes.
  const [results, setResults] = useState<{ results: UpgradeResult[]; names: Record<string, string>; to: number } | null>(null);
  const upgrade = useMutation({
    mutationFn: (ids: string[]) => upgradeComponentCallers(component.id, ids),
    onSuccess: async (res, ids) => {
      const names: Record<string, string> = {};
      for (const c of impact.data?.callers ?? []) if (ids.includes(c.testId)) names[c.testId] = c.testName;
      setResults({ results: res, names, to: impact.data?.latestVersion ?? component.latestVersion });
      setChosen([]);
      await qc.invalidateQueries({ queryKey: ["components"] });
      await qc.invalidateQueries({ queryKey: ["tests"] });
    },
  });

  if (impact.isPending) return <Loading label="Working out the impact" />;
  if (impact.isError) return <ErrorBox error={impact.error} title="The impact could not be worked out" />;
  const { callers, latestVersion } = impact.data;
  const open = callers.filter(upgradable);
  const toggle = (id: string, on: boolean) => setChosen((c) => (on ? [...c, id] : c.filter((x) => x !== id)));
  return (
    <section className="cmp-impact" aria-labelledby="cmp-impact-title">
      <h2 id="cmp-impact-title">Upgrading callers to v{latestVersion}</h2>
      <p className="hint">
        Each test you can see whose current version calls this component, with what its steps would become. An upgrade adds a version to the
        test, with the same status and a note saying so; earlier versions are kept.
      </p>
      {results && <UpgradeResults {...results} onClose={() => setResults(null)} />}
      <ErrorBox error={upgrade.error} title="The upgrade failed" />
      {callers.length === 0 ? (
        <Empty>No test you can see calls this component.</Empty>
      ) : (
        <>
          {canManage && (
            <div className="row cmp-impact-actions">
              <button type="button" disabled={open.length === 0} onClick={() => setChosen(open.map((c) => c.testId))}>
                Select all that can be upgraded
              </button>
              <button
                type="button"
                className="primary"
                disabled={chosen.length === 0 || upgrade.isPending}
                onClick={() => upgrade.mutate(chosen)}
              >
                {upgrade.isPending ? "Upgrading…" : `Upgrade selected (${chosen.length})`}
              </button>
            </div>
          )}
          <ul className="cmp-callers">
            {callers.map((c) => (
              <CallerCard
                key={c.testId}
                caller={c}
                latest={latestVersion}
                registry={registry}
                canManage={canManage}
                checked={chosen.includes(c.testId)}
                onCheck={(on) => toggle(c.testId, on)}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function CallerCard({
  caller: c,
  latest,
  registry,
  canManage,
  checked,
  onCheck,
}: {
  caller: ComponentCaller;
  latest: number;
  registry: Registry | undefined;
  canManage: boolean;
  checked: boolean;
  onCheck: (on: boolean) => void;
}) {
  const can = upgradable(c);
  const why = !c.addsVersion
    ? "It already calls the latest version: upgrading changes nothing."
    : !c.mayUpgrade
      ? `It may not be upgraded: ${c.reason ?? "you may not change this test"}.`
      : `Upgrading adds version v${c.testVersion + 1} to the test.`;
  return (
    <li className="panel cmp-caller" data-testid={`caller-${c.testId}`}>
      <div className="cmp-caller-head">
        {canManage && (
          <input
            type="checkbox"
            aria-label={`Select ${c.testName}`}
            checked={checked}
            disabled={!can}
            onChange={(e) => onCheck(e.target.checked)}
          />
        )}
        <Link to={`/tests/${c.testId}`}>
          <strong>{c.testName}</strong>
        </Link>
        <span className="mono">v{c.testVersion}</span>
        <StatusBadge status={c.status} />
        <span>
          calls <span className="mono">v{c.pinnedVersion}</span>
          {c.addsVersion && (
            <>
              {" "}
              → <span className="mono">v{latest}</span>
            </>
          )}
        </span>
      </div>
      <p className={c.mayUpgrade || !c.addsVersion ? "hint" : "cmp-refusal"}>{why}</p>
      {c.addsVersion && <StepDiff diff={c.diff} registry={registry} label={`Changes for ${c.testName}`} />}
    </li>
  );
}

const RESULT_WORDS: Record<UpgradeResult["status"], string> = {
  upgraded: "Upgraded",
  unchanged: "Unchanged",
  refused: "Refused",
  not_found: "Not found",
};

function UpgradeResults({
  results,
  names,
  to,
  onClose,
}: {
  results: UpgradeResult[];
  names: Record<string, string>;
  to: number;
  onClose: () => void;
}) {
  const upgraded = results.filter((r) => r.status === "upgraded").length;
  return (
    <section className={upgraded === results.length ? "ok-box cmp-results" : "notice cmp-results"} aria-labelledby="cmp-results-title">
      <div className="row">
        <h3 id="cmp-results-title">
          {upgraded} of {results.length} upgraded to v{to}
        </h3>
        <span className="spacer" />
        <button type="button" className="small" onClick={onClose}>
          Dismiss
        </button>
      </div>
      <ul>
        {results.map((r) => {
          const name = names[r.testId] ?? r.testId;
          return (
            <li key={r.testId} data-testid={`result-${r.testId}`} className={`cmp-result-${r.status}`}>
              <strong>{RESULT_WORDS[r.status]}</strong>: {name}
              {r.status === "upgraded" && (
                <>
                  {" "}
                  is now at <Link to={`/tests/${r.testId}/versions`}>version v{r.version}</Link>
                </>
              )}
              {r.status === "unchanged" && " already called the latest version"}
              {r.error && <> — {r.error}</>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
