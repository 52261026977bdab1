// A test's history as lists show it (docs/history.md): the pass/fail strip
// of its last runs, its rates, and the Flaky and Quarantined badges.
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import type { HistoryRun, ListHistory, Quarantine } from "../../api/historyApi";
import { getTestHistory, percent } from "../../api/historyApi";
import { formatDuration, relativeTime } from "../../components/ui";
import "./history.css";

/** runTitle: "passed · v3 · Staging · 2 min ago", what a strip cell says of its run. */
export function runTitle(r: HistoryRun, now = Date.now()): string {
  const status = [r.status, r.flaky ? "after a retry" : "", r.quarantined ? "(quarantined)" : ""].filter(Boolean).join(" ");
  return [status, `v${r.version}`, r.environmentName ?? "no environment", relativeTime(r.finishedAt, now)].join(" · ");
}

/**
 * HistoryStrip: one small cell per run, oldest left, newest right (runs
 * come newest first), coloured by result, each a link to its run.
 */
export function HistoryStrip({ runs, now }: { runs: HistoryRun[]; now?: number }) {
  if (runs.length === 0) return <span className="muted">no runs</span>;
  const ordered = [...runs].reverse();
  return (
    <span className="hs-strip" role="list" aria-label="Last runs, oldest first">
      {ordered.map((r) => {
        const title = runTitle(r, now);
        return (
          <Link
            key={r.runId}
            role="listitem"
            to={`/runs/${encodeURIComponent(r.runId)}`}
            className={`hs-cell hs-${r.status}${r.flaky ? " hs-flaky" : ""}${r.quarantined ? " hs-quarantined" : ""}`}
            title={title}
            aria-label={title}
          />
        );
      })}
    </span>
  );
}

/** HealthBadges: "Flaky" while the test is called flaky, "Quarantined" (its reason as title) while it is. */
export function HealthBadges({ flaky, quarantine }: { flaky?: boolean; quarantine?: Quarantine | null }) {
  return (
    <>
      {flaky && (
        <span
          className="badge badge-flaky"
          title="Passed after a retry, or flipped between passed and failed twice on one version and environment, in its last 10 runs"
        >
          Flaky
        </span>
      )}
      {quarantine && (
        <span
          className="badge badge-quarantined"
          title={`Quarantined${quarantine.byName ? ` by ${quarantine.byName}` : ""}: ${quarantine.reason}`}
        >
          Quarantined
        </span>
      )}
    </>
  );
}

/** HistoryCell: the test list's history column. */
export function HistoryCell({ history, quarantine }: { history?: ListHistory; quarantine: Quarantine | null }) {
  return (
    <div className="hs-cellbox">
      <HistoryStrip runs={history?.recent ?? []} />
      <div className="tl-sub">
        <span title="Passed, among its last 100 runs that passed or failed">{percent(history?.passRate)} passed</span>
        {history?.flakyRate ? (
          <span title="Passed after a retry, among the same runs"> · {percent(history.flakyRate)} flaky</span>
        ) : null}{" "}
        <HealthBadges flaky={history?.flaky} quarantine={quarantine} />
      </div>
    </div>
  );
}

/**
 * TestHistorySummary: the test header's history (GET /api/tests/:id/history):
 * the strip of its last 10 runs, pass rate, the Flaky badge, and whether
 * its passed runs got slower.
 */
export function TestHistorySummary({ testId }: { testId: string }) {
  const q = useQuery({ queryKey: ["tests", "history", testId], queryFn: ({ signal }) => getTestHistory(testId, signal) });
  if (!q.data) return null;
  const h = q.data;
  const { recentMedianMs: recent, previousMedianMs: previous } = h.durationTrend;
  return (
    <span className="hs-summary">
      <HistoryStrip runs={h.runs.slice(0, 10)} />
      <span title={`Over its last ${h.runs.length} finished runs`}>{percent(h.passRate)} passed</span>
      {recent != null && (
        <span title="Median duration of its last 10 passed runs, and of the 10 before">
          {formatDuration(recent)}
          {previous != null && ` (was ${formatDuration(previous)})`}
        </span>
      )}
      <HealthBadges flaky={h.flaky} />
    </span>
  );
}

/** QuarantineNotice says a test is quarantined, by whom and why. */
export function QuarantineNotice({ quarantine }: { quarantine: Quarantine | null }) {
  if (!quarantine) return null;
  return (
    <p className="quarantine-banner" role="note">
      Quarantined{quarantine.byName ? ` by ${quarantine.byName}` : ""}: {quarantine.reason}. Its failures fail no batch until the quarantine
      is lifted.
    </p>
  );
}
